/* <math.h> for converted code: the host header serves the device as is
 * (CUDA provides the device versions of its functions), but for the
 * one-argument functions called with an integer (sqrt(n), floor(i),
 * log2(size)): C converts the argument to double, and libstdc++ answers
 * with constexpr host templates calling __builtin_floor and the like, which
 * nvcc refuses in device code. So on the GPU each such function gets a
 * device overload for every integer type that converts and calls the
 * double version; overload resolution prefers it to the template. The
 * two-argument ones (fmod(x, u64), pow(2, 3)) convert and call the double
 * version already (with gpumpicc's --expt-relaxed-constexpr). */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_MATH_H_CUH
#define GPUMPI_MATH_H_CUH
#if defined(__CUDACC__)
#define GP_MATH_INT_ARG(fn, ret, T) \
    __device__ inline ret fn(T x) { return fn((double)x); }
#define GP_MATH_INT_ARGS(fn, ret)                                                                                  \
    GP_MATH_INT_ARG(fn, ret, bool) GP_MATH_INT_ARG(fn, ret, char) GP_MATH_INT_ARG(fn, ret, signed char)           \
    GP_MATH_INT_ARG(fn, ret, unsigned char) GP_MATH_INT_ARG(fn, ret, short)                                       \
    GP_MATH_INT_ARG(fn, ret, unsigned short) GP_MATH_INT_ARG(fn, ret, int) GP_MATH_INT_ARG(fn, ret, unsigned)    \
    GP_MATH_INT_ARG(fn, ret, long) GP_MATH_INT_ARG(fn, ret, unsigned long) GP_MATH_INT_ARG(fn, ret, long long)   \
    GP_MATH_INT_ARG(fn, ret, unsigned long long)
GP_MATH_INT_ARGS(acos, double) GP_MATH_INT_ARGS(asin, double) GP_MATH_INT_ARGS(atan, double)
GP_MATH_INT_ARGS(ceil, double) GP_MATH_INT_ARGS(cos, double) GP_MATH_INT_ARGS(cosh, double)
GP_MATH_INT_ARGS(exp, double) GP_MATH_INT_ARGS(fabs, double) GP_MATH_INT_ARGS(floor, double)
GP_MATH_INT_ARGS(log, double) GP_MATH_INT_ARGS(log10, double) GP_MATH_INT_ARGS(sin, double)
GP_MATH_INT_ARGS(sinh, double) GP_MATH_INT_ARGS(sqrt, double) GP_MATH_INT_ARGS(tan, double)
GP_MATH_INT_ARGS(tanh, double) GP_MATH_INT_ARGS(acosh, double) GP_MATH_INT_ARGS(asinh, double)
GP_MATH_INT_ARGS(atanh, double) GP_MATH_INT_ARGS(cbrt, double) GP_MATH_INT_ARGS(erf, double)
GP_MATH_INT_ARGS(erfc, double) GP_MATH_INT_ARGS(exp2, double) GP_MATH_INT_ARGS(expm1, double)
GP_MATH_INT_ARGS(lgamma, double) GP_MATH_INT_ARGS(log1p, double) GP_MATH_INT_ARGS(log2, double)
GP_MATH_INT_ARGS(logb, double) GP_MATH_INT_ARGS(nearbyint, double) GP_MATH_INT_ARGS(rint, double)
GP_MATH_INT_ARGS(round, double) GP_MATH_INT_ARGS(tgamma, double) GP_MATH_INT_ARGS(trunc, double)
GP_MATH_INT_ARGS(ilogb, int) GP_MATH_INT_ARGS(lrint, long) GP_MATH_INT_ARGS(lround, long)
GP_MATH_INT_ARGS(llrint, long long) GP_MATH_INT_ARGS(llround, long long)
#undef GP_MATH_INT_ARGS
#undef GP_MATH_INT_ARG
#endif
#endif
