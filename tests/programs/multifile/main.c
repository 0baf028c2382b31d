/* Two translation units: main here, the work in work.c. */
#include <mpi.h>
#include <stdio.h>

double partial_sum(int rank, int size, int n);

int main(int argc, char **argv)
{
    int rank, size;
    double mine, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = partial_sum(rank, size, 1000);
    MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("sum of 1..1000 = %.1f\n", total);
    MPI_Finalize();
    return total == 500500.0 ? 0 : 1;
}
