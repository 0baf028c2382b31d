/* User reduction operations (MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative), checked by themselves: prints "No Errors" when
 * every check passed on every rank (MPICH's test convention), else one
 * line per failed check. A commutative sum, a non-commutative 2x2 matrix
 * product whose result depends on the rank order, and a non-commutative
 * composition of affine maps on a datatype with gaps, through MPI_Reduce
 * (several roots) and MPI_Allreduce. Runs with any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

#define P 1000003LL /* products modulo a prime: exact, and still associative */

static MPI_Datatype expected_type; /* the handle the user functions must be called with */
static int wrong_type_calls;

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *a = (const int *)in;
    int *b = (int *)inout;
    if (*dt != MPI_INT) wrong_type_calls++;
    for (int i = 0; i < *len; i++) b[i] += a[i];
}

/* inout = in x inout for each 2x2 matrix (row major), in the lower ranks' */
static void mat_mul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *a = (const int *)in;
    int *b = (int *)inout;
    if (*dt != expected_type) wrong_type_calls++;
    for (int m = 0; m < *len; m++, a += 4, b += 4) {
        long long c0 = (a[0] * (long long)b[0] + a[1] * (long long)b[2]) % P;
        long long c1 = (a[0] * (long long)b[1] + a[1] * (long long)b[3]) % P;
        long long c2 = (a[2] * (long long)b[0] + a[3] * (long long)b[2]) % P;
        long long c3 = (a[2] * (long long)b[1] + a[3] * (long long)b[3]) % P;
        b[0] = (int)c0, b[1] = (int)c1, b[2] = (int)c2, b[3] = (int)c3;
    }
}

static void mat_of(int r, int m, int *out)
{
    out[0] = 1 + (r + m) % 3;
    out[1] = r + 1;
    out[2] = (r * 5 + m) % 7;
    out[3] = 1;
}

static void mat_mul_ll(const long long *a, const long long *b, long long *c)
{
    long long t[4];
    t[0] = (a[0] * b[0] + a[1] * b[2]) % P;
    t[1] = (a[0] * b[1] + a[1] * b[3]) % P;
    t[2] = (a[2] * b[0] + a[3] * b[2]) % P;
    t[3] = (a[2] * b[1] + a[3] * b[3]) % P;
    memcpy(c, t, sizeof t);
}

/* An affine map x -> a x + b stored as ints at 0 (a) and 2 (b) of each
 * element of a vector type with a gap at 1. in o inout: apply inout
 * first, then in... as composition in rank order: result = in(inout(x)). */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *f = (const int *)in;
    int *g = (int *)inout;
    if (*dt != expected_type) wrong_type_calls++;
    for (int e = 0; e < *len; e++, f += 3, g += 3) {
        long long a = (f[0] * (long long)g[0]) % P, b = (f[0] * (long long)g[2] + f[2]) % P;
        g[0] = (int)a, g[2] = (int)b;
    }
}

enum { NM = 3 };

static void commutative_sum(void)
{
    MPI_Op op;
    MPI_Op_create(add_ints, 1, &op);
    int commute = -1;
    MPI_Op_commutative(op, &commute);
    CHECK(commute == 1, "MPI_Op_commutative of a commutative user op");
    int in[4] = {rank, 1, -rank, 2 * rank}, out[4];
    MPI_Allreduce(in, out, 4, MPI_INT, op, MPI_COMM_WORLD);
    int s = size * (size - 1) / 2;
    CHECK(out[0] == s && out[1] == size && out[2] == -s && out[3] == 2 * s, "commutative user sum by MPI_Allreduce");
    MPI_Op_free(&op);
    CHECK(op == MPI_OP_NULL, "MPI_Op_free sets MPI_OP_NULL");
}

