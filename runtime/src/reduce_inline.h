/* The arithmetic reductions, written once: reduce_ops.cu applies them to
 * every type, and gp_reduce_inline applies the commonest ones (MAX, MIN,
 * SUM and PROD on double, float, int or long) without a call
 * into reduce_ops.cu. The on-chip collectives combine at every step of a
 * warp's pairing and at every tree node, and with relocatable device code
 * a call into another file is never inlined (runtime.h). */
#ifndef GPUMPI_REDUCE_INLINE_H
#define GPUMPI_REDUCE_INLINE_H
#include "runtime.h"

#define GP_EACH for (MPI_Aint i = 0; i < n; i++)

/* Integers and floating point: MAX, MIN, SUM, PROD (the cast takes an
 * integer promoted to int back to T; for floating point it changes nothing). */
#define GP_ARITH_CASES(T)                                                                    \
    case MPI_MAX: GP_EACH if (a[i] > b[i]) b[i] = a[i]; break;                               \
    case MPI_MIN: GP_EACH if (a[i] < b[i]) b[i] = a[i]; break;                               \
    case MPI_SUM: GP_EACH b[i] = (T)(a[i] + b[i]); break;                                    \
    case MPI_PROD: GP_EACH b[i] = (T)(a[i] * b[i]); break;

/* The types gp_reduce_known applies MAX, MIN, SUM and PROD to inline. */
#define GP_KNOWN_TYPES(X) X(MPI_DOUBLE, double) X(MPI_FLOAT, float) X(MPI_INT, int) X(MPI_LONG, long)

/* Whether gp_reduce_known applies (op, t) inline. */
GPUMPI_FN static inline int gp_reduce_is_known(MPI_Op op, MPI_Datatype t)
{
#define GP_IS_TYPE(TYPE, T) t == TYPE ||
    return op >= MPI_MAX && op <= MPI_PROD && (GP_KNOWN_TYPES(GP_IS_TYPE) 0);
#undef GP_IS_TYPE
}

/* inout = in op inout for packed elements of basic type t, if
 * gp_reduce_is_known(op, t): 1; else 0, and nothing done (no call). */
GPUMPI_FN static inline int gp_reduce_known(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count)
{
#define GP_INLINE_TYPE(TYPE, T)                                                                  \
    if (t == TYPE && op >= MPI_MAX && op <= MPI_PROD) {                                          \
        const T *a = (const T *)in;                                                              \
        T *b = (T *)inout;                                                                       \
        MPI_Aint n = count;                                                                      \
        switch (op) { GP_ARITH_CASES(T) }                                                        \
        return 1;                                                                                \
    }
    GP_KNOWN_TYPES(GP_INLINE_TYPE)
#undef GP_INLINE_TYPE
    return 0;
}

/* inout = in op inout for packed elements of basic type t, as gp_reduce_apply. */
GPUMPI_FN static inline int gp_reduce_inline(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count)
{
    if (gp_reduce_known(op, t, in, inout, count)) return MPI_SUCCESS;
    return gp_reduce_apply(op, t, in, inout, count);
}

#endif
