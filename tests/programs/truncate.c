/* Rank 0 sends 20 ints, rank 1 posts a receive for 10: MPI_ERR_TRUNCATE,
 * reported with the sizes, and the job fails. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, buf[20] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) MPI_Send(buf, 20, MPI_INT, 1, 7, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Recv(buf, 10, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: the truncated receive returned\n");
    }
    MPI_Finalize();
    return 0;
}
