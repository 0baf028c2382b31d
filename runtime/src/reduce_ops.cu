/* The predefined reduction operations on packed data, for every type the
 * standard defines them on: MAX, MIN, SUM, PROD on integers and floating
 * point; SUM, PROD on complex; logical ops on integers, MPI_C_BOOL and
 * (as MPICH) floating point;
 * bitwise ops on integers and MPI_BYTE; MAXLOC, MINLOC on the
 * value-index pairs. A derived type made of one basic type reduces as the
 * packed array of that type. Anything else is MPI_ERR_OP. */
#include "datatype.h"
#include "reduce_inline.h"
#include "gpumpi/shim_string.h"

/* One function applying op elementwise to arrays of T; CASES are the
 * switch's cases for the operations T has (anything else is MPI_ERR_OP). */
#define GP_ELEMENTWISE_OPS(NAME, T, CASES)                                                   \
    GPUMPI_FN static int NAME(MPI_Op op, const void *in, void *inout, MPI_Aint n)            \
    {                                                                                        \
        const T *a = (const T *)in;                                                          \
        T *b = (T *)inout;                                                                   \
        switch (op) {                                                                        \
            CASES                                                                            \
        default: return MPI_ERR_OP;                                                          \
        }                                                                                    \
        return MPI_SUCCESS;                                                                  \
    }

/* C's truth: nonzero is true; the result is 1 or 0. */
#define GP_LOGICAL_CASES(T)                                                                  \
    case MPI_LAND: GP_EACH b[i] = (T)(a[i] && b[i]); break;                                  \
    case MPI_LOR: GP_EACH b[i] = (T)(a[i] || b[i]); break;                                   \
    case MPI_LXOR: GP_EACH b[i] = (T)(!a[i] != !b[i]); break;
/* Integers: every operation but MAXLOC, MINLOC. */
#define GP_INTEGER_CASES(T)                                                                  \
    GP_ARITH_CASES(T)                                                                        \
    GP_LOGICAL_CASES(T)                                                                      \
    case MPI_BAND: GP_EACH b[i] = (T)(a[i] & b[i]); break;                                   \
    case MPI_BOR: GP_EACH b[i] = (T)(a[i] | b[i]); break;                                    \
    case MPI_BXOR: GP_EACH b[i] = (T)(a[i] ^ b[i]); break;
#define GP_INTEGER_OPS(NAME, T) GP_ELEMENTWISE_OPS(NAME, T, GP_INTEGER_CASES(T))
/* Floating point: the logical operations too, which the standard defines
 * on integers only but MPICH takes on floating types (programs use them:
 * MPICH's coll/oplxor does). */
#define GP_FLOATING_OPS(NAME, T) GP_ELEMENTWISE_OPS(NAME, T, GP_ARITH_CASES(T) GP_LOGICAL_CASES(T))

/* C's T _Complex is laid out as T[2]: real, imaginary. */
#define GP_COMPLEX_CASES(T)                                                                  \
    case MPI_SUM:                                                                            \
        GP_EACH {                                                                            \
            b[2 * i] = a[2 * i] + b[2 * i];                                                  \
            b[2 * i + 1] = a[2 * i + 1] + b[2 * i + 1];                                      \
        }                                                                                    \
        break;                                                                               \
    case MPI_PROD:                                                                           \
        GP_EACH {                                                                            \
            T re = a[2 * i] * b[2 * i] - a[2 * i + 1] * b[2 * i + 1];                        \
            T im = a[2 * i] * b[2 * i + 1] + a[2 * i + 1] * b[2 * i];                        \
            b[2 * i] = re;                                                                   \
            b[2 * i + 1] = im;                                                               \
        }                                                                                    \
        break;
#define GP_COMPLEX_OPS(NAME, T) GP_ELEMENTWISE_OPS(NAME, T, GP_COMPLEX_CASES(T))

/* Packed {T v; I i;} pairs: the value, then the index (int in C's pairs,
 * T in Fortran's), no padding, so possibly unaligned: read and written
 * through copies. Ties keep the smaller index, as the standard says. */
#define GP_PAIR_OPS(NAME, T, I)                                                                  \
    GPUMPI_FN static int NAME(MPI_Op op, const void *in, void *inout, MPI_Aint n)                \
    {                                                                                            \
        const size_t vs = sizeof(T), step = sizeof(T) + sizeof(I);                               \
        int max;                                                                                 \
        if (op == MPI_MAXLOC)                                                                    \
            max = 1;                                                                             \
        else if (op == MPI_MINLOC)                                                               \
            max = 0;                                                                             \
        else                                                                                     \
            return MPI_ERR_OP;                                                                   \
        GP_EACH {                                                                                \
            const char *pa = (const char *)in + (size_t)i * step;                                \
            char *pb = (char *)inout + (size_t)i * step;                                         \
            T va, vb;                                                                            \
            I ia, ib;                                                                            \
            gp_memcpy(&va, pa, vs);                                                              \
            gp_memcpy(&vb, pb, vs);                                                              \
            gp_memcpy(&ia, pa + vs, sizeof(I));                                                  \
            gp_memcpy(&ib, pb + vs, sizeof(I));                                                  \
            if (max ? va > vb : va < vb)                                                         \
                gp_memcpy(pb, pa, step);                                                         \
            else if (va == vb && ia < ib)                                                        \
                gp_memcpy(pb + vs, &ia, sizeof(I));                                              \
        }                                                                                        \
        return MPI_SUCCESS;                                                                      \
    }

