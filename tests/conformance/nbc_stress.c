/* Stress: dozens of nonblocking collectives in flight at once on several
 * communicators (MPI_COMM_WORLD, a dup of it, a split into two halves in
 * reverse order, a split into three), with point-to-point traffic between
 * them (posted receives, large rendezvous messages, a blocking send to a
 * rank that first waits for a collective needing the sender), completed
 * in different ways on different ranks (Waitall, Testsome loops, Waitany,
 * reverse-order Waits). Every result is checked. Prints " No Errors" when
 * every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

enum { NCOMM = 4, KOPS = 7, ITERS = 3, MAXOPS = NCOMM * KOPS };
/* ints in a large message (past the eager size); fewer on very large
 * worlds, where every rank holds several such buffers at once */
static int big_ints = 2500;
#define BIG big_ints
enum { GATHER_MAX = 256 }; /* O(size) buffers only on communicators up to this size */

typedef struct op {
    int kind, comm, k, it;
    int small_in, small_out;
    int *big_in, *big_out;
    int *vec;              /* allgather / alltoall buffers */
    int *vec_out;
} op;

static MPI_Comm comms[NCOMM];
static int crank[NCOMM], csize[NCOMM];

/* an input value: iteration, communicator, operation, rank in it, element */
static int val(int it, int c, int k, int r, int i) { return ((it * 7 + c) * 11 + k) * 100000 + r * 100 + i % 100; }

enum { K_ALLREDUCE, K_ALLREDUCE_BIG, K_BCAST, K_BCAST_BIG, K_ALLGATHER, K_ALLTOALL, K_SCAN, K_BARRIER };

static int kind_of(int c, int k)
{
    int kind = (k + c) % 8;
    if ((kind == K_ALLGATHER || kind == K_ALLTOALL) && csize[c] > GATHER_MAX) kind = K_ALLREDUCE;
    return kind;
}

static void start(op *o, int it, int c, int k, MPI_Request *req)
{
    memset(o, 0, sizeof *o);
    o->kind = kind_of(c, k);
    o->comm = c;
    o->k = k;
    o->it = it;
    int r = crank[c], n = csize[c], root = (it + k) % n;
    MPI_Comm comm = comms[c];
    switch (o->kind) {
    case K_ALLREDUCE:
        o->small_in = val(it, c, k, r, 0);
        MPI_Iallreduce(&o->small_in, &o->small_out, 1, MPI_INT, MPI_MAX, comm, req);
        break;
    case K_ALLREDUCE_BIG:
        o->big_in = malloc(sizeof(int) * BIG);
        o->big_out = malloc(sizeof(int) * BIG);
        for (int i = 0; i < BIG; i++) o->big_in[i] = r % 5 + i % 7 + it;
        MPI_Iallreduce(o->big_in, o->big_out, BIG, MPI_INT, MPI_SUM, comm, req);
        break;
    case K_BCAST:
        o->small_in = r == root ? val(it, c, k, root, 1) : -1;
        MPI_Ibcast(&o->small_in, 1, MPI_INT, root, comm, req);
        break;
    case K_BCAST_BIG:
        o->big_in = malloc(sizeof(int) * BIG);
        for (int i = 0; i < BIG; i++) o->big_in[i] = r == root ? val(it, c, k, root, i) : -1;
        MPI_Ibcast(o->big_in, BIG, MPI_INT, root, comm, req);
        break;
    case K_ALLGATHER:
        o->small_in = val(it, c, k, r, 2);
        o->vec = malloc(sizeof(int) * n);
        MPI_Iallgather(&o->small_in, 1, MPI_INT, o->vec, 1, MPI_INT, comm, req);
        break;
    case K_ALLTOALL:
        o->vec = malloc(sizeof(int) * n);
        o->vec_out = malloc(sizeof(int) * n);
        for (int p = 0; p < n; p++) o->vec[p] = val(it, c, k, r, p);
        MPI_Ialltoall(o->vec, 1, MPI_INT, o->vec_out, 1, MPI_INT, comm, req);
        break;
    case K_SCAN:
        o->small_in = 1 + it;
        MPI_Iscan(&o->small_in, &o->small_out, 1, MPI_INT, MPI_SUM, comm, req);
        break;
    default:
        MPI_Ibarrier(comm, req);
        break;
    }
}

