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
