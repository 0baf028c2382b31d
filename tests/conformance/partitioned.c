/* Partitioned communication (MPI-4.0 chapter 4): every rank sends to the
 * next one round a ring with MPI_Psend_init and receives from the previous
 * one with MPI_Precv_init, restarting both several times (MPI_Startall,
 * then MPI_Start). The sender marks its partitions ready in reverse order,
 * in a random order, and with MPI_Pready_range and MPI_Pready_list; the
 * receiver polls MPI_Parrived until every partition has arrived. A second
 * pair of requests has fewer, larger partitions on the receive side than
 * on the send side (MPI-4.0 4.2: the counts may differ, the message is one).
 * Three operations of one tag pair in the order of their init calls, not
 * of their starts.
 * Then the errors: MPI_Pready out of range, twice, or on an inactive
 * request, MPI_Parrived out of range, MPI_Wait before every partition is
 * ready, MPI_Request_free of an active request.
 * Self-checking: rank 0 prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpitest.h"

#define NPART 8
#define PER 5
#define ROUNDS 6

static int val(int r, int round, int i) { return r * 100000 + round * 1000 + i; }

/* A permutation of 0..n-1 from seed (a small LCG; the same under any MPI). */
static void shuffle(int *p, int n, unsigned seed)
{
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 16) % (unsigned)(i + 1)), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* Marks all NPART partitions of send ready, the way round r says. */
static void mark_ready(MPI_Request send, int round, int *recv_polls, MPI_Request recv)
{
    int order[NPART], flag;
    switch (round % 4) {
    case 0: /* reverse */
        for (int p = NPART - 1; p >= 0; p--) {
            MPI_Pready(p, send);
            MPI_Parrived(recv, 0, &flag); /* polls meanwhile; the result is checked at the end */
            (*recv_polls)++;
        }
        break;
    case 1: /* random */
        shuffle(order, NPART, (unsigned)(rank * 31 + round));
        for (int k = 0; k < NPART; k++) MPI_Pready(order[k], send);
        break;
    case 2: /* two ranges, the upper first */
        MPI_Pready_range(NPART / 2, NPART - 1, send);
        MPI_Parrived(recv, NPART - 1, &flag);
        MPI_Pready_range(0, NPART / 2 - 1, send);
        break;
    default: /* a list in random order, then the rest one by one */
        shuffle(order, NPART, (unsigned)(rank * 17 + round * 5 + 1));
        MPI_Pready_list(NPART - 2, order, send);
        MPI_Pready(order[NPART - 1], send);
        MPI_Pready(order[NPART - 2], send);
        break;
    }
}

static void ring(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int sbuf[NPART * PER], rbuf[NPART * PER];
    MPI_Request reqs[2]; /* receive, send */
    MPI_Precv_init(rbuf, NPART, PER, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
    MPI_Psend_init(sbuf, NPART, PER, MPI_INT, right, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]);
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < NPART * PER; i++) {
            sbuf[i] = val(rank, round, i);
            rbuf[i] = -1;
        }
        if (round == 0) {
            MPI_Startall(2, reqs);
        } else {
            MPI_Start(&reqs[0]);
            MPI_Start(&reqs[1]);
        }
        int polls = 0;
        mark_ready(reqs[1], round, &polls, reqs[0]);
        /* every partition, in turn, until it has arrived */
        for (int p = 0; p < NPART; p++) {
            int flag = 0;
            while (!flag) MPI_Parrived(reqs[0], p, &flag);
        }
        for (int i = 0; i < NPART * PER; i++)
            CHECK(rbuf[i] == val(left, round, i), "round %d: element %d is %d after MPI_Parrived, want %d", round, i,
                  rbuf[i], val(left, round, i));
        MPI_Status st[2];
        MPI_Waitall(2, reqs, st);
        int n = -1;
        MPI_Get_count(&st[0], MPI_INT, &n);
        CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 7 && n == NPART * PER,
              "round %d: receive status source %d tag %d count %d, want %d, 7, %d", round, st[0].MPI_SOURCE,
              st[0].MPI_TAG, n, left, NPART * PER);
        CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL, "round %d: a persistent request was freed",
              round);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "MPI_Request_free left a request");
}

/* 8 partitions of 5 sent, 2 of 20 received; a point-to-point message of the
 * same tag in between is not taken by the partitioned receive. */
