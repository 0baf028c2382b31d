#include <mpi.h>
void main(void)
{
    MPI_Init(0, 0);
    MPI_Finalize();
}
