/* Each rank sums 1..(rank+1)*100; rank 0 prints the total and a check. */
#include <mpi.h>
#include <stdio.h>
#include "shared.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long mine = lib_sum((long)(rank + 1) * 100), total = 0;
    MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int all_calls = 0;
    MPI_Reduce(&calls, &all_calls, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        long want = 0;
        for (int r = 0; r < size; r++) want += (long)(r + 1) * 100 * ((r + 1) * 100 + 1) / 2;
        printf("sums: %d ranks, total %ld, %d library calls: %s\n", size, total, all_calls,
               total == want && all_calls == size ? "OK" : "WRONG");
    }
    MPI_Finalize();
    return 0;
}