typedef signed char gp_schar;
typedef unsigned char gp_uchar;
typedef unsigned short gp_ushort;
typedef unsigned long gp_ulong;
typedef long long gp_llong;
typedef unsigned long long gp_ullong;

GP_INTEGER_OPS(gp_ops_schar, gp_schar)
GP_INTEGER_OPS(gp_ops_uchar, gp_uchar)
GP_INTEGER_OPS(gp_ops_short, short)
GP_INTEGER_OPS(gp_ops_ushort, gp_ushort)
GP_INTEGER_OPS(gp_ops_int, int)
GP_INTEGER_OPS(gp_ops_uint, unsigned)
GP_INTEGER_OPS(gp_ops_long, long)
GP_INTEGER_OPS(gp_ops_ulong, gp_ulong)
GP_INTEGER_OPS(gp_ops_llong, gp_llong)
GP_INTEGER_OPS(gp_ops_ullong, gp_ullong)
GP_FLOATING_OPS(gp_ops_float, float)
GP_FLOATING_OPS(gp_ops_double, double)
GP_FLOATING_OPS(gp_ops_ldouble, gp_ldouble)
GP_COMPLEX_OPS(gp_ops_cfloat, float)
GP_COMPLEX_OPS(gp_ops_cdouble, double)
GP_COMPLEX_OPS(gp_ops_cldouble, gp_ldouble)
GP_PAIR_OPS(gp_ops_float_int, float, int)
GP_PAIR_OPS(gp_ops_double_int, double, int)
GP_PAIR_OPS(gp_ops_long_int, long, int)
GP_PAIR_OPS(gp_ops_2int, int, int)
GP_PAIR_OPS(gp_ops_short_int, short, int)
GP_PAIR_OPS(gp_ops_ldouble_int, gp_ldouble, int)
GP_PAIR_OPS(gp_ops_2float, float, float)
GP_PAIR_OPS(gp_ops_2double, double, double)

GPUMPI_FN static int gp_is_bitwise(MPI_Op op) { return op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR; }
GPUMPI_FN static int gp_is_logical(MPI_Op op) { return op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR; }

/* n packed elements of basic type t */
GPUMPI_FN static int gp_reduce_basic(MPI_Op op, MPI_Datatype t, const void *in, void *inout, MPI_Aint n)
{
    switch (t) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_INT8_T: return gp_ops_schar(op, in, inout, n);
    case MPI_UNSIGNED_CHAR: case MPI_UINT8_T: return gp_ops_uchar(op, in, inout, n);
    case MPI_BYTE: return gp_is_bitwise(op) ? gp_ops_uchar(op, in, inout, n) : MPI_ERR_OP;
    case MPI_C_BOOL: return gp_is_logical(op) ? gp_ops_uchar(op, in, inout, n) : MPI_ERR_OP;
    case MPI_SHORT: case MPI_INT16_T: return gp_ops_short(op, in, inout, n);
    case MPI_UNSIGNED_SHORT: case MPI_UINT16_T: return gp_ops_ushort(op, in, inout, n);
    case MPI_INT: case MPI_INT32_T: return gp_ops_int(op, in, inout, n);
    case MPI_WCHAR: return sizeof(wchar_t) == 4 ? gp_ops_int(op, in, inout, n) : gp_ops_ushort(op, in, inout, n);
    case MPI_UNSIGNED: case MPI_UINT32_T: return gp_ops_uint(op, in, inout, n);
    case MPI_LONG: case MPI_AINT: return gp_ops_long(op, in, inout, n);
    case MPI_UNSIGNED_LONG: return gp_ops_ulong(op, in, inout, n);
    case MPI_LONG_LONG_INT: case MPI_INT64_T: case MPI_OFFSET: case MPI_COUNT: return gp_ops_llong(op, in, inout, n);
    case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T: return gp_ops_ullong(op, in, inout, n);
    case MPI_FLOAT: return gp_ops_float(op, in, inout, n);
    case MPI_DOUBLE: return gp_ops_double(op, in, inout, n);
    case MPI_LONG_DOUBLE: return gp_ops_ldouble(op, in, inout, n);
    case MPI_C_FLOAT_COMPLEX: return gp_ops_cfloat(op, in, inout, n);
    case MPI_C_DOUBLE_COMPLEX: return gp_ops_cdouble(op, in, inout, n);
    case MPI_C_LONG_DOUBLE_COMPLEX: return gp_ops_cldouble(op, in, inout, n);
    case MPI_FLOAT_INT: return gp_ops_float_int(op, in, inout, n);
    case MPI_DOUBLE_INT: return gp_ops_double_int(op, in, inout, n);
    case MPI_LONG_INT: return gp_ops_long_int(op, in, inout, n);
    case MPI_2INT: return gp_ops_2int(op, in, inout, n);
    case MPI_SHORT_INT: return gp_ops_short_int(op, in, inout, n);
    case MPI_LONG_DOUBLE_INT: return gp_ops_ldouble_int(op, in, inout, n);
    /* Fortran's types, as the standard groups them: integers, logical
     * (LAND, LOR, LXOR only), reals, complex, pairs; MPI_CHARACTER has none */
    case MPI_INTEGER1: return gp_ops_schar(op, in, inout, n);
    case MPI_INTEGER2: return gp_ops_short(op, in, inout, n);
    case MPI_INTEGER: case MPI_INTEGER4: return gp_ops_int(op, in, inout, n);
    case MPI_INTEGER8: return gp_ops_llong(op, in, inout, n);
    case MPI_LOGICAL: return gp_is_logical(op) ? gp_ops_int(op, in, inout, n) : MPI_ERR_OP;
    case MPI_REAL: case MPI_REAL4: return gp_ops_float(op, in, inout, n);
    case MPI_DOUBLE_PRECISION: case MPI_REAL8: return gp_ops_double(op, in, inout, n);
    case MPI_COMPLEX: case MPI_COMPLEX8: case MPI_CXX_FLOAT_COMPLEX: return gp_ops_cfloat(op, in, inout, n);
    case MPI_DOUBLE_COMPLEX: case MPI_COMPLEX16: case MPI_CXX_DOUBLE_COMPLEX: return gp_ops_cdouble(op, in, inout, n);
    case MPI_CXX_LONG_DOUBLE_COMPLEX: return gp_ops_cldouble(op, in, inout, n);
    case MPI_CXX_BOOL: return gp_is_logical(op) ? gp_ops_uchar(op, in, inout, n) : MPI_ERR_OP;
    case MPI_2INTEGER: return gp_ops_2int(op, in, inout, n);
    case MPI_2REAL: return gp_ops_2float(op, in, inout, n);
    case MPI_2DOUBLE_PRECISION: return gp_ops_2double(op, in, inout, n);
    default: return MPI_ERR_OP; /* MPI_PACKED, or a derived type of mixed basic types */
    }
}

