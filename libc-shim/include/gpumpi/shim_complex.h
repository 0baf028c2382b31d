/* C99 complex numbers for converted code. nvcc has no _Complex in device
 * code, so the converter (converter/rewrite_float_types.c) writes
 * `double complex` as gp_cdouble, `float complex` as gp_cfloat and
 * `long double complex` as gp_cldouble (of gp_ldouble): the class below, laid out {re, im}
 * as C's types are (MPI_C_DOUBLE_COMPLEX moves them as they are).
 *
 * C's semantics through C++ operators:
 *   - + - * / == != between complex and real (any arithmetic type) in any
 *     order, with C's usual arithmetic conversions (float complex with
 *     double gives double complex, with an int stays float complex);
 *     a real operand is not made complex first (2.0 * z is (2x, 2y), as gcc
 *     computes it), * and / recover infinities as C's Annex G says;
 *   - real -> complex implicitly; complex -> real (the real part) in casts
 *     and implicitly in assignments, arguments and returns; complex -> bool
 *     is z != 0 (both parts);
 *   - x op= z for a real x: x = (type of x)(x op z).
 * Every operator is constexpr, so `double complex z = 1.0 + 2.0 * I;` is a
 * constant initializer as in C (a __device__ variable needs one).
 * `c ? z : 1.0` (a complex and a real arm) would be ambiguous in C++: the
 * converter casts the real arm (rewrite_casts.c). */
#ifndef GPUMPI_SHIM_COMPLEX_H
#define GPUMPI_SHIM_COMPLEX_H

#include "gpumpi/platform.h"

/* real types and their rank in C's conversions: integers 0, float 1,
 * double 2, long double 3; -1 for everything else */
template <class T> struct gp_real_rank { static constexpr int value = -1; };
#define GP_REAL_RANK(T, r) \
    template <> struct gp_real_rank<T> { static constexpr int value = r; };
GP_REAL_RANK(bool, 0)
GP_REAL_RANK(char, 0)
GP_REAL_RANK(signed char, 0)
GP_REAL_RANK(unsigned char, 0)
GP_REAL_RANK(short, 0)
GP_REAL_RANK(unsigned short, 0)
GP_REAL_RANK(int, 0)
GP_REAL_RANK(unsigned, 0)
GP_REAL_RANK(long, 0)
GP_REAL_RANK(unsigned long, 0)
GP_REAL_RANK(long long, 0)
GP_REAL_RANK(unsigned long long, 0)
GP_REAL_RANK(wchar_t, 0)
GP_REAL_RANK(char16_t, 0)
GP_REAL_RANK(char32_t, 0)
GP_REAL_RANK(float, 1)
GP_REAL_RANK(double, 2)
GP_REAL_RANK(long double, 3)
#undef GP_REAL_RANK

template <class T> struct gp_is_bool { static constexpr int value = 0; };
template <> struct gp_is_bool<bool> { static constexpr int value = 1; };
template <bool B, class T = void> struct gp_enable_if {};
template <class T> struct gp_enable_if<true, T> { typedef T type; };
#define GP_IF_REAL(T) typename gp_enable_if<(gp_real_rank<T>::value >= 0), int>::type = 0

template <class T> struct gp_complex;
template <class T> struct gp_cx_rank { static constexpr int value = -1; };
template <> struct gp_cx_rank<gp_complex<float> > { static constexpr int value = 1; };
template <> struct gp_cx_rank<gp_complex<double> > { static constexpr int value = 2; };
template <> struct gp_cx_rank<gp_complex<long double> > { static constexpr int value = 3; };

template <int R> struct gp_cx_of;
template <> struct gp_cx_of<1> { typedef float real; };
template <> struct gp_cx_of<2> { typedef double real; };
template <> struct gp_cx_of<3> { typedef gp_ldouble real; }; /* a double on the GPU */

