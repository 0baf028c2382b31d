/* Matched probes: MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv. A
 * matched message is out of matching: a later probe or receive cannot take
 * it, and a receive posted after the probe gets the next message. Unknown
 * sizes received by probing first; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC;
 * large (rendezvous) messages; MPI_ANY_SOURCE over several senders; a
 * derived receive type. Prints " No Errors" when every check passed on
 * every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

/* ints in a large message; fewer on very large worlds */
static int big_ints = 2000;
#define BIG big_ints

/* rank 0 sends rank 1 three messages of one tag; rank 1 matches the first
 * by probe, then receives the others by ordinary receives first */
static void taken_out_of_matching(void)
{
    if (size < 2 || rank > 1) return;
    if (rank == 0) {
        for (int v = 1; v <= 3; v++) MPI_Send(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
        return;
    }
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    MPI_Mprobe(0, 4, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC, "mprobe gave no message");
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 4, "mprobe status %d %d", st.MPI_SOURCE, st.MPI_TAG);
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 1, "mprobe count %d", n);
    /* the probed message is no longer there for these */
    int a = -1, b = -1, c = -1;
    MPI_Recv(&a, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request r;
    MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Mrecv(&c, 1, MPI_INT, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NULL, "mrecv must set the message to MPI_MESSAGE_NULL");
    CHECK(a == 2 && b == 3 && c == 1, "probed message kept apart: %d %d %d", a, b, c);
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 4, "mrecv status");
    /* nothing left: improbe says so */
    int flag = 1;
    MPI_Improbe(0, 4, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(!flag, "improbe found a message that was received");
}

/* ranks 0..senders-1 send rank 0 a message of a size only the sender
 * knows; rank 0 takes them with MPI_ANY_SOURCE, sizes them, and receives
 * each with Mrecv or Imrecv */
static void unknown_sizes(void)
{
    int senders = size < 64 ? size : 64;
    if (rank >= senders) return;
    int len = 1 + rank * 37 % (BIG - 1);
    int *out = malloc(sizeof(int) * len);
    for (int i = 0; i < len; i++) out[i] = rank * 10000 + i;
    MPI_Request sr;
    MPI_Isend(out, len, MPI_INT, 0, 11, MPI_COMM_WORLD, &sr);
    if (rank == 0) {
        int *seen = calloc(senders, sizeof(int));
        for (int k = 0; k < senders; k++) {
            MPI_Message msg;
            MPI_Status st;
            int flag = 0;
            if (k % 2) {
                while (!flag) MPI_Improbe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &flag, &msg, &st);
            } else {
                MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
            }
            int src = st.MPI_SOURCE, n = -1;
            MPI_Get_count(&st, MPI_INT, &n);
            CHECK(src >= 0 && src < senders && !seen[src], "probe source %d", src);
            if (src < 0 || src >= senders) continue;
            seen[src] = 1;
            int want = 1 + src * 37 % (BIG - 1);
            CHECK(n == want, "from %d: count %d want %d", src, n, want);
            int *in = malloc(sizeof(int) * (n > 0 ? n : 1));
            MPI_Status rs;
            if (k % 3 == 0) {
                MPI_Mrecv(in, n, MPI_INT, &msg, &rs);
            } else {
                MPI_Request r;
                MPI_Imrecv(in, n, MPI_INT, &msg, &r);
                CHECK(msg == MPI_MESSAGE_NULL, "imrecv must set the message to MPI_MESSAGE_NULL");
                MPI_Wait(&r, &rs);
            }
            int got = -1, ok = 1;
            MPI_Get_count(&rs, MPI_INT, &got);
            CHECK(got == want && rs.MPI_SOURCE == src && rs.MPI_TAG == 11, "receive status from %d", src);
            for (int i = 0; i < n && i < want; i++) ok &= in[i] == src * 10000 + i;
            CHECK(ok, "data from %d", src);
            free(in);
        }
        free(seen);
    }
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    free(out);
}

/* MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, and receiving it is a no-op */
static void proc_null(void)
{
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC, "mprobe of MPI_PROC_NULL: %d", (int)msg);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "mprobe of MPI_PROC_NULL: status");
    int x = 42;
    MPI_Mrecv(&x, 1, MPI_INT, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NULL && x == 42 && st.MPI_SOURCE == MPI_PROC_NULL, "mrecv of MPI_MESSAGE_NO_PROC");
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 0, "mrecv of MPI_MESSAGE_NO_PROC: count %d", n);
    int flag = 0;
    MPI_Improbe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "improbe of MPI_PROC_NULL");
    MPI_Request r;
    MPI_Imrecv(&x, 1, MPI_INT, &msg, &r);
    MPI_Wait(&r, &st);
    CHECK(x == 42 && st.MPI_SOURCE == MPI_PROC_NULL, "imrecv of MPI_MESSAGE_NO_PROC");
}

/* a ring of large messages into a strided receive type, probed first on a
 * duplicate communicator (whose messages a probe on the world never sees) */
static void large_and_comms(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *out = malloc(sizeof(int) * BIG), *in = malloc(sizeof(int) * 2 * BIG);
    for (int i = 0; i < BIG; i++) out[i] = rank * 3 + i;
    for (int i = 0; i < 2 * BIG; i++) in[i] = -1;
    MPI_Request sr;
    MPI_Isend(out, BIG, MPI_INT, right, 5, dup, &sr);
    int flag = 1;
    MPI_Message msg;
    MPI_Status st;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(!flag, "a probe on the world saw a message of the dup");
    MPI_Mprobe(left, 5, dup, &msg, &st);
    MPI_Datatype every_other;
    MPI_Type_vector(BIG, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Request r;
    MPI_Imrecv(in, 1, every_other, &msg, &r);
    MPI_Wait(&r, &st);
    int ok = 1;
    for (int i = 0; i < BIG; i++) ok &= in[2 * i] == left * 3 + i && in[2 * i + 1] == -1;
    CHECK(ok, "large message into a vector type");
    int n = -1;
    MPI_Get_elements(&st, every_other, &n);
    int want = BIG;
    CHECK(n == want, "get_elements %d", n);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Type_free(&every_other);
    MPI_Comm_free(&dup);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (size > 1024) big_ints = 300;
    taken_out_of_matching();
    MPI_Barrier(MPI_COMM_WORLD);
    unknown_sizes();
    MPI_Barrier(MPI_COMM_WORLD);
    proc_null();
    large_and_comms();
    return mt_finish();
}
