/* The deadlock watchdog's test program.
 *   ring      every rank receives from its right neighbour, nobody sends:
 *             a deadlock the watchdog must report (MPI_Recv, the right peers)
 *   mixed     rank 0 waits in a barrier, the others in MPI_Recv from rank 0
 *   nbc       rank 0 waits in MPI_Recv from rank 1, the others in MPI_Wait
 *             for an MPI_Iallreduce that needs rank 0: the report names the
 *             collective and the peer its round waits for
 *   compute   rank 0 computes for SECONDS (argv[2]) while the others wait for
 *             it in MPI_Recv: not a deadlock, the job ends normally */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    const char *how = argc > 1 ? argv[1] : "ring";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strcmp(how, "ring")) {
        MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(how, "mixed")) {
        if (rank == 0)
            MPI_Barrier(MPI_COMM_WORLD);
        else
            MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(how, "nbc")) {
        MPI_Request r;
        if (rank == 0)
            MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
        if (rank != 0) MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        double secs = argc > 2 ? atoi(argv[2]) : 3; /* whole seconds */
        if (rank == 0) {
            double t0 = MPI_Wtime(), x = 1.0;
            while (MPI_Wtime() - t0 < secs) x = x * 1.0000001 + 1e-9; /* computing, not in MPI */
            v = (int)(x > 0);
            for (int r = 1; r < size; r++) MPI_Send(&v, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (rank == 0) printf("compute: done, v %d\n", v);
    }
    MPI_Finalize();
    return 0;
}
