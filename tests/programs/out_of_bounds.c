/* A stack array written one past its end when the program is given an
 * argument: what -fsanitize=address on the threads backend must catch
 * (tests/driver/driver.sh). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int r, a[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    volatile int i = argc > 1 ? 4 : 3;
    a[i] = r; /* out of bounds with an argument */
    printf("rank %d ok %d\n", r, a[3]);
    MPI_Finalize();
    return 0;
}
