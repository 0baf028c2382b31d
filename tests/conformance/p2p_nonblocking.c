/* Nonblocking point-to-point, checked by itself: prints "No Errors" when
 * every check passed on every rank (MPICH's test convention), else one line
 * per failed check. Runs with any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "mpitest.h"

enum { BIG = 1000 }; /* ints: past the eager size, so these go by rendezvous */

static int big_out[BIG], big_in[BIG];

/* a ring of Isend/Irecv, small and large, completed by Waitall */
static void ring(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int small_out = rank * 10 + 1, small_in = -1;
    for (int i = 0; i < BIG; i++) big_out[i] = rank * BIG + i;
    MPI_Request r[4];
    MPI_Status st[4];
    MPI_Irecv(&small_in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(big_in, BIG, MPI_INT, left, 2, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(&small_out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(big_out, BIG, MPI_INT, right, 2, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, st);
    CHECK(small_in == left * 10 + 1, "ring: small message");
    int ok = 1;
    for (int i = 0; i < BIG; i++) ok &= big_in[i] == left * BIG + i;
    CHECK(ok, "ring: large message");
    CHECK(st[1].MPI_SOURCE == left && st[1].MPI_TAG == 2, "ring: status of the large receive");
    int n;
    MPI_Get_count(&st[1], MPI_INT, &n);
    CHECK(n == BIG, "ring: MPI_Get_count");
    CHECK(r[0] == MPI_REQUEST_NULL && r[3] == MPI_REQUEST_NULL, "ring: completed requests become MPI_REQUEST_NULL");
}

/* receives match in the order they were posted, before a later blocking one */
static void posted_order(void)
{
    if (size < 2) return;
    if (rank == 0) {
        for (int v = 1; v <= 3; v++) MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int a = 0, b = 0, c = 0;
        MPI_Request r[2];
        MPI_Irecv(&a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &r[1]);
        MPI_Recv(&c, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(a == 1 && b == 2 && c == 3, "posted order: receives match in the order posted");
    }
}

/* Waitany, Testany, Waitsome, Testsome over messages from up to 15 other
 * ranks (rank - 1, rank - 2, ...; every other rank when there are few) */
static void any_and_some(void)
{
    int n = size - 1 < 15 ? size - 1 : 15;
    if (n == 0) return;
    int in[15];
    MPI_Request r[15], s[15];
    for (int round = 0; round < 4; round++) {
        for (int d = 1; d <= n; d++)
            MPI_Irecv(&in[d - 1], 1, MPI_INT, (rank - d + size) % size, 10 + round, MPI_COMM_WORLD, &r[d - 1]);
        int out = rank * 100 + round;
        for (int d = 1; d <= n; d++) MPI_Isend(&out, 1, MPI_INT, (rank + d) % size, 10 + round, MPI_COMM_WORLD, &s[d - 1]);
        int got = 0, seen_sum = 0, want_sum = 0;
        for (int d = 1; d <= n; d++) want_sum += ((rank - d + size) % size) * 100 + round;
        while (got < n) {
            int idx, flag, cnt, ids[15];
            MPI_Status st, sts[15];
            if (round == 0) {
                MPI_Waitany(n, r, &idx, &st);
                CHECK(idx >= 0 && idx < n && st.MPI_TAG == 10, "Waitany: index and status");
                seen_sum += in[idx];
                got++;
            } else if (round == 1) {
                MPI_Testany(n, r, &idx, &flag, &st);
                if (flag && idx != MPI_UNDEFINED) {
                    seen_sum += in[idx];
                    got++;
                }
            } else {
                if (round == 2)
                    MPI_Waitsome(n, r, &cnt, ids, sts);
                else
                    MPI_Testsome(n, r, &cnt, ids, sts);
                for (int i = 0; i < cnt && cnt != MPI_UNDEFINED; i++) {
                    seen_sum += in[ids[i]];
                    CHECK(sts[i].MPI_SOURCE == (rank - ids[i] - 1 + size) % size, "Waitsome/Testsome: status source");
                }
                if (cnt != MPI_UNDEFINED) got += cnt;
            }
        }
        CHECK(seen_sum == want_sum, "Waitany/Testany/Waitsome/Testsome: every message once");
        int idx;
        MPI_Waitany(n, r, &idx, MPI_STATUS_IGNORE);
        CHECK(idx == MPI_UNDEFINED, "Waitany on null requests gives MPI_UNDEFINED");
        MPI_Waitall(n, s, MPI_STATUSES_IGNORE);
    }
}

/* Probe and Iprobe see a message without taking it; its size from status */
static void probes(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[7] = {1, 2, 3, 4, 5, 6, rank};
    MPI_Request s;
    MPI_Isend(out, 7, MPI_INT, right, 20, MPI_COMM_WORLD, &s);
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &st);
    int n;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(st.MPI_SOURCE == left && n == 7, "Probe: source and count");
    int flag = 0;
    MPI_Iprobe(left, 20, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag, "Iprobe finds the probed message again");
    int in[7];
    MPI_Recv(in, n, MPI_INT, st.MPI_SOURCE, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in[6] == left, "Probe: the message received after probing");
    MPI_Iprobe(left, 20, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "Iprobe: nothing left");
    MPI_Wait(&s, MPI_STATUS_IGNORE);
}

/* Sendrecv and Sendrecv_replace around the ring */
static void sendrecv(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = rank, in = -1;
    MPI_Status st;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 30, &in, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &st);
    CHECK(in == left && st.MPI_SOURCE == left, "Sendrecv");
    for (int i = 0; i < BIG; i++) big_in[i] = rank + i;
    MPI_Sendrecv_replace(big_in, BIG, MPI_INT, right, 31, left, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(big_in[0] == left && big_in[BIG - 1] == left + BIG - 1, "Sendrecv_replace");
    MPI_Sendrecv(&out, 1, MPI_INT, MPI_PROC_NULL, 32, &in, 1, MPI_INT, MPI_PROC_NULL, 32, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Sendrecv with MPI_PROC_NULL");
}

/* persistent requests, started many times */
static void persistent(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out, in;
    MPI_Request r[2];
    MPI_Recv_init(&in, 1, MPI_INT, left, 40, MPI_COMM_WORLD, &r[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 40, MPI_COMM_WORLD, &r[1]);
    int ok = 1;
    for (int i = 0; i < 10; i++) {
        out = rank * 1000 + i;
        MPI_Startall(2, r);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        ok &= in == left * 1000 + i;
    }
    CHECK(ok, "persistent requests: 10 rounds");
    CHECK(r[0] != MPI_REQUEST_NULL, "a persistent request stays allocated");
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
}

/* a receive nothing will match can be cancelled */
static void cancel(void)
{
    int x;
    MPI_Request r;
    MPI_Status st;
    MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    int flag;
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "Cancel of an unmatched receive");
}

/* synchronous, ready and buffered modes */
static void modes(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = rank, in = -1;
    MPI_Request r;
    MPI_Irecv(&in, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &r);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: Rsend is legal */
    MPI_Rsend(&out, 1, MPI_INT, right, 50, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(in == left, "Rsend");
    MPI_Irecv(&in, 1, MPI_INT, left, 51, MPI_COMM_WORLD, &r);
    MPI_Ssend(&out, 1, MPI_INT, right, 51, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(in == left, "Ssend");
    static char pool[4096];
    MPI_Buffer_attach(pool, sizeof pool);
    MPI_Bsend(&out, 1, MPI_INT, right, 52, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, left, 52, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in == left, "Bsend");
    void *back;
    int back_size;
    MPI_Buffer_detach(&back, &back_size);
    CHECK(back == pool && back_size == (int)sizeof pool, "Buffer_detach returns the attached buffer");
    int flag = 0;
    MPI_Issend(&out, 1, MPI_INT, right, 53, MPI_COMM_WORLD, &r);
    MPI_Recv(&in, 1, MPI_INT, left, 53, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD); /* the right neighbour has received ours */
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    if (!flag) MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(in == left, "Issend");
}

/* many messages in flight between each rank and up to 16 others (all of
 * them when there are few), small and large, received from MPI_ANY_SOURCE:
 * each exactly once, in order per sender */
static void stress(void)
{
    enum { PER = 6 };
    int peers = size < 16 ? size : 16;
    int total = PER * peers;
    /* per sender, indexed by its distance below this rank (0 .. peers-1): O(1) memory per rank */
    int *counts = calloc((size_t)peers, sizeof(int)), *next = calloc((size_t)peers, sizeof(int));
    int **bufs = calloc((size_t)total, sizeof(int *)), **outs = calloc((size_t)total, sizeof(int *));
    MPI_Request *r = calloc((size_t)total * 2, sizeof(MPI_Request));
    MPI_Status *st = calloc((size_t)total * 2, sizeof(MPI_Status));
    int n = 0;
    for (int i = 0; i < total; i++) {
        bufs[i] = malloc(sizeof(int) * 100);
        MPI_Irecv(bufs[i], 100, MPI_INT, MPI_ANY_SOURCE, 60, MPI_COMM_WORLD, &r[n++]);
    }
    for (int d = 0; d < peers; d++)
        for (int k = 0; k < PER; k++) {
            int i = d * PER + k, len = k % 2 ? 100 : 3; /* 400 bytes: rendezvous; 12: eager */
            outs[i] = malloc(sizeof(int) * 100);
            outs[i][0] = rank;
            outs[i][1] = k;
            for (int j = 2; j < len; j++) outs[i][j] = rank + k + j;
            MPI_Isend(outs[i], len, MPI_INT, (rank + d) % size, 60, MPI_COMM_WORLD, &r[n++]);
        }
    MPI_Waitall(n, r, st);
    int ok = 1;
    for (int i = 0; i < total; i++) {
        int src = bufs[i][0], k = bufs[i][1], len;
        MPI_Get_count(&st[i], MPI_INT, &len);
        ok &= src == st[i].MPI_SOURCE && src >= 0 && src < size && len == (k % 2 ? 100 : 3);
        int d = (rank - src + size) % size; /* src = rank - d */
        ok &= src >= 0 && src < size && d < peers;
        if (!ok) break;
        ok &= k == next[d]++; /* non-overtaking: a sender's messages in order */
        for (int j = 2; j < len; j++) ok &= bufs[i][j] == src + k + j;
        counts[d]++;
    }
    for (int d = 0; d < peers && ok; d++) ok &= counts[d] == PER;
    CHECK(ok, "stress: every message from every sender exactly once, in order per sender");
    for (int i = 0; i < total; i++) {
        free(bufs[i]);
        free(outs[i]);
    }
    free(bufs);
    free(outs);
    free(r);
    free(st);
    free(counts);
    free(next);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    ring();
    posted_order();
    any_and_some();
    probes();
    sendrecv();
    persistent();
    cancel();
    modes();
    stress();
    return mt_finish();
}
