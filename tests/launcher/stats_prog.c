/* A program with known message counts for --stats: every rank sends K
 * messages of B bytes to its right neighbour and receives K from its left. */
#include <mpi.h>
#include <stdio.h>

#define K 10
#define B 100

int main(int argc, char **argv)
{
    int rank, size;
    char out[B] = {0}, in[B];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < K; i++) {
        MPI_Request r;
        MPI_Irecv(in, B, MPI_CHAR, (rank + size - 1) % size, i, MPI_COMM_WORLD, &r);
        MPI_Send(out, B, MPI_CHAR, (rank + 1) % size, i, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
