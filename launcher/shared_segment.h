/* One shared memory segment that every launcher process of a job on one
 * host maps at the same address (the threads backend under mpiexec): the
 * world and everything ranks of different processes touch live in it, so
 * each pointer the runtime stores is valid in every process. */
#ifndef GPUMPI_SHARED_SEGMENT_H
#define GPUMPI_SHARED_SEGMENT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over the launcher processes (host_mpi): process 0 creates a
 * segment of `bytes` (sparse: only touched pages cost memory), the others
 * map it at the address process 0 chose. Returns its base, the same in
 * every process; on failure every process prints why and exits. */
char *gp_segment_open(size_t bytes, int proc);

/* Zero-filled, 64-byte aligned bytes from the segment (process 0 builds the
 * world with it); exits with a message when the segment is full. */
void *gp_segment_alloc(size_t bytes, const char *what);

/* The segment's end (its base is what gp_segment_open returned). */
char *gp_segment_end(void);

#ifdef __cplusplus
}
#endif
#endif
