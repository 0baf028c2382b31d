/* The predefined reduction operations on every type they apply to,
 * checked by themselves: prints "No Errors" when every check passed on
 * every rank (MPICH's test convention), else one line per failed check.
 * Each (operation, type) pair goes through MPI_Allreduce or MPI_Reduce,
 * the expected result computed here from every rank's contribution (exact
 * values only, so the order of combination does not matter). Also
 * MAXLOC/MINLOC ties, logical and bitwise operations, complex SUM/PROD,
 * derived types made of one basic type, and MPI_IN_PLACE. Runs with any
 * number of ranks >= 1. */
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static int root;

enum { N = 5 };

static const char *op_name(MPI_Op op)
{
    if (op == MPI_MAX) return "MPI_MAX";
    if (op == MPI_MIN) return "MPI_MIN";
    if (op == MPI_SUM) return "MPI_SUM";
    if (op == MPI_PROD) return "MPI_PROD";
    if (op == MPI_LAND) return "MPI_LAND";
    if (op == MPI_LOR) return "MPI_LOR";
    if (op == MPI_LXOR) return "MPI_LXOR";
    if (op == MPI_BAND) return "MPI_BAND";
    if (op == MPI_BOR) return "MPI_BOR";
    if (op == MPI_BXOR) return "MPI_BXOR";
    if (op == MPI_MAXLOC) return "MPI_MAXLOC";
    if (op == MPI_MINLOC) return "MPI_MINLOC";
    return "?";
}

static void report(int bad, const char *type, MPI_Op op, const char *how)
{
    char msg[160];
    snprintf(msg, sizeof msg, "%s %s by %s: %d wrong elements", op_name(op), type, how, bad);
    CHECK(bad == 0, "%s", msg);
}

/* ---- integers ---------------------------------------------------------- */

static const MPI_Op int_ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_LOR, MPI_LXOR,
                                 MPI_BAND, MPI_BOR, MPI_BXOR};
/* MPI_AINT, MPI_OFFSET, MPI_COUNT: no logical operations */
static const MPI_Op multi_ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_BAND, MPI_BOR, MPI_BXOR};

/* rank r's element i for op: values that fit an int8_t whatever the
 * number of ranks (sums and products stay small) */
static long long gen_int(MPI_Op op, int r, int i, int sgn)
{
    if (op == MPI_MAX || op == MPI_MIN) return (r * 37 + i * 11) % 101 - (sgn ? 50 : 0);
    if (op == MPI_SUM) return r >= 60 ? 0 : sgn ? (r + i) % 3 - 1 : (r + i) % 2;
    if (op == MPI_PROD) return (r < 40 && r % 7 == 1) ? 2 : (sgn && r == 2 + i) ? -1 : 1;
    if (op == MPI_LAND) return (i == 0 || (r + i) % 5 != 0) ? 3 : 0;
    if (op == MPI_LOR) return r == i ? 2 : 0;
    if (op == MPI_LXOR) return (r * 3 + i) % 4 == 0 ? 5 : 0;
    if (op == MPI_BAND) return 0x7f & ~(1 << ((r + i) % 9));
    if (op == MPI_BOR) return (r + i) % 9 < 7 ? 1 << ((r + i) % 9) : 0;
    return (r * 13 + i) & 0x7f; /* MPI_BXOR */
}

static long long comb_int(MPI_Op op, long long a, long long b)
{
    if (op == MPI_MAX) return a > b ? a : b;
    if (op == MPI_MIN) return a < b ? a : b;
    if (op == MPI_SUM) return a + b;
    if (op == MPI_PROD) return a * b;
    if (op == MPI_LAND) return a && b;
    if (op == MPI_LOR) return a || b;
    if (op == MPI_LXOR) return !a != !b;
    if (op == MPI_BAND) return a & b;
    if (op == MPI_BOR) return a | b;
    return a ^ b;
}