static void uneven(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int sbuf[NPART * PER], rbuf[NPART * PER], p2p_out = rank + 5, p2p_in = -1;
    MPI_Request reqs[4];
    MPI_Irecv(&p2p_in, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &reqs[2]);
    MPI_Precv_init(rbuf, 2, NPART * PER / 2, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
    MPI_Psend_init(sbuf, NPART, PER, MPI_INT, right, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NPART * PER; i++) {
            sbuf[i] = val(rank, round + 10, i);
            rbuf[i] = -1;
        }
        MPI_Startall(2, reqs);
        if (round == 0) MPI_Isend(&p2p_out, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &reqs[3]);
        MPI_Pready_range(0, NPART - 1, reqs[1]);
        int flag = 0;
        while (!flag) MPI_Parrived(reqs[0], 1, &flag);
        MPI_Waitall(round == 0 ? 4 : 2, reqs, MPI_STATUSES_IGNORE);
        for (int i = 0; i < NPART * PER; i++)
            CHECK(rbuf[i] == val(left, round + 10, i), "uneven round %d: element %d is %d, want %d", round, i, rbuf[i],
                  val(left, round + 10, i));
    }
    CHECK(p2p_in == left + 5, "the point-to-point message with the same tag: %d, want %d", p2p_in, left + 5);
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
}

/* Three operations with one tag pair in the order of their init calls,
 * though the sender starts and readies them in another order. */
static void init_order(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    static int sbuf[3][PER], rbuf[3][PER];
    MPI_Request s[3], r[3];
    for (int k = 0; k < 3; k++) {
        MPI_Precv_init(rbuf[k], 1, PER, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r[k]);
        MPI_Psend_init(sbuf[k], 1, PER, MPI_INT, right, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &s[k]);
        for (int i = 0; i < PER; i++) {
            sbuf[k][i] = val(rank, 20 + k, i);
            rbuf[k][i] = -1;
        }
    }
    MPI_Startall(3, r);
    const int order[3] = {2, 0, 1};
    for (int j = 0; j < 3; j++) {
        MPI_Start(&s[order[j]]);
        MPI_Pready(0, s[order[j]]);
    }
    MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < PER; i++)
            CHECK(rbuf[k][i] == val(left, 20 + k, i), "init order: receive %d element %d is %d, want %d", k, i,
                  rbuf[k][i], val(left, 20 + k, i));
        MPI_Request_free(&s[k]);
        MPI_Request_free(&r[k]);
    }
}

/* The standard's rules, as errors (MPI_ERRORS_RETURN). MPICH 4.0.2 checks
 * none of these (some would hang or crash it), so they run under gpumpi. */
static void errors_returned(void)
{
#ifndef MPICH_VERSION
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_SELF, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int sbuf[4], rbuf[4], flag = 0;
    MPI_Request s, r;
    MPI_Psend_init(sbuf, 4, 1, MPI_INT, 0, 1, c, MPI_INFO_NULL, &s);
    MPI_Precv_init(rbuf, 2, 2, MPI_INT, 0, 1, c, MPI_INFO_NULL, &r);
    CHECK(MPI_Pready(0, s) != MPI_SUCCESS, "MPI_Pready before MPI_Start succeeded");
    int rc = MPI_Parrived(r, 0, &flag);
    CHECK(rc == MPI_SUCCESS && flag, "MPI_Parrived on an inactive request: rc %d flag %d, want success and true", rc,
          flag);
    MPI_Start(&r);
    MPI_Start(&s);
    CHECK(MPI_Start(&s) != MPI_SUCCESS, "MPI_Start of an active partitioned send succeeded");
    CHECK(MPI_Pready(4, s) != MPI_SUCCESS, "MPI_Pready of partition 4 of 4 succeeded");
    CHECK(MPI_Pready(0, r) != MPI_SUCCESS, "MPI_Pready on a receive request succeeded");
    CHECK(MPI_Parrived(r, 2, &flag) != MPI_SUCCESS, "MPI_Parrived of partition 2 of 2 succeeded");
    CHECK(MPI_Parrived(s, 0, &flag) != MPI_SUCCESS, "MPI_Parrived on a send request succeeded");
    MPI_Pready(1, s);
    CHECK(MPI_Pready(1, s) != MPI_SUCCESS, "MPI_Pready of a partition already ready succeeded");
    CHECK(MPI_Wait(&s, MPI_STATUS_IGNORE) != MPI_SUCCESS, "MPI_Wait with 3 partitions not ready succeeded");
    CHECK(MPI_Request_free(&s) != MPI_SUCCESS, "MPI_Request_free of an active partitioned send succeeded");
    int zero = 0, rest[2] = {3, 2};
    MPI_Pready_list(1, &zero, s);
    MPI_Pready_list(2, rest, s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(MPI_Pready(0, s) != MPI_SUCCESS, "MPI_Pready after completion succeeded");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    CHECK(MPI_Precv_init(rbuf, 1, 1, MPI_INT, MPI_ANY_SOURCE, 1, c, MPI_INFO_NULL, &r) != MPI_SUCCESS,
          "MPI_Precv_init from MPI_ANY_SOURCE succeeded");
    CHECK(MPI_Psend_init(sbuf, 0, 1, MPI_INT, 0, 1, c, MPI_INFO_NULL, &s) != MPI_SUCCESS,
          "MPI_Psend_init with 0 partitions succeeded");
    MPI_Comm_free(&c);
#endif
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    ring();
    uneven();
    init_order();
    errors_returned();
    return mt_finish();
}
