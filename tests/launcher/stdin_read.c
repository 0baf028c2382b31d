/* stdin belongs to rank 0, as under mpirun: rank 0 reads every line (fgets,
 * getchar, fread) and reports the sum of the numbers on them; the other
 * ranks see end of file at once. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, others_eof = 1, all;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        char line[128];
        long sum = 0, lines = 0;
        int c = getchar(); /* the first line's first character, by itself */
        ungetc(c, stdin);
        while (fgets(line, sizeof line, stdin)) {
            sum += atol(line);
            lines++;
        }
        printf("stdin: %ld lines, sum %ld, then %s\n", lines, sum, feof(stdin) ? "end of file" : "no end of file");
    } else {
        others_eof = getchar() == EOF && feof(stdin);
    }
    MPI_Reduce(&others_eof, &all, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("stdin: other ranks %s\n", all ? "saw end of file" : "READ SOMETHING");
    MPI_Finalize();
    return 0;
}
