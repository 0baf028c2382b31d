/* Error handlers: the "..." goes (gpumpi's handler type has none, nvcc
 * miscompiles variadic functions called through pointers), except where
 * the function reads variable arguments or does not have a handler's
 * parameters. */
#include <mpi.h>
#include <stdarg.h>

static int calls;

static void handler(MPI_Comm *comm, int *code, ...);

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls += *code + (*comm == MPI_COMM_WORLD);
}

void spaced(MPI_Comm *c, int *e ,  ... ) { (void)c; (void)e; }

static int reads_args(MPI_Comm *c, int *e, ...)
{
    va_list ap;
    va_start(ap, e);
    int v = va_arg(ap, int);
    va_end(ap);
    return v + *e + (c != 0);
}

static int sum(int n, ...) { return n; }

int main(int argc, char **argv)
{
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_errhandler_function *f = spaced;
    f(0, 0);
    MPI_Errhandler_free(&eh);
    MPI_Finalize();
    return reads_args(0, &calls, 1) + sum(0);
}
