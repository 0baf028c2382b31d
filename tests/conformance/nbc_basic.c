/* Every nonblocking collective once or more, with checked values: small and
 * large data (past the eager size), MPI_IN_PLACE where the blocking call
 * allows it, a derived datatype, a non-commutative user operation, several
 * in flight at once on one communicator completed out of order, with Wait,
 * Test loops, Waitall, Waitany, Testsome and MPI_Request_get_status.
 * Prints " No Errors" when every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

/* ints in a large message (past the eager size); fewer on very large
 * worlds, where every rank holds several such buffers */
static int big_ints = 3000;
#define BIG big_ints
/* Collectives where every rank holds O(size) data (allgather, alltoall,
 * reduce_scatter) run up to this size: beyond, the memory grows as size^2. */
enum { WIDE_MAX = 4096 };

static int value(int from, int to, int i) { return (from * 7 + to * 13 + i) % 1000003; }

/* sum over r < n of r % m (closed form: no O(n) loop, no overflow for n < 2^31 / m) */
static int sum_mod(int n, int m) { return n / m * (m * (m - 1) / 2) + (n % m) * (n % m - 1) / 2; }

/* Test until done (progress comes from the Test calls alone) */
static void test_loop(MPI_Request *r)
{
    int flag = 0;
    while (!flag) MPI_Test(r, &flag, MPI_STATUS_IGNORE);
}

static void barrier_bcast(void)
{
    MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    MPI_Status st;
    st.MPI_ERROR = -7;
    MPI_Wait(&r, &st);
    CHECK(r == MPI_REQUEST_NULL, "ibarrier: request not freed");

    for (int big = 0; big < 2; big++) {
        int n = big ? BIG : 5, root = big ? size - 1 : 0;
        int *buf = malloc(sizeof(int) * n);
        for (int i = 0; i < n; i++) buf[i] = rank == root ? value(root, 0, i) : -1;
        MPI_Ibcast(buf, n, MPI_INT, root, MPI_COMM_WORLD, &r);
        if (big)
            test_loop(&r);
        else
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        int ok = 1;
        for (int i = 0; i < n; i++) ok &= buf[i] == value(root, 0, i);
        CHECK(ok, "ibcast %d ints from %d", n, root);
        free(buf);
    }
}

/* affine maps x -> m x + c (mod a prime) composed in rank order: an
 * associative operation that is not commutative. An element is the pair
 * (m, c); in op inout = inout after in. */
/* ranks lo..hi composed: x -> m x + c with rank r's map x -> (r % 3 + 1) x + r */
static void affine_expect(int lo, int hi, long *m, long *c)
{
    *m = 1;
    *c = 0;
    for (int r = lo; r <= hi; r++) {
        long mr = r % 3 + 1, cr = r;
        *c = mr * *c + cr;
        *m = mr * *m;
        *m %= 1000003; /* keep it bounded: the op below does the same */
        *c %= 1000003;
    }
}

static void affine_mod(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    long *f = in, *g = inout;
    for (int i = 0; i < *len; i++) {
        long m = g[2 * i] * f[2 * i] % 1000003, c = (g[2 * i] * f[2 * i + 1] + g[2 * i + 1]) % 1000003;
        g[2 * i] = m;
        g[2 * i + 1] = c;
    }
}

