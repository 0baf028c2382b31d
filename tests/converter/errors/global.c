#include <mpi.h>

int counter;

int next(void)
{
    static int calls = 0;
    return ++calls + counter;
}

int main(void) { return next(); }
