/* ring: a token goes around all ranks, each adding rank + 1 to it; rank 0
 * checks the sum after every lap and reports the time per lap.
 *   ring [laps]        (default 10) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, lap, laps = 10, ok = 1;
    long long token = 0, expected;
    double t0, t1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) laps = atoi(argv[1]);
    if (laps < 1) {
        if (rank == 0) fprintf(stderr, "ring: laps must be at least 1\n");
        MPI_Finalize();
        return 2;
    }
    int next = (rank + 1) % size;
    int prev = (rank + size - 1) % size;
    long long per_lap = (long long)size * (size + 1) / 2;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (lap = 1; lap <= laps; lap++) {
        if (rank == 0) {
            token += 1;
            MPI_Send(&token, 1, MPI_LONG_LONG, next, lap, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_LONG_LONG, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            expected = per_lap * lap;
            if (token != expected) {
                printf("ring: lap %d: token %lld, expected %lld\n", lap, token, expected);
                ok = 0;
            }
        } else {
            MPI_Status st;
            MPI_Recv(&token, 1, MPI_LONG_LONG, prev, lap, MPI_COMM_WORLD, &st);
            if (st.MPI_SOURCE != prev || st.MPI_TAG != lap) ok = 0;
            token += rank + 1;
            MPI_Send(&token, 1, MPI_LONG_LONG, next, lap, MPI_COMM_WORLD);
        }
    }
    t1 = MPI_Wtime();

    /* every rank's verdict counts, not only rank 0's */
    int all_ok;
    MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("ring: %d ranks, %d laps, token %lld: %s\n", size, laps, token, all_ok ? "OK" : "WRONG");
        printf("ring: %.3f us per lap, %.3f us per hop\n", (t1 - t0) / laps * 1e6, (t1 - t0) / laps / size * 1e6);
    }
    MPI_Finalize();
    return rank == 0 && !all_ok ? 1 : 0;
}
