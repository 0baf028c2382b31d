/* What the bench programs share: starting up, and the median of their
 * repeated measurements. Plain C, included by each program (MPICH's mpicc
 * and gpumpicc alike). */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H
#include <mpi.h>

/* MPI_Init, then this rank and the number of ranks in MPI_COMM_WORLD */
static void bench_init(int *argc, char ***argv, int *me, int *n)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, me);
    MPI_Comm_size(MPI_COMM_WORLD, n);
}

#include <stdio.h>
#include <stdlib.h>

#define BENCH_MAX_REPS 32

/* The arguments of the timed-collective programs (collectives.c,
 * iallreduce.c): [CALLS [REPS [TARGET_MS [WARM]]]], CALLS 0 meaning "fit
 * the count to TARGET_MS". 0 when they are usable; else rank 0 says why and
 * the caller ends. */
static int bench_timing_args(const char *prog, int argc, char **argv, int me, long *calls, int *reps,
                             double *target_ms, long *warm)
{
    *calls = argc > 1 ? atol(argv[1]) : 0;
    *reps = argc > 2 ? atoi(argv[2]) : 3;
    *target_ms = argc > 3 ? (double)atol(argv[3]) : 200.0;
    *warm = argc > 4 ? atol(argv[4]) : 10;
    if (*calls >= 0 && *reps >= 1 && *reps <= BENCH_MAX_REPS && *target_ms > 0 && *warm >= 1) return 0;
    if (me == 0)
        printf("%s: needs CALLS >= 0, 1 <= REPS <= %d, TARGET_MS > 0, WARM >= 1\n", prog, BENCH_MAX_REPS);
    return 1;
}

/* Insertion sort: a handful of measurements. */
static void sort_doubles(double *v, int n)
{
    for (int i = 1; i < n; i++) {
        double x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
}

/* The median of n >= 1 sorted values. */
static double median_sorted(const double *v, int n) { return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }

#endif
