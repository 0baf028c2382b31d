#include <mpi.h>
/* Globals, static locals, __thread: per-rank storage. */
#include <stdio.h>

int counter;
int counter;
static double scale = 2.5, offset;
int table[4] = {1, 2, 3, 4};
int *ptr = &table[2];
const char *names[] = {"zero", "one"};
const int LIMIT = 10;
const int *const cptr = &counter;
__thread int tls_var = 7;
extern int defined_elsewhere;
typedef int (*op_fn)(int);
static int inc(int x) { return x + 1; }
op_fn ops[] = {inc};

int next(void)
{
    static int calls = 0, *last = &calls;
    static const int step = 1;
    calls += step;
    last = &calls;
    return calls + *ptr + LIMIT + *cptr;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    counter = rank;
    tls_var += rank;
    table[0] = rank;
    printf("rank %d: %d %d %s %g %d %d\n", rank, next(), next(), names[1], scale * offset, ops[0](counter), tls_var);
    MPI_Finalize();
    return 0;
}
