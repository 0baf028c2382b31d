/* Rank 1 calls MPI_Abort(…, 42) while the others wait in a barrier: the job
 * must end with status 42, not hang. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        printf("rank 1 aborting\n");
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 42);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
