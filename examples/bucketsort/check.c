#include <stdio.h>
#include <mpi.h>
#include "check.h"
#include "exchange.h"

long long check_sorted(const uint32_t *keys, int n)
{
    int rank, p, i;
    long long errors = 0;
    unsigned int mymax, before = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (i = 1; i < n; i++)
        if (keys[i - 1] > keys[i]) {
            if (errors++ < 3)
                fprintf(stderr, "bucketsort: rank %d: keys %d and %d out of order (%u > %u)\n", rank, i - 1, i,
                        keys[i - 1], keys[i]);
        }
    for (i = 0; i < n; i++)
        if (bucket_of(keys[i], p) != rank) {
            if (errors++ < 3)
                fprintf(stderr, "bucketsort: rank %d holds key %u of rank %d's bucket\n", rank, keys[i],
                        bucket_of(keys[i], p));
        }
    /* the largest key on any earlier rank must not exceed my smallest */
    mymax = n ? keys[n - 1] : 0;
    MPI_Exscan(&mymax, &before, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD);
    if (rank > 0 && n > 0 && before > keys[0]) {
        errors++;
        fprintf(stderr, "bucketsort: rank %d: first key %u below %u on an earlier rank\n", rank, keys[0], before);
    }
    return errors;
}
