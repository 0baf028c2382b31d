/* What one MPI_Send and one MPI_Recv cost when nobody waits, beside the
 * ping-pong's half round trip: the rest of the latency is the time a message
 * takes to be noticed. Rank 0 sends K small messages back to back (they fit
 * the sender's eager slots); after a barrier the last rank receives them, all
 * already there. Then what three local calls cost, which send no message
 * (each REPS x 50 times): MPI_Get_count of a basic type, MPI_Comm_rank of
 * MPI_COMM_WORLD, and MPI_Pcontrol, which does nothing: a call alone. Plain
 * MPI C (gpumpicc or mpicc).
 *   p2p_cost [REPS [K]]      defaults 200, 4 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int reps = argc > 1 ? atoi(argv[1]) : 200, k = argc > 2 ? atoi(argv[2]) : 4, peer = n - 1, bad = 0;
    double x = 1.5, y, t_send = 0, t_recv = 0, t_wtime = 0, t_barrier = 0;
    for (int r = 0; r < reps; r++) {
        double t = MPI_Wtime();
        if (me == 0)
            for (int i = 0; i < k; i++) MPI_Send(&x, 1, MPI_DOUBLE, peer, i, MPI_COMM_WORLD);
        t_send += MPI_Wtime() - t;
        t = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        t_barrier += MPI_Wtime() - t;
        t = MPI_Wtime();
        if (me == peer)
            for (int i = 0; i < k; i++) {
                y = 0;
                MPI_Recv(&y, 1, MPI_DOUBLE, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                bad += y != x;
            }
        t_recv += MPI_Wtime() - t;
        t = MPI_Wtime();
        t_wtime += MPI_Wtime() - t;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Status st;
    MPI_Status_set_elements(&st, MPI_DOUBLE, 3);
    int calls = reps * 50, got = 0, sum = 0;
    double t = MPI_Wtime();
    for (int i = 0; i < calls; i++) {
        MPI_Get_count(&st, MPI_DOUBLE, &got);
        sum += got;
    }
    double t_count = MPI_Wtime() - t;
    t = MPI_Wtime();
    for (int i = 0; i < calls; i++) {
        MPI_Comm_rank(MPI_COMM_WORLD, &got);
        sum += got;
    }
    double t_rank = MPI_Wtime() - t;
    t = MPI_Wtime();
    for (int i = 0; i < calls; i++) sum += MPI_Pcontrol(0);
    double t_pcontrol = MPI_Wtime() - t;
    if (sum != calls * (3 + me)) bad++;
    if (me == 0) printf("p2p_cost: %d ranks, %d x %d messages: MPI_Send %.3f us per call\n", n, reps, k, 1e6 * t_send / reps / k);
    if (me == peer) {
        printf("p2p_cost: MPI_Recv (message already there) %.3f us per call; MPI_Wtime %.3f us; MPI_Barrier %.3f us\n",
               1e6 * t_recv / reps / k, 1e6 * t_wtime / reps, 1e6 * t_barrier / reps);
        printf("p2p_cost: local calls: MPI_Get_count %.3f us, MPI_Comm_rank %.3f us, MPI_Pcontrol %.3f us\n",
               1e6 * t_count / calls, 1e6 * t_rank / calls, 1e6 * t_pcontrol / calls);
        if (bad)
            printf("p2p_cost: FAILED: %d of %d messages had the wrong value, or the local calls' answers were wrong\n",
                   bad, reps * k);
        else
            printf("p2p_cost verified: %d messages and the local calls' answers, every value checked\n", reps * k);
    }
    MPI_Finalize();
    return bad != 0;
}
