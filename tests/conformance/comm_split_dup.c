/* Communicators made by MPI_Comm_split and MPI_Comm_dup: their ranks and
 * sizes, point-to-point traffic on them (statuses carry communicator
 * ranks; MPI_ANY_SOURCE never sees another communicator's messages),
 * collectives on them, comparisons, and freeing. Self-checking: rank 0
 * prints " No Errors" when every check passed on every rank. Any number of
 * ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

/* What a communicator should be, gathered from its members' world ranks
 * in communicator order, in O(1) memory (the test runs at 100,000s of
 * ranks on the GPU). */
typedef struct {
    int n, pos, first, last, prev, left, right, want_right, max;
    long sum;
} expect;

static void ex_init(expect *e)
{
    memset(e, 0, sizeof *e);
    e->pos = e->left = e->right = e->max = -1;
}

static void ex_add(expect *e, int w)
{
    if (e->want_right) e->right = w, e->want_right = 0;
    if (w == rank) e->pos = e->n, e->left = e->prev, e->want_right = 1;
    if (e->n == 0) e->first = w;
    e->last = e->prev = w;
    e->n++;
    e->sum += w;
    if (w > e->max) e->max = w;
}

static void ex_done(expect *e)
{
    if (e->want_right) e->right = e->first;
    if (e->pos == 0) e->left = e->last;
}

enum { BIG = 300 }; /* ints: past the eager size */
static int big_out[BIG], big_in[BIG];

/* A ring on comm: ANY_SOURCE receives must see only this comm's message,
 * though a decoy with the same tag arrives first on MPI_COMM_WORLD. */
static void ring(MPI_Comm comm, const expect *e, const char *what)
{
    int n, r;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &r);
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    int decoy = -1000 - rank;
    /* decoy to the same process, on the world communicator, same tag */
    MPI_Request dq;
    MPI_Isend(&decoy, 1, MPI_INT, e->right, 7, MPI_COMM_WORLD, &dq);
    int out = 100 * r + 1, in = -1;
    MPI_Status st;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 7, &in, 1, MPI_INT, MPI_ANY_SOURCE, 7, comm, &st);
    CHECK(in == 100 * left + 1, "%s: ring got %d, want %d", what, in, 100 * left + 1);
    CHECK(st.MPI_SOURCE == left, "%s: ring status source %d, want comm rank %d", what, st.MPI_SOURCE, left);
    CHECK(st.MPI_TAG == 7, "%s: ring status tag %d", what, st.MPI_TAG);
    /* a nonblocking round the other way, large enough to go by rendezvous */
    for (int i = 0; i < BIG; i++) big_out[i] = r * BIG + i;
    MPI_Request q[2];
    MPI_Status s2[2];
    MPI_Irecv(big_in, BIG, MPI_INT, MPI_ANY_SOURCE, 8, comm, &q[0]);
    MPI_Isend(big_out, BIG, MPI_INT, left, 8, comm, &q[1]);
    MPI_Waitall(2, q, s2);
    int ok = 1;
    for (int i = 0; i < BIG; i++) ok &= big_in[i] == right * BIG + i;
    CHECK(ok, "%s: nonblocking ring data", what);
    CHECK(s2[0].MPI_SOURCE == right, "%s: nonblocking status source %d, want %d", what, s2[0].MPI_SOURCE, right);
    /* the decoy is still there, for the world receive */
    int got = 0, flag = 0;
    MPI_Status ps;
    MPI_Iprobe(MPI_ANY_SOURCE, 7, comm, &flag, &ps);
    CHECK(!flag, "%s: Iprobe on the communicator sees a message sent on MPI_COMM_WORLD", what);
    MPI_Recv(&got, 1, MPI_INT, e->left, 7, MPI_COMM_WORLD, &st);
    CHECK(got == -1000 - e->left, "%s: world decoy %d, want %d", what, got, -1000 - e->left);
    MPI_Wait(&dq, MPI_STATUS_IGNORE);
}

static void collectives(MPI_Comm comm, const expect *e, const char *what)
{
    int n, r;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &r);
    int v = r == n - 1 ? 4242 + n : -1;
    MPI_Bcast(&v, 1, MPI_INT, n - 1, comm);
    CHECK(v == 4242 + n, "%s: bcast from the last rank got %d", what, v);
    long long sum = -1, mine_r = r; /* n(n-1)/2 overflows an int from 65,536 ranks */
    MPI_Reduce(&mine_r, &sum, 1, MPI_LONG_LONG, MPI_SUM, 0, comm);
    if (r == 0)
        CHECK(sum == (long long)n * (n - 1) / 2, "%s: reduce of comm ranks %lld, want %lld", what, sum,
              (long long)n * (n - 1) / 2);
    /* the world ranks of the members, summed: proves who is in it */
    long want = e->sum, got = 0, mine = rank;
    MPI_Allreduce(&mine, &got, 1, MPI_LONG, MPI_SUM, comm);
    CHECK(got == want, "%s: allreduce of world ranks %ld, want %ld", what, got, want);
    int mx = -1;
    MPI_Allreduce(&rank, &mx, 1, MPI_INT, MPI_MAX, comm);
    int want_max = e->max;
    CHECK(mx == want_max, "%s: allreduce max %d, want %d", what, mx, want_max);
    MPI_Barrier(comm);
}