/* for a binary operator on A and B, one of them complex: the result's real type */
template <class A, class B> struct gp_cx_binary {
    static constexpr int ra = gp_real_rank<A>::value >= 0 ? gp_real_rank<A>::value : gp_cx_rank<A>::value;
    static constexpr int rb = gp_real_rank<B>::value >= 0 ? gp_real_rank<B>::value : gp_cx_rank<B>::value;
    static constexpr bool ok = (gp_cx_rank<A>::value > 0 || gp_cx_rank<B>::value > 0) && ra >= 0 && rb >= 0;
    static constexpr int r = ra > rb ? ra : rb;
};
#define GP_CX_RESULT(A, B) \
    typename gp_enable_if<gp_cx_binary<A, B>::ok, gp_complex<typename gp_cx_of<gp_cx_binary<A, B>::r>::real> >::type

template <class T> struct gp_complex {
    T re, im;
    gp_complex() = default;
    GPUMPI_HD constexpr gp_complex(T r, T i) : re(r), im(i) {}
    template <class R, GP_IF_REAL(R)> GPUMPI_HD constexpr gp_complex(R r) : re((T)r), im(0) {}
    template <class U> GPUMPI_HD constexpr gp_complex(const gp_complex<U> &z) : re((T)z.re), im((T)z.im) {}
    /* C takes the real part; to _Bool, z != 0 */
    template <class R, GP_IF_REAL(R)> GPUMPI_HD constexpr operator R() const
    {
        if constexpr (gp_is_bool<R>::value) return re != 0 || im != 0;
        else return (R)re;
    }
    GPUMPI_HD constexpr gp_complex operator+() const { return *this; }
    GPUMPI_HD constexpr gp_complex operator-() const { return gp_complex(-re, -im); }
    template <class B> GPUMPI_HD constexpr gp_complex &operator+=(const B &b);
    template <class B> GPUMPI_HD constexpr gp_complex &operator-=(const B &b);
    template <class B> GPUMPI_HD constexpr gp_complex &operator*=(const B &b);
    template <class B> GPUMPI_HD constexpr gp_complex &operator/=(const B &b);
};

typedef gp_complex<float> gp_cfloat;
typedef gp_complex<double> gp_cdouble;
typedef gp_complex<gp_ldouble> gp_cldouble;

/* parts of an operand in the result's type; a real's imaginary part is absent */
template <class T, class X> GPUMPI_HD constexpr T gp_cx_re(const gp_complex<X> &z) { return (T)z.re; }
template <class T, class X> GPUMPI_HD constexpr T gp_cx_im(const gp_complex<X> &z) { return (T)z.im; }
template <class T, class X, GP_IF_REAL(X)> GPUMPI_HD constexpr T gp_cx_re(X x) { return (T)x; }
template <class T, class X, GP_IF_REAL(X)> GPUMPI_HD constexpr T gp_cx_im(X) { return (T)0; }
template <class X> struct gp_is_cx { static constexpr int value = gp_cx_rank<X>::value > 0; };

/* Annex G: a product or quotient that came out NaN + iNaN may be an infinity
 * or a zero (gcc's __muldc3/__divdc3 do the same); out of line, rarely run */
GPUMPI_HD gp_cdouble gp_cx_mul_recover(double a, double b, double c, double d);
GPUMPI_HD gp_cdouble gp_cx_div(double a, double b, double c, double d);
GPUMPI_HD gp_cdouble gp_cx_div_recover(double a, double b, double c, double d); /* after NaN + iNaN */
GPUMPI_HD gp_cldouble gp_cx_divl(long double a, long double b, long double c, long double d);
GPUMPI_HD gp_cldouble gp_cx_mul_recoverl(long double a, long double b, long double c, long double d);

template <class T> GPUMPI_HD constexpr gp_complex<T> gp_cx_mul(T a, T b, T c, T d)
{
    T x = a * c - b * d, y = a * d + b * c;
    if (x != x && y != y) {
        if constexpr (sizeof(T) > sizeof(double)) return gp_cx_mul_recoverl(a, b, c, d);
        else return gp_complex<T>(gp_cx_mul_recover(a, b, c, d));
    }
    return gp_complex<T>(x, y);
}

