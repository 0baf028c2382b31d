/* Where the time of one MPI_Send + MPI_Recv goes, piece by piece: rank 0
 * times the runtime's internal steps of the message path in loops, with
 * nobody else sending. A developer's diagnostic for gpumpi only (it calls
 * the runtime's internal functions, declared here as runtime/src/runtime.h
 * has them), not a program for a CPU MPI. The checks and lookups that
 * are inline in runtime.h cannot be timed alone; a call to one of the
 * general functions behind them shows what a call into another file costs.
 *   p2p_anatomy [REPS]      default 2000 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int gp_comm_check_general(const char *fn, MPI_Comm comm);
int gp_type_size_general(MPI_Datatype t);
void gp_send_typed(const void *buf, int count, MPI_Datatype type, int dest_world, int tag, int ctx);
int gp_recv_typed(void *buf, int count, MPI_Datatype type, int src_world, int tag, int ctx, int *got_src,
                  int *got_tag, size_t *got_bytes);

static volatile int sink;

#define TIME(label, body)                                                   \
    do {                                                                    \
        double t0_ = MPI_Wtime();                                           \
        for (int i_ = 0; i_ < reps; i_++) { body; }                         \
        double us_ = 1e6 * (MPI_Wtime() - t0_) / reps;                      \
        printf("p2p_anatomy: %-44s %8.3f us\n", label, us_);                \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int reps = argc > 1 ? atoi(argv[1]) : 2000;
    if (me == 0) {
        double x = 1.5, y = 0;
        int s, t, ctx = 2 /* MPI_COMM_WORLD's point-to-point context */, bad = 0;
        size_t got;
        TIME("empty loop", sink = i_);
        TIME("MPI_Wtime", sink = (int)MPI_Wtime());
        TIME("MPI_Comm_rank", MPI_Comm_rank(MPI_COMM_WORLD, &s));
        TIME("gp_comm_check_general (a call elsewhere)", sink = gp_comm_check_general("MPI_Send", MPI_COMM_WORLD));
        TIME("gp_type_size_general (a call elsewhere)", sink = gp_type_size_general(MPI_DOUBLE));
        TIME("MPI_Iprobe (nothing there)", MPI_Iprobe(0, 99, MPI_COMM_WORLD, &s, MPI_STATUS_IGNORE));
        TIME("gp_send_typed+gp_recv_typed to self", gp_send_typed(&x, 1, MPI_DOUBLE, 0, 5, ctx);
             gp_recv_typed(&y, 1, MPI_DOUBLE, 0, 5, ctx, &s, &t, &got); bad += y != x);
        TIME("MPI_Send+MPI_Recv to self", MPI_Send(&x, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
             MPI_Recv(&y, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); bad += y != x);
        TIME("MPI_Isend+MPI_Recv+MPI_Wait to self", MPI_Request rq; MPI_Isend(&x, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &rq);
             MPI_Recv(&y, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Wait(&rq, MPI_STATUS_IGNORE);
             bad += y != x);
        printf("p2p_anatomy: %s (%d self messages checked)\n", bad ? "FAILED" : "verified", 3 * reps);
    }
    MPI_Finalize();
    return 0;
}