/* A pseudo-random value in [0, m) for x, the same on every rank. */
static int scramble(int x, int m)
{
    unsigned h = (unsigned)x * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (int)(h % (unsigned)m);
}

/* Checks comm against the expected members (world ranks in comm order). */
static void check_comm(MPI_Comm comm, expect *e, const char *what)
{
    ex_done(e);
    int n = -1, r = -1;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &r);
    CHECK(n == e->n, "%s: size %d, want %d", what, n, e->n);
    CHECK(r == e->pos, "%s: rank %d, want %d", what, r, e->pos);
    if (n != e->n || r != e->pos) return;
    ring(comm, e, what);
    collectives(comm, e, what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);

    expect e;
    int cmp;

    /* split by parity, keys in rank order */
    MPI_Comm par;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &par);
    ex_init(&e);
    for (int i = rank % 2; i < size; i += 2) ex_add(&e, i);
    check_comm(par, &e, "parity split");
    MPI_Comm_compare(par, MPI_COMM_WORLD, &cmp);
    CHECK(cmp == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "parity vs world: compare %d", cmp);

    /* a split of a split: each parity class in two halves, reversed */
    int prank, psize;
    MPI_Comm_rank(par, &prank);
    MPI_Comm_size(par, &psize);
    MPI_Comm half;
    MPI_Comm_split(par, prank < psize / 2, -prank, &half);
    ex_init(&e);
    for (int i = psize - 1; i >= 0; i--)
        if ((i < psize / 2) == (prank < psize / 2)) ex_add(&e, rank % 2 + 2 * i);
    check_comm(half, &e, "split of a split");
    MPI_Comm_free(&half);
    CHECK(half == MPI_COMM_NULL, "MPI_Comm_free sets the handle to MPI_COMM_NULL");

    /* blocks of three with reversed keys */
    MPI_Comm blk;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 3, -rank, &blk);
    ex_init(&e);
    for (int i = size - 1; i >= 0; i--)
        if (i / 3 == rank / 3) ex_add(&e, i);
    check_comm(blk, &e, "reversed blocks of three");

    /* one color, reversed keys: the same ranks in another order */
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    ex_init(&e);
    for (int i = size - 1; i >= 0; i--) ex_add(&e, i);
    check_comm(rev, &e, "reversed world");
    MPI_Comm_compare(rev, MPI_COMM_WORLD, &cmp);
    CHECK(cmp == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "reversed vs world: compare %d", cmp);

    /* an irregular split: equal keys (ties go by old rank), colors of
     * uneven size, some ranks left out; then a split of it */
    MPI_Comm odd;
    int color = rank % 5 == 4 ? MPI_UNDEFINED : (rank * rank) % 3;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank % 2, &odd);
    if (color == MPI_UNDEFINED) {
        CHECK(odd == MPI_COMM_NULL, "MPI_UNDEFINED color gives MPI_COMM_NULL");
    } else {
        ex_init(&e);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < size; i++)
                if (i % 5 != 4 && (i * i) % 3 == color && i % 2 == k) ex_add(&e, i);
        check_comm(odd, &e, "irregular split");
        MPI_Comm odd2;
        MPI_Comm_split(odd, 0, rank % 3, &odd2);
        ex_init(&e);
        for (int k2 = 0; k2 < 3; k2++)
            for (int k = 0; k < 2; k++)
                for (int i = 0; i < size; i++)
                    if (i % 5 != 4 && (i * i) % 3 == color && i % 2 == k && i % 3 == k2) ex_add(&e, i);
        check_comm(odd2, &e, "split of an irregular split");
        MPI_Comm_free(&odd2);
        MPI_Comm_free(&odd);
    }

    /* scrambled colors and keys with ties, some ranks left out: no color
     * is a progression of world ranks (each needs a map), and a rank's new
     * rank is far from its old one */
    {
        int sc = scramble(rank, 7), sk = scramble(rank * 31 + 7, 2);
        MPI_Comm scr;
        MPI_Comm_split(MPI_COMM_WORLD, sc == 6 ? MPI_UNDEFINED : sc, sk, &scr);
        if (sc == 6) {
            CHECK(scr == MPI_COMM_NULL, "scrambled split: MPI_UNDEFINED color gives MPI_COMM_NULL");
        } else {
            ex_init(&e);
            for (int k = 0; k < 2; k++) /* two keys: each pass over the world costs at full occupancy */
                for (int i = 0; i < size; i++)
                    if (scramble(i, 7) == sc && scramble(i * 31 + 7, 2) == k) ex_add(&e, i);
            check_comm(scr, &e, "scrambled split");
            MPI_Comm_free(&scr);
        }
    }

    /* dups: of the world, of a split; congruent, separate traffic */
    MPI_Comm dw, dp;
    MPI_Comm_dup(MPI_COMM_WORLD, &dw);
    ex_init(&e);
    for (int i = 0; i < size; i++) ex_add(&e, i);
    check_comm(dw, &e, "dup of world");
    MPI_Comm_compare(dw, MPI_COMM_WORLD, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "dup vs world: compare %d", cmp);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &cmp);
    CHECK(cmp == MPI_IDENT, "world vs world: compare %d", cmp);
    MPI_Comm_dup(blk, &dp);
    ex_init(&e);
    for (int i = size - 1; i >= 0; i--)
        if (i / 3 == rank / 3) ex_add(&e, i);
    check_comm(dp, &e, "dup of a split");
    MPI_Comm_compare(dp, blk, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "dup vs its split: compare %d", cmp);

    /* the same tag on world and its dup, sent in opposite order: each
     * receive gets its own communicator's message */
    if (size > 1) {
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        int a = 1, b = 2, x = 0, y = 0;
        MPI_Request q[2];
        MPI_Isend(&a, 1, MPI_INT, right, 3, dw, &q[0]);
        MPI_Isend(&b, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &q[1]);
        MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, left, 3, dw, MPI_STATUS_IGNORE);
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        MPI_Wait(&q[1], MPI_STATUS_IGNORE);
        CHECK(x == 1 && y == 2, "world and its dup: got %d on dup, %d on world", x, y);
    }

    /* a receive posted on a communicator that is then freed still
     * completes, on that communicator's context: a world message with the
     * same tag arrives first, and a new communicator is made meanwhile */
    {
        MPI_Comm tmp, mid;
        MPI_Comm_dup(MPI_COMM_WORLD, &tmp);
        int right = (rank + 1) % size, left = (rank - 1 + size) % size, got = -1, wgot = -1;
        int a = 10 + rank, b = -10 - rank;
        MPI_Request rq, sq[2];
        MPI_Status st;
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 4, tmp, &rq);
        MPI_Isend(&b, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &sq[0]);
        MPI_Isend(&a, 1, MPI_INT, right, 4, tmp, &sq[1]);
        MPI_Comm_free(&tmp);
        MPI_Comm_dup(MPI_COMM_WORLD, &mid);
        MPI_Wait(&rq, &st);
        CHECK(got == 10 + left && st.MPI_SOURCE == left, "receive on a freed communicator: %d from %d", got,
              st.MPI_SOURCE);
        MPI_Recv(&wgot, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(wgot == -10 - left, "world message beside the freed communicator: %d", wgot);
        MPI_Wait(&sq[0], MPI_STATUS_IGNORE);
        MPI_Wait(&sq[1], MPI_STATUS_IGNORE);
        int v = 1, sum = 0;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, mid);
        CHECK(sum == size, "the communicator made meanwhile: %d", sum);
        MPI_Comm_free(&mid);
    }

    /* MPI_Comm_split_type: every process shares memory here */
    MPI_Comm shm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
    int shm_size = 0;
    MPI_Comm_size(shm, &shm_size);
    /* MPICH over several nodes would differ; one node here */
    CHECK(shm_size == size, "split_type shared: size %d, want %d", shm_size, size);
    MPI_Comm none;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &none);
    CHECK(none == MPI_COMM_NULL, "split_type MPI_UNDEFINED gives MPI_COMM_NULL");
    int inter = 1;
    MPI_Comm_test_inter(shm, &inter);
    CHECK(!inter, "MPI_Comm_test_inter is false");

    /* many dups and frees: contexts must stay apart and handles reusable */
    MPI_Comm chain[8];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 8; i++) MPI_Comm_dup(i ? chain[i - 1] : par, &chain[i]);
        int v = rank, s = 0;
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, chain[7]);
        int want = 0;
        for (int i = rank % 2; i < size; i += 2) want += i;
        CHECK(s == want, "dup chain round %d: allreduce %d, want %d", round, s, want);
        for (int i = 7; i >= 0; i--) MPI_Comm_free(&chain[i]);
    }

    /* self */
    int ssize, srank;
    MPI_Comm_size(MPI_COMM_SELF, &ssize);
    MPI_Comm_rank(MPI_COMM_SELF, &srank);
    CHECK(ssize == 1 && srank == 0, "MPI_COMM_SELF: size %d rank %d", ssize, srank);
    int sv = rank + 5, sg = -1;
    MPI_Status sst;
    MPI_Sendrecv(&sv, 1, MPI_INT, 0, 1, &sg, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_SELF, &sst);
    CHECK(sg == rank + 5 && sst.MPI_SOURCE == 0, "MPI_COMM_SELF sendrecv: %d from %d", sg, sst.MPI_SOURCE);
    MPI_Comm dself;
    MPI_Comm_dup(MPI_COMM_SELF, &dself);
    MPI_Allreduce(&sv, &sg, 1, MPI_INT, MPI_SUM, dself);
    CHECK(sg == sv, "dup of MPI_COMM_SELF: allreduce %d", sg);
    MPI_Comm_free(&dself);

    MPI_Comm_free(&shm);
    MPI_Comm_free(&dp);
    MPI_Comm_free(&dw);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&blk);
    MPI_Comm_free(&par);

    return mt_finish();
}