static void matrices(void)
{
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    expected_type = mat;
    MPI_Op op;
    MPI_Op_create(mat_mul, 0, &op);
    int commute = -1;
    MPI_Op_commutative(op, &commute);
    CHECK(commute == 0, "MPI_Op_commutative of a non-commutative user op");

    int in[NM * 4], out[NM * 4];
    long long ex[NM][4];
    for (int m = 0; m < NM; m++) {
        mat_of(rank, m, in + 4 * m);
        int first[4];
        mat_of(0, m, first);
        for (int k = 0; k < 4; k++) ex[m][k] = first[k];
        for (int r = 1; r < size; r++) { /* M_0 x M_1 x ... x M_(size-1) */
            int mr[4];
            long long ml[4];
            mat_of(r, m, mr);
            for (int k = 0; k < 4; k++) ml[k] = mr[k];
            mat_mul_ll(ex[m], ml, ex[m]);
        }
    }
    int roots[3] = {0, size - 1, size / 2};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < NM * 4; i++) out[i] = -1;
        MPI_Reduce(in, out, NM, mat, op, roots[k], MPI_COMM_WORLD);
        if (rank == roots[k]) {
            int bad = 0;
            for (int m = 0; m < NM; m++)
                for (int j = 0; j < 4; j++) bad += out[4 * m + j] != ex[m][j];
            char msg[120];
            snprintf(msg, sizeof msg, "matrix product in rank order by MPI_Reduce to root %d: %d wrong", roots[k], bad);
            CHECK(bad == 0, "%s", msg);
        }
    }
    for (int i = 0; i < NM * 4; i++) out[i] = -1;
    MPI_Allreduce(in, out, NM, mat, op, MPI_COMM_WORLD);
    int bad = 0;
    for (int m = 0; m < NM; m++)
        for (int j = 0; j < 4; j++) bad += out[4 * m + j] != ex[m][j];
    CHECK(bad == 0, "matrix product in rank order by MPI_Allreduce");
    /* in place */
    memcpy(out, in, sizeof in);
    MPI_Allreduce(MPI_IN_PLACE, out, NM, mat, op, MPI_COMM_WORLD);
    bad = 0;
    for (int m = 0; m < NM; m++)
        for (int j = 0; j < 4; j++) bad += out[4 * m + j] != ex[m][j];
    CHECK(bad == 0, "matrix product by MPI_Allreduce with MPI_IN_PLACE");
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
}

/* a non-contiguous datatype: the function sees the data as the type lays
 * it out, and the gaps of the root's buffer stay untouched */
static void with_gaps(void)
{
    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v); /* ints 0 and 2, extent 3 ints */
    MPI_Type_commit(&v);
    expected_type = v;
    MPI_Op op;
    MPI_Op_create(affine, 0, &op);
    enum { NE = 4 };
    int in[NE * 3], out[NE * 3];
    long long ea[NE], eb[NE];
    for (int e = 0; e < NE; e++) {
        in[3 * e] = 1 + (rank + e) % 4;
        in[3 * e + 1] = -77;
        in[3 * e + 2] = rank * 3 + e;
        ea[e] = 1 + e % 4, eb[e] = e; /* rank 0's map, then compose with the others' on the right */
        for (int r = 1; r < size; r++) {
            long long a = 1 + (r + e) % 4, b = r * 3 + e; /* f0(...f_r(x)): x -> ea (a x + b) + eb */
            eb[e] = (ea[e] * b + eb[e]) % P;
            ea[e] = (ea[e] * a) % P;
        }
    }
    int root = size > 1 ? 1 : 0;
    for (int i = 0; i < NE * 3; i++) out[i] = -5;
    MPI_Reduce(in, out, NE, v, op, root, MPI_COMM_WORLD);
    if (rank == root) {
        int bad = 0;
        for (int e = 0; e < NE; e++) bad += out[3 * e] != ea[e] || out[3 * e + 2] != eb[e] || out[3 * e + 1] != -5;
        char msg[120];
        snprintf(msg, sizeof msg, "affine maps on a vector type by MPI_Reduce: %d wrong", bad);
        CHECK(bad == 0, "%s", msg);
    }
    for (int i = 0; i < NE * 3; i++) out[i] = -5;
    MPI_Allreduce(in, out, NE, v, op, MPI_COMM_WORLD);
    int bad = 0;
    for (int e = 0; e < NE; e++) bad += out[3 * e] != ea[e] || out[3 * e + 2] != eb[e] || out[3 * e + 1] != -5;
    CHECK(bad == 0, "affine maps on a vector type by MPI_Allreduce");
    MPI_Op_free(&op);
    MPI_Type_free(&v);
}

/* handles are reused after MPI_Op_free */
static void many_ops(void)
{
    MPI_Op ops[20];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 20; i++) MPI_Op_create(i % 2 ? add_ints : mat_mul, i % 2, &ops[i]);
        int ok = 1;
        for (int i = 0; i < 20; i++) {
            int c;
            MPI_Op_commutative(ops[i], &c);
            ok &= c == i % 2;
        }
        CHECK(ok, "MPI_Op_commutative of 20 user ops");
        for (int i = 0; i < 20; i++) MPI_Op_free(&ops[i]);
    }
    MPI_Op op;
    MPI_Op_create(add_ints, 1, &op);
    int x = 1, y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, op, MPI_COMM_WORLD);
    CHECK(y == size, "a user op made after others were freed");
    MPI_Op_free(&op);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    commutative_sum();
    matrices();
    with_gaps();
    many_ops();
    CHECK(wrong_type_calls == 0, "user functions get the reduction's datatype handle");
    return mt_finish();
}
