/* Receives that name their source, among a flood from everyone else:
 * in each round every sender sends MSGS numbered messages to rank 0 at
 * once, and rank 0 takes them source by source in an order unlike their
 * arrival (a stride through the senders), so most of its receives wait
 * while other senders' messages keep coming. Odd rounds receive into a
 * strided type (a receive that cannot take the message into its inbox
 * word waits in the library's loop), even rounds into plain ints.
 * Checked: contents, status source, tag and count, each source's order.
 * (gpumpi: a receive that waits looks only at what arrived since it last
 * looked; this checks it misses nothing that came in a burst.) At most
 * 1,024 senders, fewer rounds above 64 ranks: rank 0 alone takes them
 * all. Prints " No Errors" when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include "mpitest.h"

enum { MSGS = 3, MAX_SENDERS = 1024 };

/* the stride through the senders: coprime with their count, so each
 * comes once */
static int stride_for(int senders)
{
    int s = senders / 2 + 1;
    for (;;) {
        int a = s, b = senders;
        while (b) {
            int t = a % b;
            a = b;
            b = t;
        }
        if (a == 1) return s;
        s++;
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int senders = size - 1 < MAX_SENDERS ? size - 1 : MAX_SENDERS;
    int rounds = size > 64 ? 2 : 12;
    MPI_Datatype strided;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided); /* ints 0 and 2 of three */
    MPI_Type_commit(&strided);
    for (int round = 0; round < rounds; round++) {
        int tag = 40 + round % 3;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank >= 1 && rank <= senders) {
            for (int k = 0; k < MSGS; k++) {
                int msg[2] = {rank, round * MSGS + k};
                MPI_Send(msg, 2, MPI_INT, 0, tag, MPI_COMM_WORLD);
            }
        } else if (rank == 0 && senders > 0) {
            int stride = stride_for(senders);
            for (int k = 0; k < MSGS; k++)
                for (int i = 0; i < senders; i++) {
                    int src = 1 + (int)(((long)i * stride) % senders), got[3] = {-1, -7, -1}, n = -1;
                    MPI_Status st;
                    if (round % 2)
                        MPI_Recv(got, 1, strided, src, tag, MPI_COMM_WORLD, &st);
                    else
                        MPI_Recv(got, 2, MPI_INT, src, tag, MPI_COMM_WORLD, &st);
                    MPI_Get_count(&st, MPI_INT, &n);
                    int seq = round % 2 ? got[2] : got[1];
                    CHECK(got[0] == src && seq == round * MSGS + k && st.MPI_SOURCE == src && st.MPI_TAG == tag &&
                              n == 2 && (round % 2 == 0 || got[1] == -7),
                          "round %d: receive %d from %d got (%d, %d), status source %d tag %d count %d", round, k, src,
                          got[0], seq, st.MPI_SOURCE, st.MPI_TAG, n);
                }
        }
    }
    MPI_Type_free(&strided);
    return mt_finish();
}
