/* Every rank prints many lines, some longer than one host-call cell; each
 * line must arrive whole, none lost, each rank's lines in order.
 *   printmany [lines per rank] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, i, lines = 100;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) lines = atoi(argv[1]);
    for (i = 0; i < lines; i++) {
        /* every 10th line is 300+ characters wide */
        int width = i % 10 == 0 ? 300 : 20;
        printf("rank %d line %d %0*d end\n", rank, i, width, rank);
    }
    fprintf(stderr, "rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