static void check(op *o)
{
    int c = o->comm, k = o->k, it = o->it, r = crank[c], n = csize[c], root = (it + k) % n, ok = 1;
    switch (o->kind) {
    case K_ALLREDUCE:
        CHECK(o->small_out == val(it, c, k, n - 1, 0), "it %d comm %d op %d: allreduce %d", it, c, k, o->small_out);
        break;
    case K_ALLREDUCE_BIG:
        {
            int mod5 = 0;
            for (int p = 0; p < n; p++) mod5 += p % 5;
            for (int i = 0; i < BIG; i++) ok &= o->big_out[i] == mod5 + n * (i % 7 + it);
        }
        CHECK(ok, "it %d comm %d op %d: large allreduce", it, c, k);
        break;
    case K_BCAST:
        CHECK(o->small_in == val(it, c, k, root, 1), "it %d comm %d op %d: bcast %d", it, c, k, o->small_in);
        break;
    case K_BCAST_BIG:
        for (int i = 0; i < BIG; i++) ok &= o->big_in[i] == val(it, c, k, root, i);
        CHECK(ok, "it %d comm %d op %d: large bcast", it, c, k);
        break;
    case K_ALLGATHER:
        for (int p = 0; p < n; p++) ok &= o->vec[p] == val(it, c, k, p, 2);
        CHECK(ok, "it %d comm %d op %d: allgather", it, c, k);
        break;
    case K_ALLTOALL:
        for (int p = 0; p < n; p++) ok &= o->vec_out[p] == val(it, c, k, p, r);
        CHECK(ok, "it %d comm %d op %d: alltoall", it, c, k);
        break;
    case K_SCAN:
        CHECK(o->small_out == (r + 1) * (1 + it), "it %d comm %d op %d: scan %d", it, c, k, o->small_out);
        break;
    default:
        break;
    }
    free(o->big_in);
    free(o->big_out);
    free(o->vec);
    free(o->vec_out);
}

static op ops[MAXOPS];
static MPI_Request reqs[MAXOPS];
static int *big_ring_out, *big_ring_in, *big_pair;

