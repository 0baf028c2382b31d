/* Every rank weighs its rank number; rank 0 gathers and prints them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "shared.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    weight = argc > 1 ? atoi(argv[1]) : 1;
    double w = lib_weighted(rank);
    if (rank == 0) {
        printf("weights: rank 0 %.2f", w);
        for (int r = 1; r < size; r++) {
            MPI_Recv(&w, 1, MPI_DOUBLE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf(" rank %d %.2f", r, w);
        }
        printf("\n");
    } else {
        MPI_Send(&w, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
