/* The request/reply host call's cost: every rank makes CALLS calls that
 * each wait for the host's answer (ftell on a file: one host call, no I/O),
 * all ranks at once; rank 0 reports the round trip and the host's rate.
 *   hostcall_rt [CALLS]   (default 1000) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, calls = argc > 1 ? atoi(argv[1]) : 1000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    FILE *f = tmpfile();
    fputc('x', f);
    fflush(f);
    long bad = 0;
    /* one rank alone: the round trip */
    double alone = 0;
    if (rank == 0) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < calls; i++) bad += ftell(f) != 1;
        alone = (MPI_Wtime() - t0) / calls;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < calls; i++) bad += ftell(f) != 1;
    MPI_Barrier(MPI_COMM_WORLD);
    double all = MPI_Wtime() - t0;
    fclose(f);
    long total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("hostcall_rt: %s\n", total ? "WRONG ANSWERS" : "answers right");
        fprintf(stderr, "host call round trip %.2f us (one rank alone); %d ranks calling at once: %.0f calls/s\n",
                alone * 1e6, size, (double)size * calls / all);
    }
    MPI_Finalize();
    return total != 0;
}
