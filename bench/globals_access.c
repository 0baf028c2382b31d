/* Cost of a per-rank global: every rank updates a global counter and a
 * global table in a loop; rank 0 reports nanoseconds per access, and every
 * rank checks its result.   globals_access [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

long counter;
int table[64];

static void step(int i)
{
    counter += i & 7;
    table[i & 63] += (int)(counter & 3);
}

int main(int argc, char **argv)
{
    int rank, size, i, ok;
    long iters = argc > 1 ? atol(argv[1]) : 1000000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (i = 0; i < iters; i++) step(i + rank);
    double t1 = MPI_Wtime();
    /* the same loop on locals gives the expected values */
    long c = 0;
    int t[64] = {0};
    for (i = 0; i < iters; i++) {
        c += (i + rank) & 7;
        t[(i + rank) & 63] += (int)(c & 3);
    }
    int mine = c == counter, all;
    for (i = 0; i < 64; i++) mine = mine && t[i] == table[i];
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    ok = all;
    if (rank == 0)
        printf("globals_access: %d ranks, %ld iterations, %.2f ns per iteration (3 global accesses): %s\n", size,
               iters, (t1 - t0) / iters * 1e9, ok ? "OK" : "WRONG");
    MPI_Finalize();
    return !ok;
}
