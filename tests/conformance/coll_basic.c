/* Barrier, Bcast, Reduce, Allreduce: every root (a sample of roots past 64
 * ranks), small and large messages (past the eager size), in place, on
 * MPI_COMM_WORLD and MPI_COMM_SELF, with point-to-point traffic using
 * MPI_ANY_SOURCE / MPI_ANY_TAG in between (it must never take collective
 * messages). Prints " No Errors" when every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

static const int counts[] = {0, 1, 7, 100, 1000}; /* ints; 1000 goes by rendezvous */
enum { NCOUNTS = sizeof counts / sizeof counts[0], MAXC = 1000 };

static int ibuf[MAXC], ibuf2[MAXC];
static double dbuf[MAXC], dbuf2[MAXC];

/* large messages: scattered and allgathered, reduce-scattered and allgathered */
static void large(void)
{
    int n = size <= 64 ? 40000 : 6000;
    int *a = malloc(sizeof(int) * n), *b = malloc(sizeof(int) * n);
    int roots[3] = {0, size / 2, size - 1};
    for (int ri = 0; ri < 3; ri++) {
        int root = roots[ri];
        for (int len = 5000; len <= n; len += n - 5000) {
            for (int i = 0; i < len; i++) a[i] = rank == root ? root * 7 + i * 3 : -1;
            MPI_Bcast(a, len, MPI_INT, root, MPI_COMM_WORLD);
            int ok = 1;
            for (int i = 0; i < len; i++) ok &= a[i] == root * 7 + i * 3;
            CHECK(ok, "large bcast root %d count %d", root, len);
        }
    }
    for (int len = 4999; len <= n; len += n - 4999) {
        for (int i = 0; i < len; i++) a[i] = rank + i % 13;
        MPI_Allreduce(a, b, len, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int ok = 1;
        /* sums of ranks pass 2^31 from 65,536 ranks: int sums wrap, so compare wrapped */
        for (int i = 0; i < len; i++)
            ok &= b[i] == (int)(unsigned)((long long)size * (size - 1) / 2 + (long long)size * (i % 13));
        CHECK(ok, "large allreduce count %d", len);
        MPI_Allreduce(MPI_IN_PLACE, a, len, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < len; i++) ok &= a[i] == size - 1 + i % 13;
        CHECK(ok, "large allreduce in place count %d", len);
    }
    for (int ri = 0; ri < 3; ri++) {
        int root = roots[ri], len = 6000;
        for (int i = 0; i < len; i++) {
            a[i] = rank * 2 + i % 7;
            b[i] = -1;
        }
        MPI_Reduce(a, b, len, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        int ok = 1;
        for (int i = 0; i < len; i++)
            ok &= b[i] == (rank == root ? (int)(unsigned)((long long)size * (size - 1) + (long long)size * (i % 7)) : -1);
        CHECK(ok, "large reduce root %d", root);
        if (rank == root)
            MPI_Reduce(MPI_IN_PLACE, a, root == 0 ? len : 500, MPI_INT, MPI_MIN, root, MPI_COMM_WORLD);
        else
            MPI_Reduce(a, b, root == 0 ? len : 500, MPI_INT, MPI_MIN, root, MPI_COMM_WORLD);
        ok = 1;
        if (rank == root)
            for (int i = 0; i < (root == 0 ? len : 500); i++) ok &= a[i] == i % 7;
        CHECK(ok, "large reduce in place root %d", root);
    }
    double *d = malloc(sizeof(double) * 3000), *e = malloc(sizeof(double) * 3000);
    for (int i = 0; i < 3000; i++) d[i] = rank * 0.5 + i;
    MPI_Allreduce(d, e, 3000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int ok = 1;
    for (int i = 0; i < 3000; i++) ok &= e[i] == 0.25 * size * (size - 1) + (double)i * size;
    CHECK(ok, "large allreduce doubles");
    free(a);
    free(b);
    free(d);
    free(e);
}

/* the roots to try: all of them, or 16 spread out on big runs */
static int nroots(void) { return size <= 64 ? size : 16; }
static int root_at(int i) { return size <= 64 ? i : (int)((long)i * (size - 1) / 15); }

static void barrier(void)
{
    for (int i = 0; i < 5; i++) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_SELF);
    /* a barrier orders: a message sent before it is matched after it, and
     * the barrier's own messages are not seen by a wildcard receive */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, v = rank * 3 + 1, got = -1;
    MPI_Request r;
    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(&v, 1, MPI_INT, right, 77, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Wait(&r, &st);
    CHECK(got == left * 3 + 1 && st.MPI_TAG == 77 && st.MPI_SOURCE == left, "barrier: wildcard receive got %d tag %d",
          got, st.MPI_TAG);
}

static void bcast(void)
{
    for (int ri = 0; ri < nroots(); ri++) {
        int root = root_at(ri);
        for (int c = 0; c < NCOUNTS; c++) {
            int n = counts[c];
            for (int i = 0; i < n; i++) ibuf[i] = rank == root ? root * 10000 + i + n : -1;
            MPI_Bcast(ibuf, n, MPI_INT, root, MPI_COMM_WORLD);
            int ok = 1;
            for (int i = 0; i < n; i++) ok &= ibuf[i] == root * 10000 + i + n;
            CHECK(ok, "bcast int root %d count %d", root, n);
        }
        for (int i = 0; i < 300; i++) dbuf[i] = rank == root ? root + i * 0.25 : 0;
        MPI_Bcast(dbuf, 300, MPI_DOUBLE, root, MPI_COMM_WORLD);
        int ok = 1;
        for (int i = 0; i < 300; i++) ok &= dbuf[i] == root + i * 0.25;
        CHECK(ok, "bcast double root %d", root);
        char text[32];
        if (rank == root) snprintf(text, sizeof text, "hello from %d", root);
        MPI_Bcast(text, sizeof text, MPI_CHAR, root, MPI_COMM_WORLD);
        char want[32];
        snprintf(want, sizeof want, "hello from %d", root);
        CHECK(strcmp(text, want) == 0, "bcast chars root %d: '%s'", root, text);
    }
    int v = rank == 0 ? 5 : rank;
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_SELF);
    CHECK(v == (rank == 0 ? 5 : rank), "bcast on MPI_COMM_SELF");
}

/* rank r contributes r * 3 + i (+1 for products kept small) */
static void reduce(void)
{
    long long sum_r = (long long)size * (size - 1) / 2;
    for (int ri = 0; ri < nroots(); ri++) {
        int root = root_at(ri);
        for (int c = 0; c < NCOUNTS; c++) {
            int n = counts[c];
            for (int i = 0; i < n; i++) {
                ibuf[i] = rank * 3 + i;
                ibuf2[i] = -7;
            }
            MPI_Reduce(ibuf, ibuf2, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
            int ok = 1;
            for (int i = 0; i < n; i++)
                ok &= rank == root ? ibuf2[i] == (int)(3 * sum_r + (long long)size * i) : ibuf2[i] == -7;
            CHECK(ok, "reduce sum root %d count %d", root, n);
            /* in place at the root (MPICH 4.0.2 crashes on a large one at
             * a root other than 0: 500 ints is the largest it takes there) */
            if (root != 0 && n > 500) n = 500;
            for (int i = 0; i < n; i++) ibuf[i] = rank + i;
            if (rank == root)
                MPI_Reduce(MPI_IN_PLACE, ibuf, n, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
            else
                MPI_Reduce(ibuf, ibuf2, n, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
            ok = 1;
            if (rank == root)
                for (int i = 0; i < n; i++) ok &= ibuf[i] == size - 1 + i;
            CHECK(ok, "reduce max in place root %d count %d", root, n);
        }
        for (int i = 0; i < 300; i++) dbuf[i] = (rank % 2 ? -1.0 : 1.0) * (i + 1);
        MPI_Reduce(dbuf, dbuf2, 300, MPI_DOUBLE, MPI_MIN, root, MPI_COMM_WORLD);
        int ok = 1;
        if (rank == root)
            for (int i = 0; i < 300; i++) ok &= dbuf2[i] == (size > 1 ? -(i + 1.0) : i + 1.0);
        CHECK(ok, "reduce min double root %d", root);
    }
    /* products and logical/bitwise operations */
    int p = rank % 3 == 0 ? 2 : 1, prod = 0, want = 1;
    for (int r = 0; r < size && r < 60; r++) want *= r % 3 == 0 ? 2 : 1;
    if (size <= 60) {
        MPI_Reduce(&p, &prod, 1, MPI_INT, MPI_PROD, size - 1, MPI_COMM_WORLD);
        if (rank == size - 1) CHECK(prod == want, "reduce prod %d want %d", prod, want);
    }
    unsigned bits = 1u << (rank % 32), all = 0;
    MPI_Reduce(&bits, &all, 1, MPI_UNSIGNED, MPI_BOR, 0, MPI_COMM_WORLD);
    unsigned want_bits = 0;
    for (int r = 0; r < size; r++) want_bits |= 1u << (r % 32);
    if (rank == 0) CHECK(all == want_bits, "reduce bor %x want %x", all, want_bits);
    int flag = rank != 1, land = -1;
    MPI_Reduce(&flag, &land, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
    if (rank == 0) CHECK(land == (size > 1 ? 0 : 1), "reduce land %d", land);
    int one = rank + 1, self = 0;
    MPI_Reduce(&one, &self, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF);
    CHECK(self == rank + 1, "reduce on MPI_COMM_SELF");
}

static void allreduce(void)
{
    long long sum_r = (long long)size * (size - 1) / 2;
    for (int c = 0; c < NCOUNTS; c++) {
        int n = counts[c];
        for (int i = 0; i < n; i++) {
            ibuf[i] = rank * 3 + i;
            ibuf2[i] = -1;
        }
        MPI_Allreduce(ibuf, ibuf2, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int ok = 1;
        for (int i = 0; i < n; i++) ok &= ibuf2[i] == (int)(3 * sum_r + (long long)size * i);
        CHECK(ok, "allreduce sum count %d", n);
        for (int i = 0; i < n; i++) ibuf[i] = (rank + i) % size;
        MPI_Allreduce(MPI_IN_PLACE, ibuf, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < n; i++) ok &= ibuf[i] == (size > 1 ? size - 1 : 0);
        CHECK(ok, "allreduce max in place count %d", n);
        for (int i = 0; i < n; i++) dbuf[i] = rank + 0.5 * i;
        MPI_Allreduce(MPI_IN_PLACE, dbuf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < n; i++) ok &= dbuf[i] == (double)sum_r + 0.5 * i * size;
        CHECK(ok, "allreduce double sum in place count %d", n);
    }
    long long big = (long long)rank << 33, total = 0;
    MPI_Allreduce(&big, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == sum_r << 33, "allreduce long long");
    int x = 1 << (rank % 16), bx = 0;
    MPI_Allreduce(&x, &bx, 1, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
    int want = 0;
    for (int r = 0; r < size; r++) want ^= 1 << (r % 16);
    CHECK(bx == want, "allreduce bxor %x want %x", bx, want);
    int mine = rank, s = -1;
    MPI_Allreduce(&mine, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    CHECK(s == rank, "allreduce on MPI_COMM_SELF");
}

/* collectives back to back with wildcard point-to-point traffic in flight:
 * each rank's receive, posted before the collectives, must get the
 * point-to-point message sent after them */
static void mixed(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int round = 0; round < 3; round++) {
        int got = -1, early = -1;
        MPI_Request r, r2;
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        int v = rank + 100 * round;
        MPI_Isend(&v, 1, MPI_INT, right, round, MPI_COMM_WORLD, &r2);
        int b = rank == 0 ? 42 + round : 0;
        long long sum = 0, mine = rank; /* the sum of ranks overflows an int from 65,536 ranks */
        MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        MPI_Reduce(ibuf, ibuf2, MAXC, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Status st;
        MPI_Wait(&r, &st);
        MPI_Wait(&r2, MPI_STATUS_IGNORE);
        CHECK(b == 42 + round && sum == (long long)size * (size - 1) / 2, "mixed: collective results");
        CHECK(got == left + 100 * round && st.MPI_SOURCE == left && st.MPI_TAG == round,
              "mixed: wildcard receive got %d from %d tag %d", got, st.MPI_SOURCE, st.MPI_TAG);
        /* a blocking wildcard receive after collectives that left nothing behind */
        MPI_Sendrecv(&v, 1, MPI_INT, right, 1000 + round, &early, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                     MPI_COMM_WORLD, &st);
        CHECK(early == left + 100 * round && st.MPI_TAG == 1000 + round, "mixed: sendrecv got %d", early);
    }
    /* a large send waiting for a receive that the receiver posted before
     * entering a collective: the collective must keep matching it */
    if (size > 1) {
        int peer = rank ^ 1;
        if (peer < size) {
            MPI_Request r;
            for (int i = 0; i < MAXC; i++) ibuf[i] = rank * MAXC + i;
            if (rank & 1) {
                MPI_Irecv(ibuf2, MAXC, MPI_INT, peer, 5, MPI_COMM_WORLD, &r);
                MPI_Barrier(MPI_COMM_WORLD);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
                int ok = 1;
                for (int i = 0; i < MAXC; i++) ok &= ibuf2[i] == peer * MAXC + i;
                CHECK(ok, "mixed: receive posted before a barrier");
            } else {
                MPI_Send(ibuf, MAXC, MPI_INT, peer, 5, MPI_COMM_WORLD);
                MPI_Barrier(MPI_COMM_WORLD);
            }
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    barrier();
    bcast();
    reduce();
    allreduce();
    large();
    mixed();
    return mt_finish();
}
