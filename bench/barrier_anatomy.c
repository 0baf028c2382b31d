/* Where the time of MPI_Barrier (or an 8-byte MPI_Allreduce) over all ranks
 * goes: every rank notes when it enters and leaves each of ITERS calls (on
 * a clock shared by all ranks), and rank 0 prints, per call, how long the
 * ranks took to arrive (last entry - first entry), how long the call took
 * after the last rank arrived (first and last exit - last entry), and the
 * time from the previous call's last exit to this one's last entry.
 *   barrier_anatomy [ITERS [ALLREDUCE]]     defaults 5, 0 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n, iters = argc > 1 ? atoi(argv[1]) : 5, allreduce = argc > 2 ? atoi(argv[2]) : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (iters > 64) iters = 64;
    double in[64], out[64], x = me, y, sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters; i++) {
        in[i] = MPI_Wtime();
        if (allreduce) {
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            sum += y;
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
        out[i] = MPI_Wtime();
    }
    double want = (double)n * (n - 1) / 2 * iters;
    for (int i = 0; i < iters; i++) {
        double v[2] = {in[i], out[i]}, lo[2], hi[2];
        MPI_Allreduce(v, lo, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(v, hi, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (me == 0)
            printf("%s %d ranks call %d: arrivals spread %.1f us; after the last arrival: first exit %.1f us, last exit %.1f us\n",
                   allreduce ? "allreduce8" : "barrier", n, i, 1e6 * (hi[0] - lo[0]), 1e6 * (lo[1] - hi[0]),
                   1e6 * (hi[1] - hi[0]));
    }
    if (allreduce && sum != want) {
        printf("barrier_anatomy: FAILED on rank %d: sum %.17g, expected %.17g\n", me, sum, want);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (me == 0) printf("barrier_anatomy verified: %s\n", allreduce ? "every sum checked" : "barriers only");
    MPI_Finalize();
    return 0;
}
