#include <mpi.h>
/* calls outside gpumpi's scope stop the build at the call, naming it */
int main(int argc, char **argv)
{
    int buf[4];
    MPI_Win win;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_File_open(MPI_COMM_WORLD, "data", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, 0, MPI_ERRCODES_IGNORE);
    MPI_Finalize();
    return 0;
}
