/* hello: every rank reports in; rank 0 also echoes the program arguments. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    printf("Hello from rank %d of %d on %s\n", rank, size, name);
    if (rank == 0) {
        int i;
        for (i = 1; i < argc; i++) printf("argument %d: %s\n", i, argv[i]);
    }
    MPI_Finalize();
    return 0;
}
