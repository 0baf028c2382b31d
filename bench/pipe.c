/* A pipeline: each rank waits for its predecessor's value, adds to it and
 * passes it on (MPI_Irecv + MPI_Wait, then MPI_Isend + MPI_Wait), with no
 * work between the calls: on the GPU a warp's ranks can never all end a
 * call together, the worst case of their regroup (bench/README.md,
 * session 17). Plain MPI C: builds with gpumpicc and with mpicc.
 *   pipe [PASSES]      default 200; prints the time per pass
 *   `pipe ranks= passes= us_per_pass=`, and the last rank's value checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int rank, n, iters = argc > 1 ? atoi(argv[1]) : 200;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double v = 0, t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        MPI_Request r;
        if (rank > 0) {
            MPI_Irecv(&v, 1, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        v += rank;
        if (rank < n - 1) {
            MPI_Isend(&v, 1, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
    double t = MPI_Wtime() - t0, want = (double)n * (n - 1) / 2;
    if (rank == n - 1) {
        printf("pipe ranks=%d passes=%d us_per_pass=%.2f\n", n, iters, t / iters * 1e6);
        if (v != want) {
            printf("pipe FAILED: the last rank got %.0f, not %.0f\n", v, want);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        printf("pipe verified: the last rank got %.0f\n", v);
    }
    MPI_Finalize();
    return 0;
}