static void iteration(int it)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    /* receives posted before the collectives start */
    MPI_Request p2p[4];
    int small_in = -1, small_out = rank * 3 + it;
    MPI_Irecv(&small_in, 1, MPI_INT, left, it, comms[1], &p2p[0]);
    MPI_Irecv(big_ring_in, BIG, MPI_INT, right, 100 + it, MPI_COMM_WORLD, &p2p[1]);
    int n = 0;
    for (int k = 0; k < KOPS; k++)
        for (int c = 0; c < NCOMM; c++, n++) start(&ops[n], it, c, k, &reqs[n]);
    for (int i = 0; i < BIG; i++) big_ring_out[i] = rank * 7 + i + it;
    MPI_Isend(&small_out, 1, MPI_INT, right, it, comms[1], &p2p[2]);
    MPI_Isend(big_ring_out, BIG, MPI_INT, left, 100 + it, MPI_COMM_WORLD, &p2p[3]);

    /* pairs: the even rank sends a large message with a blocking send while
     * the odd one first waits for a collective that needs the even one */
    int partner = rank ^ 1;
    if (partner < size) {
        if (rank % 2 == 0) {
            for (int i = 0; i < BIG; i++) big_pair[i] = rank + i * 3 + it;
            MPI_Send(big_pair, BIG, MPI_INT, partner, 7, MPI_COMM_WORLD);
        } else {
            int w = 0; /* a collective on the world-sized dup: the partner is in it */
            while (ops[w].comm != 1) w++;
            MPI_Wait(&reqs[w], MPI_STATUS_IGNORE);
            MPI_Recv(big_pair, BIG, MPI_INT, partner, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int ok = 1;
            for (int i = 0; i < BIG; i++) ok &= big_pair[i] == partner + i * 3 + it;
            CHECK(ok, "it %d: large message from the partner", it);
        }
    }

    /* complete the collectives, differently on different ranks */
    switch ((rank + it) % 4) {
    case 0:
        MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
        break;
    case 1: {
        int left_ops = 0, out, idx[MAXOPS];
        for (int i = 0; i < n; i++) left_ops += reqs[i] != MPI_REQUEST_NULL;
        while (left_ops > 0) {
            MPI_Testsome(n, reqs, &out, idx, MPI_STATUSES_IGNORE);
            if (out == MPI_UNDEFINED) break;
            left_ops -= out;
        }
        break;
    }
    case 2:
        for (;;) {
            int idx;
            MPI_Waitany(n, reqs, &idx, MPI_STATUS_IGNORE);
            if (idx == MPI_UNDEFINED) break;
        }
        break;
    default:
        for (int i = n - 1; i >= 0; i--) MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
        break;
    }
    for (int i = 0; i < n; i++) {
        CHECK(reqs[i] == MPI_REQUEST_NULL, "it %d: request %d not freed", it, i);
        check(&ops[i]);
    }
    MPI_Waitall(4, p2p, MPI_STATUSES_IGNORE);
    CHECK(small_in == left * 3 + it, "it %d: ring message on the dup: %d", it, small_in);
    int ok = 1;
    for (int i = 0; i < BIG; i++) ok &= big_ring_in[i] == right * 7 + i + it;
    CHECK(ok, "it %d: large ring message", it);

    /* the other way round: an odd rank waits in a blocking receive from
     * the next rank, which first waits for a broadcast that the odd rank
     * passes on (root 1: rank r is r - 1 in the tree, so 0 hangs below
     * size - 1 and each even rank below an odd one) */
    int b = -1, m = -1;
    MPI_Request r;
    if (rank == 1 % size) b = 1000 + it;
    MPI_Ibcast(&b, 1, MPI_INT, 1 % size, comms[1], &r);
    int from = (rank + 1) % size, to = (rank - 1 + size) % size;
    if (rank % 2 == 1 && from % 2 == 0 && from != rank) {
        MPI_Recv(&m, 1, MPI_INT, from, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(m == from + it, "it %d: message from %d: %d", it, from, m);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank % 2 == 0 && to % 2 == 1) {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        m = rank + it;
        MPI_Send(&m, 1, MPI_INT, to, 9, MPI_COMM_WORLD);
    } else {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    CHECK(b == 1000 + it, "it %d: ibcast from 1: %d", it, b);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (size > 1024) big_ints = 300;
    big_ring_out = malloc(sizeof(int) * BIG);
    big_ring_in = malloc(sizeof(int) * BIG);
    big_pair = malloc(sizeof(int) * BIG);
    comms[0] = MPI_COMM_WORLD;
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &comms[2]);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &comms[3]);
    for (int c = 0; c < NCOMM; c++) {
        MPI_Comm_rank(comms[c], &crank[c]);
        MPI_Comm_size(comms[c], &csize[c]);
    }
    for (int it = 0; it < ITERS; it++) iteration(it);
    /* a communicator freed while a collective on it is still in flight */
    MPI_Comm tmp;
    MPI_Comm_dup(MPI_COMM_WORLD, &tmp);
    int x = rank % 2, y = -1;
    MPI_Request r;
    MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, tmp, &r);
    MPI_Comm_free(&tmp);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(y == size / 2, "iallreduce on a freed communicator: %d", y);
    for (int c = 1; c < NCOMM; c++) MPI_Comm_free(&comms[c]);
    free(big_ring_out);
    free(big_ring_in);
    free(big_pair);
    return mt_finish();
}
