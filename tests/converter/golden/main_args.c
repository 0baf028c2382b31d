#include <mpi.h>
#include <stdlib.h>

int main(int argc, char *argv[])
{
    MPI_Init(&argc, &argv);
    if (argc > 1) return main(argc - 1, argv + 1);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