template <class A, class B> GPUMPI_HD constexpr GP_CX_RESULT(A, B) operator+(const A &a, const B &b)
{
    typedef typename gp_cx_of<gp_cx_binary<A, B>::r>::real T;
    if constexpr (!gp_is_cx<A>::value) return gp_complex<T>(gp_cx_re<T>(a) + gp_cx_re<T>(b), gp_cx_im<T>(b));
    else if constexpr (!gp_is_cx<B>::value) return gp_complex<T>(gp_cx_re<T>(a) + gp_cx_re<T>(b), gp_cx_im<T>(a));
    else return gp_complex<T>(gp_cx_re<T>(a) + gp_cx_re<T>(b), gp_cx_im<T>(a) + gp_cx_im<T>(b));
}

template <class A, class B> GPUMPI_HD constexpr GP_CX_RESULT(A, B) operator-(const A &a, const B &b)
{
    typedef typename gp_cx_of<gp_cx_binary<A, B>::r>::real T;
    if constexpr (!gp_is_cx<A>::value) return gp_complex<T>(gp_cx_re<T>(a) - gp_cx_re<T>(b), -gp_cx_im<T>(b));
    else if constexpr (!gp_is_cx<B>::value) return gp_complex<T>(gp_cx_re<T>(a) - gp_cx_re<T>(b), gp_cx_im<T>(a));
    else return gp_complex<T>(gp_cx_re<T>(a) - gp_cx_re<T>(b), gp_cx_im<T>(a) - gp_cx_im<T>(b));
}

template <class A, class B> GPUMPI_HD constexpr GP_CX_RESULT(A, B) operator*(const A &a, const B &b)
{
    typedef typename gp_cx_of<gp_cx_binary<A, B>::r>::real T;
    if constexpr (!gp_is_cx<A>::value) return gp_complex<T>(gp_cx_re<T>(a) * gp_cx_re<T>(b), gp_cx_re<T>(a) * gp_cx_im<T>(b));
    else if constexpr (!gp_is_cx<B>::value) return gp_complex<T>(gp_cx_re<T>(a) * gp_cx_re<T>(b), gp_cx_im<T>(a) * gp_cx_re<T>(b));
    else return gp_cx_mul<T>(gp_cx_re<T>(a), gp_cx_im<T>(a), gp_cx_re<T>(b), gp_cx_im<T>(b));
}

template <class A, class B> GPUMPI_HD constexpr GP_CX_RESULT(A, B) operator/(const A &a, const B &b)
{
    typedef typename gp_cx_of<gp_cx_binary<A, B>::r>::real T;
    if constexpr (!gp_is_cx<B>::value) return gp_complex<T>(gp_cx_re<T>(a) / gp_cx_re<T>(b), gp_cx_im<T>(a) / gp_cx_re<T>(b));
    else if constexpr (sizeof(T) == sizeof(float)) {
        /* float: in double, where the plain formula neither overflows nor
         * underflows (gcc's __divsc3 does the same) */
        double a_re = gp_cx_re<T>(a), a_im = gp_cx_im<T>(a), c = gp_cx_re<T>(b), d = gp_cx_im<T>(b);
        double den = c * c + d * d;
        double x = (a_re * c + a_im * d) / den, y = (a_im * c - a_re * d) / den;
        if (x != x && y != y) return gp_complex<T>(gp_cx_div_recover(a_re, a_im, c, d));
        return gp_complex<T>((float)x, (float)y);
    } else if constexpr (sizeof(T) > sizeof(double))
        return gp_cx_divl(gp_cx_re<T>(a), gp_cx_im<T>(a), gp_cx_re<T>(b), gp_cx_im<T>(b));
    else
        return gp_cx_div(gp_cx_re<T>(a), gp_cx_im<T>(a), gp_cx_re<T>(b), gp_cx_im<T>(b));
}

template <class A, class B>
GPUMPI_HD constexpr typename gp_enable_if<gp_cx_binary<A, B>::ok, bool>::type operator==(const A &a, const B &b)
{
    typedef typename gp_cx_of<gp_cx_binary<A, B>::r>::real T;
    return gp_cx_re<T>(a) == gp_cx_re<T>(b) && gp_cx_im<T>(a) == gp_cx_im<T>(b);
}
template <class A, class B>
GPUMPI_HD constexpr typename gp_enable_if<gp_cx_binary<A, B>::ok, bool>::type operator!=(const A &a, const B &b)
{
    return !(a == b);
}