static void reductions(void)
{
    MPI_Request r[4];
    /* small and large, sum, all in flight together */
    int s1 = rank % 100 + 1, a1 = -1, b1 = -1;
    int *sbig = malloc(sizeof(int) * BIG), *abig = malloc(sizeof(int) * BIG), *rbig = malloc(sizeof(int) * BIG);
    for (int i = 0; i < BIG; i++) {
        sbig[i] = rank % 100 + i % 100;
        abig[i] = -1;
        rbig[i] = -1;
    }
    MPI_Iallreduce(&s1, &a1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce(&s1, &b1, 1, MPI_INT, MPI_MAX, size / 2, MPI_COMM_WORLD, &r[1]);
    MPI_Iallreduce(sbig, abig, BIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[2]);
    MPI_Ireduce(sbig, rbig, BIG, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    CHECK(a1 == sum_mod(size, 100) + size, "iallreduce sum: %d", a1);
    if (rank == size / 2) CHECK(b1 == (size < 100 ? size : 100), "ireduce max: %d", b1);
    int ok = 1;
    for (int i = 0; i < BIG; i++) ok &= abig[i] == sum_mod(size, 100) + size * (i % 100);
    CHECK(ok, "iallreduce large");
    if (rank == 0) {
        ok = 1;
        for (int i = 0; i < BIG; i++) ok &= rbig[i] == i % 100;
        CHECK(ok, "ireduce large min");
    }
    /* in place */
    int v = rank;
    MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    int bor = 0;
    for (int p = 0; p < size; p++) bor |= p;
    CHECK(v == bor, "iallreduce in place bor: %d", v);
    int w = rank + 2;
    if (rank == 0)
        MPI_Ireduce(MPI_IN_PLACE, &w, 1, MPI_INT, MPI_PROD, 0, MPI_COMM_WORLD, &r[0]);
    else
        MPI_Ireduce(&w, NULL, 1, MPI_INT, MPI_PROD, 0, MPI_COMM_WORLD, &r[0]);
    test_loop(&r[0]);
    if (rank == 0 && size <= 12) {
        int p = 1;
        for (int q = 0; q < size; q++) p *= q + 2;
        CHECK(w == p, "ireduce in place prod: %d", w);
    }
    /* a non-commutative user operation on a derived type (a pair of longs) */
    MPI_Op op;
    MPI_Op_create(affine_mod, 0, &op);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_LONG, &pair);
    MPI_Type_commit(&pair);
    long mine[2] = {rank % 3 + 1, rank}, all[2] = {0, 0}, pre[2] = {0, 0}, ex[2] = {-1, -1};
    MPI_Iallreduce(mine, all, 1, pair, op, MPI_COMM_WORLD, &r[0]);
    MPI_Iscan(mine, pre, 1, pair, op, MPI_COMM_WORLD, &r[1]);
    MPI_Iexscan(mine, ex, 1, pair, op, MPI_COMM_WORLD, &r[2]);
    MPI_Type_free(&pair); /* pending operations keep using it */
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    long m, c;
    affine_expect(0, size - 1, &m, &c);
    CHECK(all[0] == m && all[1] == c, "iallreduce non-commutative: (%ld, %ld) want (%ld, %ld)", all[0], all[1], m, c);
    affine_expect(0, rank, &m, &c);
    CHECK(pre[0] == m && pre[1] == c, "iscan non-commutative: (%ld, %ld) want (%ld, %ld)", pre[0], pre[1], m, c);
    if (rank > 0) {
        affine_expect(0, rank - 1, &m, &c);
        CHECK(ex[0] == m && ex[1] == c, "iexscan non-commutative: (%ld, %ld) want (%ld, %ld)", ex[0], ex[1], m, c);
    }
    MPI_Op_free(&op);
    /* scan in place */
    int sc = rank % 10 + 1;
    MPI_Iscan(MPI_IN_PLACE, &sc, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    CHECK(sc == sum_mod(rank + 1, 10) + rank + 1, "iscan in place: %d", sc);
    free(sbig);
    free(abig);
    free(rbig);
}

static void reduce_scatter(void)
{
    if (size > WIDE_MAX) return;
    MPI_Request r[2];
    int b = 3;
    int *in = malloc(sizeof(int) * b * size), out[3] = {-1, -1, -1};
    int *counts = malloc(sizeof(int) * size), tot = 0;
    for (int p = 0; p < size; p++) {
        counts[p] = p % 3;
        tot += counts[p];
    }
    int *vin = malloc(sizeof(int) * (tot + 1)), vout[3] = {-1, -1, -1};
    for (int i = 0; i < b * size; i++) in[i] = rank % 7 + i % 5;
    for (int i = 0; i < tot; i++) vin[i] = rank % 3 + i % 11;
    MPI_Ireduce_scatter_block(in, out, b, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce_scatter(vin, vout, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    int idx, done = 0;
    while (done < 2) { /* Waitany: whichever finishes first */
        MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
        CHECK(idx == 0 || idx == 1, "waitany index %d", idx);
        done++;
    }
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "waitany: requests freed");
    int ok = 1;
    for (int i = 0; i < b; i++) ok &= out[i] == sum_mod(size, 7) + size * ((rank * b + i) % 5);
    CHECK(ok, "ireduce_scatter_block");
    int first = 0;
    for (int p = 0; p < rank; p++) first += counts[p];
    ok = 1;
    for (int i = 0; i < counts[rank]; i++) ok &= vout[i] == sum_mod(size, 3) + size * ((first + i) % 11);
    CHECK(ok, "ireduce_scatter");
    free(in);
    free(counts);
    free(vin);
}

/* the root's buffers hold a block per rank; the others' none */
static void gather_scatter(void)
{
    int root = size > 1 ? 1 : 0, wide = rank == root ? size : 0;
    MPI_Request r[4];
    int *all = malloc(sizeof(int) * (2 * wide + 1)), *allv = malloc(sizeof(int) * (3 * wide + 1));
    int *counts = malloc(sizeof(int) * (wide + 1)), *displs = malloc(sizeof(int) * (wide + 1));
    for (int p = 0; p < wide; p++) {
        counts[p] = p % 3;
        displs[p] = 3 * p;
    }
    for (int i = 0; i < 3 * wide; i++) allv[i] = -1;
    int mine[2] = {value(rank, 0, 0), value(rank, 0, 1)}, minev[2] = {value(rank, 1, 0), value(rank, 1, 1)};
    MPI_Igather(mine, 2, MPI_INT, all, 2, MPI_INT, root, MPI_COMM_WORLD, &r[0]);
    MPI_Igatherv(minev, rank % 3, MPI_INT, allv, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &r[1]);
    /* scatter what the root has: its own values again */
    int *src = malloc(sizeof(int) * (2 * wide + 1)), got[2] = {-1, -1}, gotv[3] = {-1, -1, -1};
    for (int p = 0; p < wide; p++) {
        src[2 * p] = value(root, p, 0);
        src[2 * p + 1] = value(root, p, 1);
    }
    MPI_Iscatter(src, 2, MPI_INT, got, 2, MPI_INT, root, MPI_COMM_WORLD, &r[2]);
    int *srcv = malloc(sizeof(int) * (3 * wide + 1));
    for (int p = 0; p < wide; p++)
        for (int i = 0; i < 3; i++) srcv[3 * p + i] = value(root, p, 10 + i);
    MPI_Iscatterv(srcv, counts, displs, MPI_INT, gotv, rank % 3, MPI_INT, root, MPI_COMM_WORLD, &r[3]);
    int outcount, idx[4], left = 4;
    while (left > 0) {
        MPI_Testsome(4, r, &outcount, idx, MPI_STATUSES_IGNORE);
        if (outcount != MPI_UNDEFINED) left -= outcount;
    }
    int ok = 1;
    if (rank == root) {
        for (int p = 0; p < size; p++) ok &= all[2 * p] == value(p, 0, 0) && all[2 * p + 1] == value(p, 0, 1);
        CHECK(ok, "igather");
        ok = 1;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < 3; i++) ok &= allv[3 * p + i] == (i < counts[p] ? value(p, 1, i) : -1);
        CHECK(ok, "igatherv");
    }
    CHECK(got[0] == value(root, rank, 0) && got[1] == value(root, rank, 1), "iscatter");
    ok = 1;
    for (int i = 0; i < 3; i++) ok &= gotv[i] == (i < rank % 3 ? value(root, rank, 10 + i) : -1);
    CHECK(ok, "iscatterv");
    /* in place at the root */
    for (int p = 0; p < wide; p++) all[2 * p] = all[2 * p + 1] = p == root ? 99 : -1;
    if (rank == root)
        MPI_Igather(MPI_IN_PLACE, 2, MPI_INT, all, 2, MPI_INT, root, MPI_COMM_WORLD, &r[0]);
    else
        MPI_Igather(mine, 2, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    if (rank == root) {
        ok = 1;
        for (int p = 0; p < size; p++)
            ok &= p == root ? all[2 * p] == 99 : all[2 * p] == value(p, 0, 0) && all[2 * p + 1] == value(p, 0, 1);
        CHECK(ok, "igather in place");
    }
    free(all);
    free(allv);
    free(counts);
    free(displs);
    free(src);
    free(srcv);
}

static void allgather_alltoall(void)
{
    if (size > WIDE_MAX) return;
    MPI_Request r[5];
    int *ag = malloc(sizeof(int) * size), *agv = malloc(sizeof(int) * 3 * size), *counts = malloc(sizeof(int) * size),
        *displs = malloc(sizeof(int) * size);
    for (int p = 0; p < size; p++) {
        counts[p] = p % 3;
        displs[p] = 3 * p;
    }
    for (int i = 0; i < 3 * size; i++) agv[i] = -1;
    int me = value(rank, 2, 0), mev[2] = {value(rank, 3, 0), value(rank, 3, 1)};
    MPI_Iallgather(&me, 1, MPI_INT, ag, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
    MPI_Iallgatherv(mev, rank % 3, MPI_INT, agv, counts, displs, MPI_INT, MPI_COMM_WORLD, &r[1]);
    int *out = malloc(sizeof(int) * size), *in = malloc(sizeof(int) * size);
    for (int p = 0; p < size; p++) {
        out[p] = value(rank, p, 4);
        in[p] = -1;
    }
    MPI_Ialltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD, &r[2]);
    /* alltoallv: 1 + (from + to) % 2 elements from `from` to `to` */
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size), *rc = malloc(sizeof(int) * size),
        *rd = malloc(sizeof(int) * size);
    for (int p = 0; p < size; p++) {
        sc[p] = 1 + (rank + p) % 2;
        sd[p] = 2 * p;
        rc[p] = 1 + (p + rank) % 2;
        rd[p] = 2 * p;
    }
    int *vout = malloc(sizeof(int) * 2 * size), *vin = malloc(sizeof(int) * 2 * size);
    for (int p = 0; p < size; p++)
        for (int i = 0; i < 2; i++) {
            vout[2 * p + i] = value(rank, p, 5 + i);
            vin[2 * p + i] = -1;
        }
    MPI_Ialltoallv(vout, sc, sd, MPI_INT, vin, rc, rd, MPI_INT, MPI_COMM_WORLD, &r[3]);
    /* alltoallw: doubles to even ranks, ints to odd ones; byte displacements */
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * size), *rt = malloc(sizeof(MPI_Datatype) * size);
    int *wc = malloc(sizeof(int) * size), *wsd = malloc(sizeof(int) * size), *wrd = malloc(sizeof(int) * size);
    double *wout = malloc(sizeof(double) * size), *win = malloc(sizeof(double) * size);
    for (int p = 0; p < size; p++) {
        wc[p] = 1;
        st[p] = p % 2 ? MPI_INT : MPI_DOUBLE;
        rt[p] = rank % 2 ? MPI_INT : MPI_DOUBLE;
        wsd[p] = wrd[p] = (int)(p * sizeof(double));
        if (p % 2)
            *(int *)&wout[p] = value(rank, p, 7);
        else
            wout[p] = value(rank, p, 7) + 0.5;
        win[p] = -1;
    }
    MPI_Ialltoallw(wout, wc, wsd, st, win, wc, wrd, rt, MPI_COMM_WORLD, &r[4]);
    MPI_Status sts[5];
    MPI_Waitall(5, r, sts);
    int ok = 1;
    for (int p = 0; p < size; p++) ok &= ag[p] == value(p, 2, 0);
    CHECK(ok, "iallgather");
    ok = 1;
    for (int p = 0; p < size; p++)
        for (int i = 0; i < 3; i++) ok &= agv[3 * p + i] == (i < counts[p] ? value(p, 3, i) : -1);
    CHECK(ok, "iallgatherv");
    ok = 1;
    for (int p = 0; p < size; p++) ok &= in[p] == value(p, rank, 4);
    CHECK(ok, "ialltoall");
    ok = 1;
    for (int p = 0; p < size; p++)
        for (int i = 0; i < 2; i++) ok &= vin[2 * p + i] == (i < rc[p] ? value(p, rank, 5 + i) : -1);
    CHECK(ok, "ialltoallv");
    ok = 1;
    for (int p = 0; p < size; p++)
        ok &= rank % 2 ? *(int *)&win[p] == value(p, rank, 7) : win[p] == value(p, rank, 7) + 0.5;
    CHECK(ok, "ialltoallw");
    /* in place alltoall and allgather */
    for (int p = 0; p < size; p++) out[p] = value(rank, p, 8);
    MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
    for (int p = 0; p < size; p++) ag[p] = p == rank ? value(rank, 9, 0) : -1;
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, 1, MPI_INT, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    ok = 1;
    for (int p = 0; p < size; p++) ok &= out[p] == value(p, rank, 8) && ag[p] == value(p, 9, 0);
    CHECK(ok, "ialltoall / iallgather in place");
    free(ag);
    free(agv);
    free(counts);
    free(displs);
    free(out);
    free(in);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(vout);
    free(vin);
    free(st);
    free(rt);
    free(wc);
    free(wsd);
    free(wrd);
    free(wout);
    free(win);
}

/* many in flight on one communicator, completed in reverse order, with
 * blocking collectives in between (they share the call order) */
static void ordering(void)
{
    enum { K = 12 };
    MPI_Request r[K];
    int in[K], out[K];
    for (int k = 0; k < K; k++) {
        in[k] = rank % 10 + k;
        out[k] = -1;
        if (k % 3 == 2)
            MPI_Ibcast(&in[k], 1, MPI_INT, k % size, MPI_COMM_WORLD, &r[k]);
        else
            MPI_Iallreduce(&in[k], &out[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[k]);
        if (k == 5) {
            int x = rank, y = -1;
            MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            CHECK(y == size - 1, "blocking allreduce among nonblocking ones: %d", y);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    for (int k = K - 1; k >= 0; k--) {
        int flag = 0;
        MPI_Status st;
        MPI_Request_get_status(r[k], &flag, &st);
        if (flag) CHECK(r[k] != MPI_REQUEST_NULL, "request_get_status must not free the request");
        MPI_Wait(&r[k], MPI_STATUS_IGNORE);
    }
    for (int k = 0; k < K; k++) {
        if (k % 3 == 2)
            CHECK(in[k] == (k % size) % 10 + k, "ordering: ibcast %d got %d", k, in[k]);
        else
            CHECK(out[k] == sum_mod(size, 10) + size * k, "ordering: iallreduce %d got %d", k, out[k]);
    }
}

/* one rank completes its request late, after a blocking collective and
 * point-to-point traffic: the others must not wait for that */
static void late_wait(void)
{
    int big = BIG, *buf = malloc(sizeof(int) * big);
    for (int i = 0; i < big; i++) buf[i] = rank == 0 ? i * 7 : -1;
    MPI_Request r;
    MPI_Ibcast(buf, big, MPI_INT, 0, MPI_COMM_WORLD, &r);
    if (rank % 2 == 0) MPI_Wait(&r, MPI_STATUS_IGNORE);
    /* ring of point-to-point messages while the odd ranks' bcast is open */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == left, "sendrecv during ibcast");
    int x = 1, y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(y == size, "allreduce during ibcast");
    if (rank % 2 == 1) MPI_Wait(&r, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < big; i++) ok &= buf[i] == i * 7;
    CHECK(ok, "late ibcast");
    free(buf);
}

/* one Waitall over point-to-point and collective requests together, on two
 * communicators; the receive's status comes back in its place (a
 * collective's source and tag are undefined: MPI-3.1 5.12) */
static void mixed(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int in = -1, out = rank * 5, x = rank % 10, sum = -1, b = rank == 0 ? 1234 : -1;
    MPI_Request r[5];
    MPI_Status st[5];
    MPI_Irecv(&in, 1, MPI_INT, left, 21, MPI_COMM_WORLD, &r[0]);
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, dup, &r[1]);
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(&out, 1, MPI_INT, right, 21, MPI_COMM_WORLD, &r[3]);
    MPI_Ibarrier(dup, &r[4]);
    MPI_Waitall(5, r, st);
    CHECK(in == left * 5 && st[0].MPI_SOURCE == left && st[0].MPI_TAG == 21, "mixed: receive (%d from %d)", in,
          st[0].MPI_SOURCE);
    CHECK(sum == sum_mod(size, 10) && b == 1234, "mixed: collectives (%d, %d)", sum, b);
    for (int i = 0; i < 5; i++) CHECK(r[i] == MPI_REQUEST_NULL, "mixed: request %d not freed", i);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (size > 1024) big_ints = 400;
    barrier_bcast();
    reductions();
    reduce_scatter();
    gather_scatter();
    allgather_alltoall();
    ordering();
    late_wait();
    mixed();
    return mt_finish();
}
