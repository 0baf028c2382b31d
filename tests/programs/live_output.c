/* Output must reach the terminal while the program runs, not at the end:
 * rank 0 prints, then keeps computing for a while, then prints again. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("started\n");
        double t0 = MPI_Wtime();
        while (MPI_Wtime() - t0 < 2.0) {
        }
        printf("finished\n");
    }
    MPI_Finalize();
    return 0;
}
