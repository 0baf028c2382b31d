/* Every way a job ends, chosen by argv[1]; the launcher test checks the exit
 * status and the one-line reason.
 *   return     rank 2 returns 3 from main (the others return 0)
 *   exit       rank 1 prints a line and calls exit(5) while the others wait
 *   exit0      every rank calls exit(0) after MPI_Finalize (status 0)
 *   abort      rank 1 calls abort(): status 134
 *   assert     rank 2 fails assert(x == 1): status 134, file, line, expression
 *   mpi_abort  rank 3 calls MPI_Abort(MPI_COMM_WORLD, 7)
 *   segv       rank 1 writes through a bad pointer: status 139
 *   atexit     handlers run in reverse order, at exit() and at return from main
 *   files      a file written without fclose is flushed at exit
 *   before_init CALL     every rank makes CALL (rank, size or allreduce)
 *                        before MPI_Init: a fatal error, status 16
 *   after_finalize CALL  rank 1 makes CALL after MPI_Finalize: the same
 * (CALL goes through the inline fast paths' test of MPI_Init, which
 * reports it without the program's pointers: gp_check_initialized.) */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank;

/* The call named by `what`; returns only if it did not stop the job. */
static void call_outside(const char *what)
{
    int n = -1;
    double x = 1.0, s = -1.0;
    if (!strcmp(what, "rank")) MPI_Comm_rank(MPI_COMM_WORLD, &n);
    if (!strcmp(what, "size")) MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (!strcmp(what, "allreduce")) MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    printf("%s outside MPI returned (n %d, s %g)\n", what, n, s);
}

static void first(void) { printf("rank %d atexit first\n", rank); }
static void second(void) { printf("rank %d atexit second\n", rank); }

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "return";
    int x = 0;
    if (!strcmp(how, "before_init")) call_outside(argc > 2 ? argv[2] : "rank");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!strcmp(how, "return")) {
        MPI_Finalize();
        return rank == 2 ? 3 : 0;
    }
    if (!strcmp(how, "exit")) {
        if (rank == 1) {
            printf("rank 1 before exit\n");
            exit(5);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* never completes: rank 1 ends the job */
        printf("rank %d passed the barrier\n", rank);
    }
    if (!strcmp(how, "exit0")) {
        MPI_Finalize();
        printf("rank %d exits\n", rank);
        exit(0);
    }
    if (!strcmp(how, "abort") && rank == 1) {
        printf("rank 1 before abort\n");
        abort();
    }
    if (!strcmp(how, "assert") && rank == 2) {
        x = 2;
        assert(x == 1);
    }
    if (!strcmp(how, "mpi_abort") && rank == 3) MPI_Abort(MPI_COMM_WORLD, 7);
    if (!strcmp(how, "segv") && rank == 1) {
        /* an address nothing is mapped at on either backend (a GPU store
         * through a null pointer does not always fault: see docs/launcher.md) */
        volatile int *p = (int *)(argc > 1000 ? (char *)argv : (char *)0 + 0xdead0000ul);
        *p = 1;
    }
    if (!strcmp(how, "atexit")) {
        atexit(first);
        atexit(second);
        MPI_Finalize();
        if (rank == 0) exit(0); /* handlers run at exit() */
        return 0;               /* and at return from main */
    }
    if (!strcmp(how, "after_finalize")) {
        MPI_Finalize();
        if (rank == 1) call_outside(argc > 2 ? argv[2] : "rank");
        return 0;
    }
    if (!strcmp(how, "files")) {
        char path[512];
        snprintf(path, sizeof path, "%s/unclosed%d.txt", argc > 2 ? argv[2] : ".", rank);
        FILE *f = fopen(path, "w");
        fprintf(f, "rank %d wrote this and never closed the file\n", rank);
        MPI_Finalize();
        return 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
