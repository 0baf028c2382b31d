/* Predefined reduction operations on the basic datatypes. */
#include "runtime.h"

#define GP_ARITH(T)                                                             \
    {                                                                           \
        const T *a = (const T *)in;                                             \
        T *b = (T *)inout;                                                      \
        switch (op) {                                                           \
        case MPI_SUM: for (int i = 0; i < count; i++) b[i] = a[i] + b[i]; break;  \
        case MPI_PROD: for (int i = 0; i < count; i++) b[i] = a[i] * b[i]; break; \
        case MPI_MAX: for (int i = 0; i < count; i++) if (a[i] > b[i]) b[i] = a[i]; break; \
        case MPI_MIN: for (int i = 0; i < count; i++) if (a[i] < b[i]) b[i] = a[i]; break; \
        case MPI_LAND: for (int i = 0; i < count; i++) b[i] = (T)(a[i] && b[i]); break; \
        case MPI_LOR: for (int i = 0; i < count; i++) b[i] = (T)(a[i] || b[i]); break; \
        case MPI_LXOR: for (int i = 0; i < count; i++) b[i] = (T)(!a[i] != !b[i]); break; \
        default: goto bitwise_##T;                                              \
        }                                                                       \
        return MPI_SUCCESS;                                                     \
    bitwise_##T:;                                                               \
    }

#define GP_BITWISE(T)                                                           \
    {                                                                           \
        const T *a = (const T *)in;                                             \
        T *b = (T *)inout;                                                      \
        switch (op) {                                                           \
        case MPI_BAND: for (int i = 0; i < count; i++) b[i] = a[i] & b[i]; return MPI_SUCCESS; \
        case MPI_BOR: for (int i = 0; i < count; i++) b[i] = a[i] | b[i]; return MPI_SUCCESS;  \
        case MPI_BXOR: for (int i = 0; i < count; i++) b[i] = a[i] ^ b[i]; return MPI_SUCCESS; \
        default: return MPI_ERR_OP;                                             \
        }                                                                       \
    }

#define GP_INTEGER(T) { GP_ARITH(T) GP_BITWISE(T) }
#define GP_FLOATING(T) { GP_ARITH(T) return MPI_ERR_OP; }

typedef signed char gp_schar;
typedef unsigned char gp_uchar;
typedef unsigned short gp_ushort;
typedef unsigned long gp_ulong;
typedef long long gp_llong;
typedef unsigned long long gp_ullong;

GPUMPI_FN int gp_reduce_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count)
{
    switch (t) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_INT8_T: GP_INTEGER(gp_schar)
    case MPI_UNSIGNED_CHAR: case MPI_BYTE: case MPI_UINT8_T: case MPI_C_BOOL: GP_INTEGER(gp_uchar)
    case MPI_SHORT: case MPI_INT16_T: GP_INTEGER(short)
    case MPI_UNSIGNED_SHORT: case MPI_UINT16_T: GP_INTEGER(gp_ushort)
    case MPI_INT: case MPI_INT32_T: case MPI_WCHAR: GP_INTEGER(int)
    case MPI_UNSIGNED: case MPI_UINT32_T: GP_INTEGER(unsigned)
    case MPI_LONG: GP_INTEGER(long)
    case MPI_UNSIGNED_LONG: GP_INTEGER(gp_ulong)
    case MPI_LONG_LONG_INT: case MPI_INT64_T: GP_INTEGER(gp_llong)
    case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T: GP_INTEGER(gp_ullong)
    case MPI_FLOAT: GP_FLOATING(float)
    case MPI_DOUBLE: GP_FLOATING(double)
    default: return MPI_ERR_TYPE;
    }
}

/* Predefined operations are all commutative (user operations come later). */
GPUMPI_FN int gp_op_commutative(MPI_Op op)
{
    (void)op;
    return 1;
}