/* Each (operation, type) pair goes through one collective: MPI_Reduce
 * or MPI_Allreduce, alternating by operation, starting with the type's
 * PARITY, so each type and each operation sees both (MPICH, run
 * oversubscribed for the comparison, takes tens of ms per collective). */
#define INT_TEST(NAME, T, MPIT, SGN, OPS, PARITY)                                                  \
    static void NAME(void)                                                                         \
    {                                                                                              \
        T in[N], out[N], ex[N];                                                                    \
        for (int o = 0; o < (int)(sizeof OPS / sizeof OPS[0]); o++) {                              \
            MPI_Op op = OPS[o];                                                                    \
            for (int i = 0; i < N; i++) {                                                          \
                long long e = gen_int(op, 0, i, SGN);                                              \
                for (int r = 1; r < size; r++) e = comb_int(op, gen_int(op, r, i, SGN), e);        \
                in[i] = (T)gen_int(op, rank, i, SGN);                                              \
                ex[i] = (T)e;                                                                      \
                out[i] = (T)99;                                                                    \
            }                                                                                      \
            int bad = 0;                                                                           \
            if ((o + PARITY) % 2) {                                                                \
                MPI_Reduce(in, out, N, MPIT, op, root, MPI_COMM_WORLD);                            \
                for (int i = 0; i < N; i++) bad += rank == root && out[i] != ex[i];                \
                report(bad, #MPIT, op, "MPI_Reduce");                                              \
            } else {                                                                               \
                MPI_Allreduce(in, out, N, MPIT, op, MPI_COMM_WORLD);                               \
                for (int i = 0; i < N; i++) bad += out[i] != ex[i];                                \
                report(bad, #MPIT, op, "MPI_Allreduce");                                           \
            }                                                                                      \
        }                                                                                          \
    }

INT_TEST(t_int, int, MPI_INT, 1, int_ops, 1)
INT_TEST(t_unsigned, unsigned, MPI_UNSIGNED, 0, int_ops, 0)
INT_TEST(t_long, long, MPI_LONG, 1, int_ops, 0)
INT_TEST(t_ulong, unsigned long, MPI_UNSIGNED_LONG, 0, int_ops, 1)
INT_TEST(t_llong, long long, MPI_LONG_LONG, 1, int_ops, 0)
INT_TEST(t_ullong, unsigned long long, MPI_UNSIGNED_LONG_LONG, 0, int_ops, 0)
INT_TEST(t_short, short, MPI_SHORT, 1, int_ops, 0)
INT_TEST(t_ushort, unsigned short, MPI_UNSIGNED_SHORT, 0, int_ops, 0)
INT_TEST(t_schar, signed char, MPI_SIGNED_CHAR, 1, int_ops, 1)
INT_TEST(t_uchar, unsigned char, MPI_UNSIGNED_CHAR, 0, int_ops, 0)
INT_TEST(t_int8, int8_t, MPI_INT8_T, 1, int_ops, 0)
INT_TEST(t_int16, int16_t, MPI_INT16_T, 1, int_ops, 1)
INT_TEST(t_int32, int32_t, MPI_INT32_T, 1, int_ops, 0)
INT_TEST(t_int64, int64_t, MPI_INT64_T, 1, int_ops, 0)
INT_TEST(t_uint8, uint8_t, MPI_UINT8_T, 0, int_ops, 0)
INT_TEST(t_uint16, uint16_t, MPI_UINT16_T, 0, int_ops, 0)
INT_TEST(t_uint32, uint32_t, MPI_UINT32_T, 0, int_ops, 0)
INT_TEST(t_uint64, uint64_t, MPI_UINT64_T, 0, int_ops, 1)
INT_TEST(t_aint, MPI_Aint, MPI_AINT, 1, multi_ops, 1)
INT_TEST(t_offset, MPI_Offset, MPI_OFFSET, 1, multi_ops, 0)
INT_TEST(t_count, MPI_Count, MPI_COUNT, 1, multi_ops, 0)

/* MPI_BYTE: bitwise only; MPI_C_BOOL: logical only */
static const MPI_Op bit_ops[] = {MPI_BAND, MPI_BOR, MPI_BXOR};
INT_TEST(t_byte, unsigned char, MPI_BYTE, 0, bit_ops, 1)

static const MPI_Op logical_ops[] = {MPI_LAND, MPI_LOR, MPI_LXOR};

static void t_bool(void)
{
    bool in[N], out[N], ex[N];
    for (int o = 0; o < 3; o++) {
        MPI_Op op = logical_ops[o];
        for (int i = 0; i < N; i++) {
            long long e = gen_int(op, 0, i, 0) != 0;
            for (int r = 1; r < size; r++) e = comb_int(op, gen_int(op, r, i, 0) != 0, e);
            in[i] = gen_int(op, rank, i, 0) != 0;
            ex[i] = e != 0;
        }
        MPI_Allreduce(in, out, N, MPI_C_BOOL, op, MPI_COMM_WORLD);
        int bad = 0;
        for (int i = 0; i < N; i++) bad += out[i] != ex[i];
        report(bad, "MPI_C_BOOL", op, "MPI_Allreduce");
    }
}

/* ---- floating point ------------------------------------------------------ */

static const MPI_Op float_ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};

static double gen_float(MPI_Op op, int r, int i)
{
    if (op == MPI_MAX || op == MPI_MIN) return (r * 37 + i * 11) % 101 - 50 + 0.5;
    if (op == MPI_SUM) return ((r + i) % 8) * 0.25;
    return (r < 40 && r % 7 == 1) ? 2.0 : r == 3 + i ? -0.5 : 1.0; /* MPI_PROD */
}

static double comb_float(MPI_Op op, double a, double b)
{
    if (op == MPI_MAX) return a > b ? a : b;
    if (op == MPI_MIN) return a < b ? a : b;
    if (op == MPI_SUM) return a + b;
    return a * b;
}

#define FLOAT_TEST(NAME, T, MPIT)                                                                  \
    static void NAME(void)                                                                         \
    {                                                                                              \
        T in[N], out[N], ex[N];                                                                    \
        for (int o = 0; o < 4; o++) {                                                              \
            MPI_Op op = float_ops[o];                                                              \
            for (int i = 0; i < N; i++) {                                                          \
                double e = gen_float(op, 0, i);                                                    \
                for (int r = 1; r < size; r++) e = comb_float(op, gen_float(op, r, i), e);         \
                in[i] = (T)gen_float(op, rank, i);                                                 \
                ex[i] = (T)e;                                                                      \
                out[i] = -7;                                                                       \
            }                                                                                      \
            MPI_Allreduce(in, out, N, MPIT, op, MPI_COMM_WORLD);                                   \
            int bad = 0;                                                                           \
            for (int i = 0; i < N; i++) bad += out[i] != ex[i];                                    \
            report(bad, #MPIT, op, "MPI_Allreduce");                                               \
            for (int i = 0; i < N; i++) out[i] = -7;                                               \
            MPI_Reduce(in, out, N, MPIT, op, root, MPI_COMM_WORLD);                                \
            bad = 0;                                                                               \
            for (int i = 0; i < N; i++) bad += rank == root && out[i] != ex[i];                    \
            report(bad, #MPIT, op, "MPI_Reduce");                                                  \
        }                                                                                          \
    }

FLOAT_TEST(t_float, float, MPI_FLOAT)
FLOAT_TEST(t_double, double, MPI_DOUBLE)
FLOAT_TEST(t_ldouble, long double, MPI_LONG_DOUBLE)

/* Logical operations on floating point: outside the standard (integers
 * and logicals only), but MPICH takes them and its coll/oplxor uses LXOR;
 * nonzero is true, the result 1 or 0 (-0.5 and 0.25 are true). MPICH
 * 4.0.2 accepts LAND and LOR too, then fails an assertion in them: those
 * are checked under gpumpi only. */
#ifdef MPICH_VERSION
static const MPI_Op float_logical_ops[] = {MPI_LXOR};
#else
static const MPI_Op float_logical_ops[] = {MPI_LXOR, MPI_LAND, MPI_LOR};
#endif

#define FLOAT_LOGICAL_TEST(NAME, T, MPIT)                                                          \
    static void NAME(void)                                                                         \
    {                                                                                              \
        T in[N], out[N], ex[N];                                                                    \
        for (unsigned o = 0; o < sizeof float_logical_ops / sizeof float_logical_ops[0]; o++) {    \
            MPI_Op op = float_logical_ops[o];                                                      \
            for (int i = 0; i < N; i++) {                                                          \
                long long e = gen_int(op, 0, i, 0) != 0;                                           \
                for (int r = 1; r < size; r++) e = comb_int(op, gen_int(op, r, i, 0) != 0, e);     \
                in[i] = gen_int(op, rank, i, 0) ? (T)(rank % 2 ? -0.5 : 0.25) : (T)0;              \
                ex[i] = size == 1 ? in[i] : (T)(e != 0); /* one rank: no operation applied */     \
                out[i] = -7;                                                                       \
            }                                                                                      \
            MPI_Reduce(in, out, N, MPIT, op, root, MPI_COMM_WORLD);                                \
            int bad = 0;                                                                           \
            for (int i = 0; i < N; i++) bad += rank == root && out[i] != ex[i];                    \
            report(bad, #MPIT, op, "MPI_Reduce");                                                  \
        }                                                                                          \
    }

FLOAT_LOGICAL_TEST(t_float_logical, float, MPI_FLOAT)
FLOAT_LOGICAL_TEST(t_double_logical, double, MPI_DOUBLE)
FLOAT_LOGICAL_TEST(t_ldouble_logical, long double, MPI_LONG_DOUBLE)

/* ---- complex: C lays T _Complex out as {T re, im} ----------------------- */

static const MPI_Op complex_ops[] = {MPI_SUM, MPI_PROD};

static void gen_complex(MPI_Op op, int r, int i, double *re, double *im)
{
    if (op == MPI_SUM) {
        *re = ((r + i) % 4) * 0.5;
        *im = -((r * 3 + i) % 3) * 0.25;
    } else { /* a few factors of i, 2 and 1 + i; the rest 1 */
        *re = 1, *im = 0;
        if (r == 1 + i) *re = 0, *im = 1;
        if (r == 2) *re = 2, *im = 0;
        if (r == 3 + i % 2) *re = 1, *im = 1;
    }
}

#define COMPLEX_TEST(NAME, T, MPIT)                                                                \
    static void NAME(void)                                                                         \
    {                                                                                              \
        struct { T re, im; } in[N], out[N], ex[N];                                                 \
        for (int o = 0; o < 2; o++) {                                                              \
            MPI_Op op = complex_ops[o];                                                            \
            for (int i = 0; i < N; i++) {                                                          \
                double er, ei, ar, ai;                                                             \
                gen_complex(op, 0, i, &er, &ei);                                                   \
                for (int r = 1; r < size; r++) {                                                   \
                    gen_complex(op, r, i, &ar, &ai);                                               \
                    if (op == MPI_SUM) {                                                           \
                        er += ar, ei += ai;                                                        \
                    } else {                                                                       \
                        double pr = ar * er - ai * ei, pi = ar * ei + ai * er;                     \
                        er = pr, ei = pi;                                                          \
                    }                                                                              \
                }                                                                                  \
                gen_complex(op, rank, i, &ar, &ai);                                                \
                in[i].re = (T)ar, in[i].im = (T)ai;                                                \
                ex[i].re = (T)er, ex[i].im = (T)ei;                                                \
            }                                                                                      \
            MPI_Allreduce(in, out, N, MPIT, op, MPI_COMM_WORLD);                                   \
            int bad = 0;                                                                           \
            for (int i = 0; i < N; i++) bad += out[i].re != ex[i].re || out[i].im != ex[i].im;     \
            report(bad, #MPIT, op, "MPI_Allreduce");                                               \
        }                                                                                          \
    }

COMPLEX_TEST(t_cfloat, float, MPI_C_FLOAT_COMPLEX)
COMPLEX_TEST(t_cdouble, double, MPI_C_DOUBLE_COMPLEX)
COMPLEX_TEST(t_cldouble, long double, MPI_C_LONG_DOUBLE_COMPLEX)

/* ---- MAXLOC and MINLOC ---------------------------------------------------- */

/* Many ties; indexes descend with the rank, so a tie must go to the
 * smaller index, not the lower rank. */
static const MPI_Op loc_ops[] = {MPI_MAXLOC, MPI_MINLOC};

static int gen_val(int r, int i) { return (r * 7 + i * 3) % 5; }
static int gen_idx(int r) { return 1000 - r; }

#define PAIR_TEST(NAME, T, MPIT)                                                                   \
    static void NAME(void)                                                                         \
    {                                                                                              \
        struct { T v; int i; } in[N], out[N], ex[N];                                               \
        for (int o = 0; o < 2; o++) {                                                              \
            MPI_Op op = loc_ops[o];                                                                \
            for (int i = 0; i < N; i++) {                                                          \
                int bv = gen_val(0, i), bi = gen_idx(0);                                           \
                for (int r = 1; r < size; r++) {                                                   \
                    int v = gen_val(r, i), x = gen_idx(r);                                         \
                    if ((op == MPI_MAXLOC ? v > bv : v < bv) || (v == bv && x < bi)) bv = v, bi = x;  \
                }                                                                                  \
                in[i].v = (T)gen_val(rank, i), in[i].i = gen_idx(rank);                            \
                ex[i].v = (T)bv, ex[i].i = bi;                                                     \
                out[i].v = (T)-1, out[i].i = -1;                                                   \
            }                                                                                      \
            MPI_Allreduce(in, out, N, MPIT, op, MPI_COMM_WORLD);                                   \
            int bad = 0;                                                                           \
            for (int i = 0; i < N; i++) bad += out[i].v != ex[i].v || out[i].i != ex[i].i;         \
            report(bad, #MPIT, op, "MPI_Allreduce");                                               \
            for (int i = 0; i < N; i++) out[i].v = (T)-1, out[i].i = -1;                           \
            MPI_Reduce(in, out, N, MPIT, op, root, MPI_COMM_WORLD);                                \
            bad = 0;                                                                               \
            for (int i = 0; i < N; i++)                                                            \
                bad += rank == root && (out[i].v != ex[i].v || out[i].i != ex[i].i);               \
            report(bad, #MPIT, op, "MPI_Reduce");                                                  \
        }                                                                                          \
    }

PAIR_TEST(t_float_int, float, MPI_FLOAT_INT)
PAIR_TEST(t_double_int, double, MPI_DOUBLE_INT)
PAIR_TEST(t_long_int, long, MPI_LONG_INT)
PAIR_TEST(t_2int, int, MPI_2INT)
PAIR_TEST(t_short_int, short, MPI_SHORT_INT)
PAIR_TEST(t_ldouble_int, long double, MPI_LONG_DOUBLE_INT)

/* ---- derived types of one basic type; MPI_IN_PLACE ----------------------- */

static void derived(void)
{
#ifdef GPUMPI_NUM_BASIC_TYPES
    /* gpumpi reduces a derived type made of one basic type elementwise;
     * MPICH (as MPI up to 4.1 allows) takes only predefined types */
    char msg[160];
    /* contiguous(3) of double, 2 elements: elementwise */
    MPI_Datatype c3;
    MPI_Type_contiguous(3, MPI_DOUBLE, &c3);
    MPI_Type_commit(&c3);
    double d[6], dout[6];
    for (int i = 0; i < 6; i++) d[i] = rank * 0.5 + i;
    MPI_Allreduce(d, dout, 2, c3, MPI_SUM, MPI_COMM_WORLD);
    int bad = 0;
    for (int i = 0; i < 6; i++) bad += dout[i] != 0.25 * size * (size - 1) + (double)i * size;
    snprintf(msg, sizeof msg, "MPI_SUM of contiguous(3, MPI_DOUBLE): %d wrong", bad);
    CHECK(bad == 0, "%s", msg);
    MPI_Type_free(&c3);

    /* a vector of ints: only the type map's places are reduced and written */
    MPI_Datatype v;
    MPI_Type_vector(3, 1, 2, MPI_INT, &v); /* 0 2 4, extent 5 */
    MPI_Type_commit(&v);
    int a[10], out[10];
    for (int i = 0; i < 10; i++) a[i] = rank + i, out[i] = -5;
    MPI_Reduce(a, out, 2, v, MPI_MAX, root, MPI_COMM_WORLD);
    if (rank == root) {
        bad = 0;
        for (int i = 0; i < 10; i++) {
            int mapped = i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9;
            bad += out[i] != (mapped ? size - 1 + i : -5);
        }
        snprintf(msg, sizeof msg, "MPI_MAX of vector(3,1,2, MPI_INT) by MPI_Reduce: %d wrong", bad);
        CHECK(bad == 0, "%s", msg);
    }
    for (int i = 0; i < 10; i++) out[i] = -5;
    MPI_Allreduce(a, out, 2, v, MPI_SUM, MPI_COMM_WORLD);
    bad = 0;
    for (int i = 0; i < 10; i++) {
        int mapped = i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9;
        bad += out[i] != (mapped ? size * (size - 1) / 2 + i * size : -5);
    }
    snprintf(msg, sizeof msg, "MPI_SUM of vector(3,1,2, MPI_INT) by MPI_Allreduce: %d wrong", bad);
    CHECK(bad == 0, "%s", msg);
    MPI_Type_free(&v);

    /* MAXLOC on a contiguous of pairs */
    MPI_Datatype pairs;
    MPI_Type_contiguous(2, MPI_DOUBLE_INT, &pairs);
    MPI_Type_commit(&pairs);
    struct { double v; int i; } p[2], q[2];
    p[0].v = rank % 3, p[0].i = rank;
    p[1].v = -(rank % 4), p[1].i = rank;
    MPI_Allreduce(p, q, 1, pairs, MPI_MAXLOC, MPI_COMM_WORLD);
    int max0 = size > 2 ? 2 : size - 1, at0 = max0; /* value rank % 3 is largest first at rank max0 */
    CHECK(q[0].v == max0 && q[0].i == at0 && q[1].v == 0 && q[1].i == 0, "MPI_MAXLOC of contiguous(2, MPI_DOUBLE_INT)");
    MPI_Type_free(&pairs);
#endif

    /* MPI_IN_PLACE */
    long x[3] = {rank, 2 * rank, -rank};
    MPI_Allreduce(MPI_IN_PLACE, x, 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    long s = (long)size * (size - 1) / 2;
    CHECK(x[0] == s && x[1] == 2 * s && x[2] == -s, "MPI_Allreduce with MPI_IN_PLACE");

    int commute = -1;
    MPI_Op_commutative(MPI_SUM, &commute);
    CHECK(commute == 1, "MPI_Op_commutative(MPI_SUM)");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    root = size - 1; /* a root other than 0 where there is one */
    t_int(), t_unsigned(), t_long(), t_ulong(), t_llong(), t_ullong(), t_short(), t_ushort(), t_schar(), t_uchar();
    t_int8(), t_int16(), t_int32(), t_int64(), t_uint8(), t_uint16(), t_uint32(), t_uint64();
    t_aint(), t_offset(), t_count(), t_byte(), t_bool();
    t_float(), t_double(), t_ldouble();
    t_float_logical(), t_double_logical(), t_ldouble_logical();
    t_cfloat(), t_cdouble(), t_cldouble();
    t_float_int(), t_double_int(), t_long_int(), t_2int(), t_short_int(), t_ldouble_int();
    derived();
    return mt_finish();
}
