/* Moving every key to the rank that owns its bucket. */
#ifndef BUCKETSORT_EXCHANGE_H
#define BUCKETSORT_EXCHANGE_H
#include <stdint.h>
#include <mpi.h>

/* The rank (of nprocs) whose bucket holds key k: buckets are equal slices
 * of the key range, in rank order. */
static inline int bucket_of(uint32_t k, int nprocs)
{
    return (int)(((uint64_t)k * (uint64_t)nprocs) >> 32);
}

/* One all-to-all step over COMM: key i goes to the rank dest(i) of COMM,
 * where the caller computed dest[] beforehand. Replaces *keys (malloc'd)
 * and *n with what this rank received. */
void exchange_step(MPI_Comm comm, uint32_t **keys, int *n, const int *dest);

/* All keys to their buckets: directly (Alltoall + Alltoallv over all
 * ranks, arrays of nprocs counts per rank), or in two steps over the rows
 * and columns of a 2-D process grid (counts of sqrt(nprocs) per rank). */
void exchange_direct(uint32_t **keys, int *n);
void exchange_2level(uint32_t **keys, int *n, int *rows, int *cols);

#endif