template <class T> template <class B> GPUMPI_HD constexpr gp_complex<T> &gp_complex<T>::operator+=(const B &b)
{
    return *this = gp_complex<T>(*this + b);
}
template <class T> template <class B> GPUMPI_HD constexpr gp_complex<T> &gp_complex<T>::operator-=(const B &b)
{
    return *this = gp_complex<T>(*this - b);
}
template <class T> template <class B> GPUMPI_HD constexpr gp_complex<T> &gp_complex<T>::operator*=(const B &b)
{
    return *this = gp_complex<T>(*this * b);
}
template <class T> template <class B> GPUMPI_HD constexpr gp_complex<T> &gp_complex<T>::operator/=(const B &b)
{
    return *this = gp_complex<T>(*this / b);
}

/* a real on the left, a complex on the right: x = (type of x)(x op z) */
#define GP_CX_REAL_ASSIGN(op)                                                                      \
    template <class R, class X, GP_IF_REAL(R)> GPUMPI_HD constexpr R &operator op##=(R &x, const gp_complex<X> &z) \
    {                                                                                              \
        return x = (R)(x op z);                                                                    \
    }
GP_CX_REAL_ASSIGN(+)
GP_CX_REAL_ASSIGN(-)
GP_CX_REAL_ASSIGN(*)
GP_CX_REAL_ASSIGN(/)
#undef GP_CX_REAL_ASSIGN

/* <complex.h>'s functions */
GPUMPI_HD constexpr double gp_creal(gp_cdouble z) { return z.re; }
GPUMPI_HD constexpr double gp_cimag(gp_cdouble z) { return z.im; }
GPUMPI_HD constexpr gp_cdouble gp_conj(gp_cdouble z) { return gp_cdouble(z.re, -z.im); }
GPUMPI_HD constexpr float gp_crealf(gp_cfloat z) { return z.re; }
GPUMPI_HD constexpr float gp_cimagf(gp_cfloat z) { return z.im; }
GPUMPI_HD constexpr gp_cfloat gp_conjf(gp_cfloat z) { return gp_cfloat(z.re, -z.im); }
GPUMPI_HD constexpr long double gp_creall(gp_cldouble z) { return z.re; }
GPUMPI_HD constexpr long double gp_cimagl(gp_cldouble z) { return z.im; }
GPUMPI_HD constexpr gp_cldouble gp_conjl(gp_cldouble z) { return gp_cldouble(z.re, -z.im); }


GPUMPI_FN double gp_cabs(gp_cdouble z);
GPUMPI_FN double gp_carg(gp_cdouble z);
GPUMPI_FN float gp_cabsf(gp_cfloat z);
GPUMPI_FN float gp_cargf(gp_cfloat z);
GPUMPI_FN long double gp_cabsl(gp_cldouble z);
GPUMPI_FN long double gp_cargl(gp_cldouble z);
GPUMPI_FN gp_cdouble gp_cpow(gp_cdouble z, gp_cdouble w);
GPUMPI_FN gp_cfloat gp_cpowf(gp_cfloat z, gp_cfloat w);
GPUMPI_FN gp_cldouble gp_cpowl(gp_cldouble z, gp_cldouble w);

/* the functions from complex to complex, in double, float and long double */
#define GP_CX_FUNCTIONS(X) \
    X(cproj) X(cexp) X(clog) X(csqrt) X(csin) X(ccos) X(ctan) X(casin) X(cacos) X(catan) \
    X(csinh) X(ccosh) X(ctanh) X(casinh) X(cacosh) X(catanh)
#define GP_CX_DECLARE(name)                       \
    GPUMPI_FN gp_cdouble gp_##name(gp_cdouble z); \
    GPUMPI_FN gp_cfloat gp_##name##f(gp_cfloat z); \
    GPUMPI_FN gp_cldouble gp_##name##l(gp_cldouble z);
GP_CX_FUNCTIONS(GP_CX_DECLARE)
#undef GP_CX_DECLARE

#endif
