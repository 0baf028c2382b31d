#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
/* rooted_probe CALLS MODE [OPS]: MODE 0 root 0, 1 root rotates, 2 root = last rank; OPS 1 bcast, 2 reduce, 3 both (default) */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    long calls = argc > 1 ? atol(argv[1]) : 1000;
    int mode = argc > 2 ? atoi(argv[2]) : 0, ops = argc > 3 ? atoi(argv[3]) : 3;
    for (int op = 0; op < 2; op++) {
        if (!(ops >> op & 1)) continue;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime(), bad = 0;
        for (long c = 0; c < calls; c++) {
            int root = mode == 0 ? 0 : mode == 1 ? (int)((c * 7919) % n) : n - 1;
            double v = me == root ? (double)c : -1.0, r = 0;
            if (op == 0) {
                MPI_Bcast(&v, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
                if (v != (double)c) bad++;
            } else {
                double x = 1.0;
                MPI_Reduce(&x, &r, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
                if (me == root && r != (double)n) bad++;
            }
        }
        double t = (MPI_Wtime() - t0) / calls * 1e6, tmax, badsum;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&bad, &badsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        double t0r = t;
        if (me == 0) printf("%s mode %d ranks %d: %.2f us a call (slowest), rank 0 %.2f, errors %g\n", op ? "reduce" : "bcast", mode, n, tmax, t0r, badsum);
    }
    MPI_Finalize();
    return 0;
}
