/* Receives that name their source, among a flood from everyone else:
 * in each round every sender sends MSGS numbered messages to rank 0 at
 * once, and rank 0 takes them source by source in an order unlike their
 * arrival (a stride through the senders), so most of its receives wait
 * while other senders' messages keep coming. Odd rounds receive into a
 * strided type (a receive that cannot take the message into its inbox
 * word waits in the library's loop), even rounds into plain ints.
 * Checked: contents, status source, tag and count, each source's order.
 * (gpumpi: a receive that waits looks only at what arrived since it last
 * looked; this checks it misses nothing that came in a burst.)
 * Then MPI_ANY_SOURCE receives of one tag among messages of another,
 * which receives naming their source take out in between while the
 * senders send more (gpumpi: an ANY_SOURCE search goes on from where the
 * last one of its tag left each list, unless something was taken out
 * since; this checks it then starts afresh). At most 1,024 senders, fewer
 * rounds above 64 ranks: rank 0 alone takes them all. Prints " No Errors"
 * when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpitest.h"

enum { MSGS = 3, MAX_SENDERS = 1024, TAG_A = 50, TAG_B = 51, TAG_GO = 52, LATE = 5 };

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

/* rank 0's side of a message (src, k) of tag `tag`: checks it */
static void take(int src, int tag, int *next)
{
    int got[2] = {-1, -1};
    MPI_Status st;
    MPI_Recv(got, 2, MPI_INT, src, tag, MPI_COMM_WORLD, &st);
    int s = st.MPI_SOURCE;
    CHECK(st.MPI_TAG == tag && (src == MPI_ANY_SOURCE || s == src) && s >= 1 && got[0] == s,
          "tag %d from %d: status source %d tag %d, message says %d", tag, src, s, st.MPI_TAG, got[0]);
    if (s >= 1 && s < size) {
        CHECK(got[1] == next[s], "tag %d from %d: message %d, expected %d", tag, s, got[1], next[s]);
        next[s] = got[1] + 1;
    }
}

/* Each sender sends A0 B0, waits for rank 0's go, then sends LATE more
 * pairs (more messages than gpumpi keeps envelope slots a sender, so the
 * A0's slots are used again). Rank 0 takes one B with MPI_ANY_SOURCE
 * (passing over the A's), every A0 by its source, lets the senders go on,
 * then the other B's with MPI_ANY_SOURCE between the later A's by
 * source. */
static void any_past_other_tag(int senders)
{
    int *next_a = rank == 0 ? mt_alloc(sizeof(int) * (size_t)size) : 0;
    int *next_b = rank == 0 ? mt_alloc(sizeof(int) * (size_t)size) : 0;
    for (int round = 0; round < 3; round++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank >= 1 && rank <= senders) {
            for (int k = 0; k <= LATE; k++) {
                int msg[2] = {rank, k}, go = 0;
                MPI_Send(msg, 2, MPI_INT, 0, TAG_A, MPI_COMM_WORLD);
                MPI_Send(msg, 2, MPI_INT, 0, TAG_B, MPI_COMM_WORLD);
                if (k == 0) MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        } else if (rank == 0 && senders > 0) {
            for (int r = 0; r < size; r++) next_a[r] = next_b[r] = 0;
            take(MPI_ANY_SOURCE, TAG_B, next_b);
            for (int s = 1; s <= senders; s++) take(s, TAG_A, next_a);
            for (int s = 1; s <= senders; s++) {
                int go = 1;
                MPI_Send(&go, 1, MPI_INT, s, TAG_GO, MPI_COMM_WORLD);
            }
            for (int i = 0; i < (LATE + 1) * senders - 1; i++) {
                take(MPI_ANY_SOURCE, TAG_B, next_b);
                if (i < LATE * senders) take(1 + i % senders, TAG_A, next_a);
            }
            for (int s = 1; s <= senders; s++)
                CHECK(next_a[s] == LATE + 1 && next_b[s] == LATE + 1, "from %d: %d A and %d B messages, expected %d each",
                      s, next_a[s], next_b[s], LATE + 1);
        }
    }
    free(next_a);
    free(next_b);
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
    any_past_other_tag(senders);
    return mt_finish();
}
