/* The posted-receive queue's order, where MPI fixes it: a message goes to
 * the earliest posted receive that matches (wildcards and specific sources
 * mixed, receives matched before and after the message came), a receive
 * takes the oldest message that matches, a sender's messages stay in
 * order, a cancelled receive drops out, and many receives posted at once
 * each get theirs, with the messages sent after they were posted or
 * already there. Ranks pair up: even ranks receive from the odd rank
 * after them (a last odd-out rank only joins the barriers). The barriers
 * make "posted before the message was sent" hold. */
#include "mpitest.h"

#define NMANY 600
#define NTHERE 120

static int peer, receiver, active;

/* rank `peer` sends v1, v2 with tag `tag` once the receiver has posted */
static void send_two(int tag, int v1, int v2)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (active && !receiver) {
        MPI_Send(&v1, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
        MPI_Send(&v2, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
    }
}

/* both receives posted before the sends; `wild_first`: the wildcard first */
static void wildcard_and_specific(int wild_first)
{
    int a = -1, b = -1, flag;
    MPI_Request r[2];
    if (active && receiver) {
        MPI_Irecv(&a, 1, MPI_INT, wild_first ? MPI_ANY_SOURCE : peer, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, wild_first ? peer : MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &r[1]);
        MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE); /* a matching pass before the messages */
    }
    send_two(5, 1, 2);
    if (active && receiver) {
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(a == 1 && b == 2, "%s first: the earliest posted receive got %d, the next %d (want 1, 2)",
              wild_first ? "wildcard" : "specific", a, b);
    }
}

/* one receive posted (and looked at) before the sends, one after they
 * may have arrived, one blocking receive last */
static void before_and_after(void)
{
    int a = -1, b = -1, c = -1, flag, v[3] = {11, 12, 13}, k;
    MPI_Request r[2];
    if (active && receiver) {
        MPI_Irecv(&a, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &r[0]);
        MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (active && !receiver)
        for (k = 0; k < 3; k++) MPI_Send(&v[k], 1, MPI_INT, peer, 6, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD); /* the messages may well be there now */
    if (active && receiver) {
        MPI_Irecv(&b, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &r[1]);
        MPI_Recv(&c, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(a == 11 && b == 12 && c == 13, "posted before, after, blocking: got %d %d %d (want 11 12 13)", a, b, c);
    }
}

/* a tag-specific receive posted before a full wildcard */
static void tags(void)
{
    int a = -1, b = -1, t8 = 8, t7 = 7;
    MPI_Request r[2];
    MPI_Status st[2];
    if (active && receiver) {
        MPI_Irecv(&a, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (active && !receiver) {
        MPI_Send(&t8, 1, MPI_INT, peer, 8, MPI_COMM_WORLD);
        MPI_Send(&t7, 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
    }
    if (active && receiver) {
        MPI_Waitall(2, r, st);
        CHECK(a == 7 && b == 8 && st[1].MPI_TAG == 8, "tags: tag 7's receive got %d, the wildcard %d (tag %d)", a, b,
              st[1].MPI_TAG);
    }
}

/* of two receives, the first is cancelled before the message: the second
 * gets it */
static void cancelled(void)
{
    int a = -1, b = -1, flag;
    MPI_Request r[2];
    MPI_Status st;
    if (active && receiver) {
        MPI_Irecv(&a, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &r[1]);
        MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE);
        MPI_Cancel(&r[0]);
        MPI_Wait(&r[0], &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag, "cancel: the first receive was not cancelled");
    }
    send_two(9, 21, 22);
    if (active && receiver) {
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        CHECK(b == 21, "cancel: the remaining receive got %d (want 21)", b);
        MPI_Recv(&a, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(a == 22, "cancel: the next message was %d (want 22)", a);
    }
}

/* NMANY receives with distinct tags posted at once; the sender sends them
 * in the reverse order, then as many with one tag for receives posted in
 * the sender's order */
static void many(void)
{
    static int got[2 * NMANY];
    MPI_Request r[2 * NMANY];
    int k, bad = 0;
    if (active && receiver) {
        for (k = 0; k < NMANY; k++) MPI_Irecv(&got[k], 1, MPI_INT, peer, 100 + k, MPI_COMM_WORLD, &r[k]);
        for (k = 0; k < NMANY; k++)
            MPI_Irecv(&got[NMANY + k], 1, MPI_INT, k % 2 ? peer : MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &r[NMANY + k]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (active && !receiver) {
        for (k = NMANY - 1; k >= 0; k--) MPI_Send(&k, 1, MPI_INT, peer, 100 + k, MPI_COMM_WORLD);
        for (k = 0; k < NMANY; k++) MPI_Send(&k, 1, MPI_INT, peer, 99, MPI_COMM_WORLD);
    }
    if (active && receiver) {
        MPI_Waitall(2 * NMANY, r, MPI_STATUSES_IGNORE);
        for (k = 0; k < 2 * NMANY; k++) bad += got[k] != k % NMANY;
        CHECK(bad == 0, "many: %d of %d receives got the wrong message", bad, 2 * NMANY);
    }
}

/* the same with the messages already there when the receives are posted
 * (all of them at once): each receive takes the oldest message that
 * matches, whichever order they were posted in */
static void many_already_there(void)
{
    enum { K = NTHERE };
    static int got[2 * NTHERE];
    MPI_Request r[2 * K];
    int k, bad = 0;
    if (active && !receiver) {
        for (k = 0; k < K; k++) MPI_Send(&k, 1, MPI_INT, peer, 98, MPI_COMM_WORLD);
        for (k = K - 1; k >= 0; k--) MPI_Send(&k, 1, MPI_INT, peer, 300 + k, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (active && receiver) {
        MPI_Status st;
        int flag = 0;
        while (!flag) MPI_Iprobe(peer, 300, MPI_COMM_WORLD, &flag, &st); /* the last one is here */
        for (k = 0; k < K; k++) MPI_Irecv(&got[K + k], 1, MPI_INT, peer, 300 + k, MPI_COMM_WORLD, &r[K + k]);
        for (k = 0; k < K; k++)
            MPI_Irecv(&got[k], 1, MPI_INT, k % 3 ? peer : MPI_ANY_SOURCE, k % 2 ? 98 : MPI_ANY_TAG, MPI_COMM_WORLD,
                      &r[k]);
        MPI_Waitall(2 * K, r, MPI_STATUSES_IGNORE);
        for (k = 0; k < 2 * K; k++) bad += got[k] != k % K;
        CHECK(bad == 0, "many already there: %d of %d receives got the wrong message", bad, 2 * K);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    receiver = rank % 2 == 0;
    peer = receiver ? rank + 1 : rank - 1;
    active = peer < size;
    wildcard_and_specific(1);
    wildcard_and_specific(0);
    before_and_after();
    tags();
    cancelled();
    many();
    many_already_there();
    return mt_finish();
}
