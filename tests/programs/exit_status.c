/* Rank 2 returns 3 from main; the job must end with status 3, like mpirun. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    return rank == 2 ? 3 : 0;
}
