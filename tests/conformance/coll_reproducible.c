/* Reproducible reductions: MPI_SUM of floats of very different magnitudes
 * (where the combination order shows in the last bits) gives bitwise the
 * same result every time, whatever order the messages arrive in (ranks are
 * delayed differently from one repetition to the next), and Allreduce
 * gives every rank the same bits. With user operations (MPI_Op_create), a
 * non-commutative operation must combine in rank order:
 * x0 op x1 op ... op x(n-1). Prints " No Errors" when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

enum { N = 64, REPS = 8 };

/* a rank-dependent delay, different in each repetition, to shuffle arrivals */
static void jitter(int rep)
{
    volatile double x = 0;
    if ((rank + rep) % 3 == 0)
        for (int i = 0; i < 20000 * (1 + (rank * 7 + rep) % 5); i++) x += i;
}

static void floats(void)
{
    float in[N], first[N], out[N], root0[N];
    double din[N], dfirst[N], dout[N];
    for (int i = 0; i < N; i++) {
        in[i] = mt_fvalue(rank, i);
        din[i] = (double)mt_fvalue(rank, i + N) * 1e10 + mt_fvalue(rank, i);
    }
    for (int rep = 0; rep < REPS; rep++) {
        jitter(rep);
        MPI_Allreduce(in, out, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        if (rep == 0) memcpy(first, out, sizeof out);
        CHECK(memcmp(first, out, sizeof out) == 0, "allreduce float sum differs in repetition %d", rep);
        MPI_Allreduce(din, dout, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (rep == 0) memcpy(dfirst, dout, sizeof dout);
        CHECK(memcmp(dfirst, dout, sizeof dout) == 0, "allreduce double sum differs in repetition %d", rep);
        jitter(rep + 1);
        float red[N];
        MPI_Reduce(in, red, N, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            if (rep == 0) memcpy(root0, red, sizeof red);
            CHECK(memcmp(root0, red, sizeof red) == 0, "reduce float sum differs in repetition %d", rep);
        }
    }
    /* every rank has the same bits */
    float ref[N];
    memcpy(ref, first, sizeof ref);
    MPI_Bcast(ref, N, MPI_FLOAT, 0, MPI_COMM_WORLD);
    CHECK(memcmp(ref, first, sizeof ref) == 0, "allreduce results differ between ranks");
    /* in place gives the same as not */
    memcpy(out, in, sizeof out);
    MPI_Allreduce(MPI_IN_PLACE, out, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(memcmp(out, first, sizeof out) == 0, "allreduce in place differs");
    /* scan and reduce_scatter_block, repeated */
    float sfirst[N], sout[N];
    float *rin = mt_alloc(sizeof(float) * 4 * size), rfirst[4], rout[4];
    for (int i = 0; i < 4 * size; i++) rin[i] = mt_fvalue(rank, i + 7);
    for (int rep = 0; rep < REPS; rep++) {
        jitter(rep + 2);
        MPI_Scan(in, sout, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        if (rep == 0) memcpy(sfirst, sout, sizeof sout);
        CHECK(memcmp(sfirst, sout, sizeof sout) == 0, "scan float sum differs in repetition %d", rep);
        MPI_Reduce_scatter_block(rin, rout, 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        if (rep == 0) memcpy(rfirst, rout, sizeof rout);
        CHECK(memcmp(rfirst, rout, sizeof rout) == 0, "reduce_scatter_block float sum differs in repetition %d", rep);
    }
    free(rin);
    /* a large vector (reductions of large vectors may take other algorithms) */
    int big = 8192;
    float *bin = mt_alloc(sizeof(float) * big), *bout = mt_alloc(sizeof(float) * big), *bfirst = mt_alloc(sizeof(float) * big);
    for (int i = 0; i < big; i++) bin[i] = mt_fvalue(rank, i);
    for (int rep = 0; rep < 4; rep++) {
        jitter(rep);
        MPI_Allreduce(bin, bout, big, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        if (rep == 0) memcpy(bfirst, bout, sizeof(float) * big);
        CHECK(memcmp(bfirst, bout, sizeof(float) * big) == 0, "large allreduce float sum differs in repetition %d", rep);
    }
    float *rfirst_big = mt_alloc(sizeof(float) * big);
    for (int rep = 0; rep < 4; rep++) {
        jitter(rep + 1);
        MPI_Reduce(bin, bout, big, MPI_FLOAT, MPI_SUM, size - 1, MPI_COMM_WORLD);
        if (rank == size - 1) {
            if (rep == 0) memcpy(rfirst_big, bout, sizeof(float) * big);
            CHECK(memcmp(rfirst_big, bout, sizeof(float) * big) == 0, "large reduce float sum differs in repetition %d",
                  rep);
        }
    }
    free(rfirst_big);
    MPI_Allreduce(bin, bout, big, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(bout, big, MPI_FLOAT, 0, MPI_COMM_WORLD);
    CHECK(memcmp(bfirst, bout, sizeof(float) * big) == 0, "large allreduce results differ between ranks");
    free(bin);
    free(bout);
    free(bfirst);
}

/* User operations come with MPI-3's other operation constants: MPICH has
 * them, and gpumpi once its user operations are in. */
#ifdef MPI_REPLACE
/* affine maps x -> a x + b composed, the lower rank's map outside:
 * (a, b) o (c, d) = (ac, ad + b); associative, not commutative */
static void compose(void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    unsigned *f = invec, *g = inoutvec;
    (void)type;
    for (int i = 0; i < *len; i++) {
        unsigned a = f[2 * i], b = f[2 * i + 1], c = g[2 * i], d = g[2 * i + 1];
        g[2 * i] = a * c;
        g[2 * i + 1] = a * d + b;
    }
}

enum { K = 3 };

static void map_of(int r, int i, unsigned *m)
{
    m[0] = 2u * (unsigned)r + 3u + (unsigned)i;
    m[1] = (unsigned)(r * r) + 1u + 5u * (unsigned)i;
}

/* x_from o ... o x_(to-1), element i */
static void expected(int from, int to, int i, unsigned *m)
{
    unsigned acc[2] = {1, 0}, x[2];
    for (int r = from; r < to; r++) {
        map_of(r, i, x);
        unsigned a = acc[0], b = acc[1];
        acc[0] = a * x[0];
        acc[1] = a * x[1] + b;
    }
    m[0] = acc[0];
    m[1] = acc[1];
}

static void noncommutative(void)
{
    MPI_Op op;
    MPI_Datatype pair;
    MPI_Op_create(compose, 0, &op);
    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
    MPI_Type_commit(&pair);
    unsigned in[2 * K], out[2 * K], want[2];
    for (int i = 0; i < K; i++) map_of(rank, i, &in[2 * i]);
    int roots[3] = {0, size / 2, size - 1};
    for (int ri = 0; ri < 3; ri++) {
        memset(out, 0, sizeof out);
        MPI_Reduce(in, out, K, pair, op, roots[ri], MPI_COMM_WORLD);
        if (rank == roots[ri]) {
            int ok = 1;
            for (int i = 0; i < K; i++) {
                expected(0, size, i, want);
                ok &= out[2 * i] == want[0] && out[2 * i + 1] == want[1];
            }
            CHECK(ok, "non-commutative reduce to root %d is not in rank order", roots[ri]);
        }
    }
    memset(out, 0, sizeof out);
    MPI_Allreduce(in, out, K, pair, op, MPI_COMM_WORLD);
    int ok = 1;
    for (int i = 0; i < K; i++) {
        expected(0, size, i, want);
        ok &= out[2 * i] == want[0] && out[2 * i + 1] == want[1];
    }
    CHECK(ok, "non-commutative allreduce is not in rank order");
    MPI_Scan(in, out, K, pair, op, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < K; i++) {
        expected(0, rank + 1, i, want);
        ok &= out[2 * i] == want[0] && out[2 * i + 1] == want[1];
    }
    CHECK(ok, "non-commutative scan is not in rank order");
    MPI_Exscan(in, out, K, pair, op, MPI_COMM_WORLD);
    ok = 1;
    if (rank > 0)
        for (int i = 0; i < K; i++) {
            expected(0, rank, i, want);
            ok &= out[2 * i] == want[0] && out[2 * i + 1] == want[1];
        }
    CHECK(ok, "non-commutative exscan is not in rank order");
    unsigned *rin = mt_alloc(sizeof(unsigned) * 2 * size), rout[2];
    for (int r = 0; r < size; r++) map_of(rank, r, &rin[2 * r]);
    MPI_Reduce_scatter_block(rin, rout, 1, pair, op, MPI_COMM_WORLD);
    expected(0, size, rank, want);
    CHECK(rout[0] == want[0] && rout[1] == want[1], "non-commutative reduce_scatter_block is not in rank order");
    free(rin);
    MPI_Type_free(&pair);
    MPI_Op_free(&op);
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    floats();
#ifdef MPI_REPLACE
    noncommutative();
#endif
    return mt_finish();
}
