/* Output throughput and integrity: every rank prints LINES numbered lines
 * (default 1000); rank 0 reports how long the printing took on stderr.
 * With "stderr" the lines go to stderr instead, each written in three
 * pieces: every rank's lines must still arrive whole.
 *   lines [LINES [stderr]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, lines = argc > 1 ? atoi(argv[1]) : 1000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int to_err = argc > 2 && strcmp(argv[2], "stderr") == 0;
    for (int i = 0; i < lines; i++) {
        if (to_err) {
            fprintf(stderr, "rank %d ", rank);
            fputs("line ", stderr);
            fprintf(stderr, "%d of %d: the quick brown fox jumps over the lazy dog\n", i, lines);
        } else {
            printf("rank %d line %d of %d: the quick brown fox jumps over the lazy dog\n", rank, i, lines);
        }
    }
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    if (rank == 0) fprintf(stderr, "lines: %d ranks x %d lines in %.3f s: %.0f lines/s\n", size, lines, t, size * (double)lines / t);
    MPI_Finalize();
    return 0;
}
