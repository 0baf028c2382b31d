/* A program whose ranks need a big stack: main holds a 40,000-byte array
 * and calls a recursive function. gpumpicc must record at least 40,000
 * bytes for it, flagged as recursive, and the launcher must use that. */
#include <mpi.h>
#include <stdio.h>

static int fib(int n) /* two calls: no compiler turns it into a loop */
{
    volatile int pad[8];
    pad[n % 8] = n;
    return n < 2 ? pad[n % 8] : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
    int rank;
    volatile double big[5000];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 5000; i++) big[i] = i + rank;
    printf("rank %d: %.0f %d\n", rank, big[4999], fib(12));
    MPI_Finalize();
    return 0;
}