GPUMPI_FN int gp_reduce_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count)
{
    if (op >= GP_FIRST_USER_OP) return gp_user_op_apply(op, t, in, inout, count);
    if (op <= MPI_OP_NULL || op > MPI_NO_OP) return MPI_ERR_OP;
    const gp_tobj *o = gp_tobj_of(t);
    if (!o) return MPI_ERR_TYPE;
    if (op == MPI_NO_OP) return MPI_SUCCESS;
    if (op == MPI_REPLACE) {
        if (count > 0) gp_memcpy(inout, in, (size_t)count * (size_t)o->size);
        return MPI_SUCCESS;
    }
    const gp_tobj *b = gp_tobj_of(o->basic);
    if (!b) return MPI_ERR_OP;
    MPI_Aint n = count > 0 && b->size > 0 ? (MPI_Aint)count * (o->size / b->size) : 0;
    return gp_reduce_basic(op, o->basic, in, inout, n);
}

GPUMPI_FN int gp_op_commutative(MPI_Op op)
{
    int c = gp_user_op_commutative(op);
    return c < 0 ? 1 : c; /* every predefined operation is */
}

GPUMPI_FN static const char *gp_op_name(MPI_Op op)
{
    switch (op) {
    case MPI_MAX: return "MPI_MAX";
    case MPI_MIN: return "MPI_MIN";
    case MPI_SUM: return "MPI_SUM";
    case MPI_PROD: return "MPI_PROD";
    case MPI_LAND: return "MPI_LAND";
    case MPI_BAND: return "MPI_BAND";
    case MPI_LOR: return "MPI_LOR";
    case MPI_BOR: return "MPI_BOR";
    case MPI_LXOR: return "MPI_LXOR";
    case MPI_BXOR: return "MPI_BXOR";
    case MPI_MAXLOC: return "MPI_MAXLOC";
    case MPI_MINLOC: return "MPI_MINLOC";
    case MPI_REPLACE: return "MPI_REPLACE";
    case MPI_NO_OP: return "MPI_NO_OP";
    default: return "a user operation";
    }
}

GPUMPI_FN int gp_op_check(MPI_Comm comm, const char *fn, MPI_Op op, MPI_Datatype t)
{
    char none[1] = {0};
    if (gp_reduce_apply(op, t, none, none, 0) == MPI_SUCCESS) return MPI_SUCCESS;
    if ((op <= MPI_OP_NULL || op > MPI_NO_OP) && gp_user_op_commutative(op) < 0)
        return gp_err(comm, fn, MPI_ERR_OP, "invalid operation %d", (int)op);
    const char *tname = 0;
    if (gp_predef_name(t, &tname))
        return gp_err(comm, fn, MPI_ERR_OP, "%s is not defined for %s", gp_op_name(op), tname);
    return gp_err(comm, fn, MPI_ERR_OP, "%s is not defined for datatype %d (predefined operations need a type made "
                  "of one basic type)", gp_op_name(op), (int)t);
}
