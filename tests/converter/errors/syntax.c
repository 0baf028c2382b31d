#include <mpi.h>

int main(void)
{
    int x = ;
    return x;
}
