/* Unit test of <complex.h> (libc-shim/src/complex.cu and the operators of
 * gpumpi/shim_complex.h) on the host against glibc and gcc's own complex
 * arithmetic (g++ knows _Complex as an extension): every function on a
 * table of values (special values, branch cuts, |z| near 1, tiny and huge
 * parts) plus seeded random ones, within ULPS units in the last place of
 * each part (NaN must match NaN, infinities and zeros exactly, signs of
 * zeros too), float and double; the operators bit for bit.
 *   complex_test [seed] [random cases] */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumpi/shim_complex.h"

/* glibc's, declared here: g++'s <complex.h> would bring std::complex */
#define GLIBC_DECLARE(name)                                     \
    extern "C" double _Complex name(double _Complex);           \
    extern "C" float _Complex name##f(float _Complex);
GLIBC_DECLARE(cproj) GLIBC_DECLARE(cexp) GLIBC_DECLARE(clog) GLIBC_DECLARE(csqrt) GLIBC_DECLARE(csin)
GLIBC_DECLARE(ccos) GLIBC_DECLARE(ctan) GLIBC_DECLARE(casin) GLIBC_DECLARE(cacos) GLIBC_DECLARE(catan)
GLIBC_DECLARE(csinh) GLIBC_DECLARE(ccosh) GLIBC_DECLARE(ctanh) GLIBC_DECLARE(casinh) GLIBC_DECLARE(cacosh)
GLIBC_DECLARE(catanh)
extern "C" double cabs(double _Complex);
extern "C" double carg(double _Complex);
extern "C" double _Complex cpow(double _Complex, double _Complex);
extern "C" float _Complex cpowf(float _Complex, float _Complex);

/* glibc documents up to 2-3 ulp for most of these, and is off by 5 in places
 * (checked with mpmath: ctanf(-0x1.b40136p+0 + 0x1.e5bbc6p-1 i), ctan(-0x1.0d55103f8f0ep-1
 * + 0x1.c8e80326f09ep+1 i), where ours are right) */
static const double ULPS = 6;
static long cases, failures;

static double ulp_distance(double a, double b) /* a: ours, b: glibc */
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : INFINITY;
    if (a == b) return signbit(a) == signbit(b) ? 0 : INFINITY;
    if (isinf(a) || isinf(b)) return INFINITY;
    int e;
    frexp(b, &e);
    double u = ldexp(1.0, (e - 53 < -1074 ? -1074 : e - 53));
    return fabs(a - b) / u;
}

static double ulp_distance_f(float a, float b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b) ? 0 : INFINITY;
    if (a == b) return signbit(a) == signbit(b) ? 0 : INFINITY;
    if (isinf(a) || isinf(b)) return INFINITY;
    int e;
    frexpf(b, &e);
    double u = ldexp(1.0, (e - 24 < -149 ? -149 : e - 24));
    return fabs((double)a - (double)b) / u;
}

static void check(const char *name, double x, double y, gp_cdouble got, double _Complex want, double tol)
{
    cases++;
    double dr = ulp_distance(got.re, __real__ want), di = ulp_distance(got.im, __imag__ want);
    if (dr > tol || di > tol) {
        if (++failures <= 60)
            printf("%s(%a %+a i): got %.17g %+.17g i, glibc %.17g %+.17g i (%.1f, %.1f ulp)\n", name, x, y, got.re,
                   got.im, __real__ want, __imag__ want, dr, di);
    }
}

static void check_f(const char *name, float x, float y, gp_cfloat got, float _Complex want, double tol)
{
    cases++;
    double dr = ulp_distance_f(got.re, __real__ want), di = ulp_distance_f(got.im, __imag__ want);
    if (dr > tol || di > tol) {
        if (++failures <= 60)
            printf("%sf(%a %+a i): got %.9g %+.9g i, glibc %.9g %+.9g i (%.1f, %.1f ulp)\n", name, x, y, got.re,
                   got.im, __real__ want, __imag__ want, dr, di);
    }
}

static double _Complex mk(double x, double y)
{
    double _Complex z;
    __real__ z = x;
    __imag__ z = y;
    return z;
}

static float _Complex mkf(float x, float y)
{
    float _Complex z;
    __real__ z = x;
    __imag__ z = y;
    return z;
}

static void all_functions(double x, double y)
{
    gp_cdouble z(x, y);
    double _Complex w = mk(x, y);
    gp_cfloat zf((float)x, (float)y);
    float _Complex wf = mkf((float)x, (float)y);
#define ONE(name)                                                           \
    check(#name, x, y, gp_##name(z), name(w), ULPS);                        \
    check_f(#name, (float)x, (float)y, gp_##name##f(zf), name##f(wf), ULPS);
    ONE(cproj) ONE(cexp) ONE(clog) ONE(csqrt) ONE(csin) ONE(ccos) ONE(ctan) ONE(casin) ONE(cacos) ONE(catan)
    ONE(csinh) ONE(ccosh) ONE(ctanh) ONE(casinh) ONE(cacosh) ONE(catanh)
#undef ONE
    check("cabs", x, y, gp_cdouble(gp_cabs(z), 0), mk(cabs(w), 0), ULPS);
    check("carg", x, y, gp_cdouble(gp_carg(z), 0), mk(carg(w), 0), ULPS);
    double lz = log(hypot(x, y));
    if (isfinite(lz) && fabs(lz) < 40) {
        gp_cdouble e(0.5, -0.25);
        /* cpow = cexp(w log z) (as glibc): a part much smaller than the
         * modulus has lost digits in both, so the error is taken relative to
         * the modulus */
        gp_cdouble got = gp_cpow(z, e);
        double _Complex want = cpow(w, mk(0.5, -0.25));
        double err = hypot(got.re - __real__ want, got.im - __imag__ want) / cabs(want);
        cases++;
        if (!(err <= 64 * DBL_EPSILON) && ++failures <= 60)
            printf("cpow(%a %+a i, 0.5 - 0.25 i): got %.17g %+.17g i, glibc %.17g %+.17g i\n", x, y, got.re, got.im,
                   __real__ want, __imag__ want);
    }
}

/* the operators against gcc's complex arithmetic, bit for bit */
static void operators(double a, double b, double c, double d)
{
    gp_cdouble p(a, b), q(c, d);
    double _Complex u = mk(a, b), v = mk(c, d);
    check("+", a, b, p + q, u + v, 0);
    check("-", a, b, p - q, u - v, 0);
    check("*", a, b, p * q, u * v, 0);
    check("/", a, b, p / q, u / v, 0);
    check("real*", a, b, c * p, c * u, 0);
    check("real/", a, b, c / p, c / u, 0);
    check("/real", a, b, p / c, u / c, 0);
    check("real-", a, b, c - p, c - u, 0);
    check("real+", a, b, p + c, u + c, 0);
    gp_cfloat pf((float)a, (float)b), qf((float)c, (float)d);
    float _Complex uf = mkf((float)a, (float)b), vf = mkf((float)c, (float)d);
    check_f("*", (float)a, (float)b, pf * qf, uf * vf, 0);
    check_f("/", (float)a, (float)b, pf / qf, uf / vf, 0);
}

static double pick(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t r = *s >> 11;
    switch (r % 8) {
    case 0: return ((double)(r >> 4) / (1ULL << 49) - 0.5) * 8;             /* small */
    case 1: return ldexp((double)(r >> 4) / (1ULL << 49) - 0.5, (int)(r % 200) - 100);
    case 2: return 1 + ((double)(r >> 4) / (1ULL << 49) - 0.5) * 1e-6; /* near 1 */
    case 3: return -1 + ((double)(r >> 4) / (1ULL << 49) - 0.5) * 1e-9;
    case 4: return ldexp((double)(r >> 4) / (1ULL << 49), (int)(r % 2000) - 1000);
    case 5: return ((double)(r >> 4) / (1ULL << 49) - 0.5) * 1400; /* exp's range */
    case 6: return 0.0 * (r & 16 ? 1 : -1);
    default: return ((double)(r >> 4) / (1ULL << 49) - 0.5) * 2;
    }
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], 0, 0) : 1;
    long n = argc > 2 ? atol(argv[2]) : 20000;
    const double special[] = {0.0,    -0.0,  1.0,     -1.0,    0.5,     -0.5,    2.0,     -3.0,   1e-300,
                              -1e-310, 1e300, -1e300,  710.0,   -745.0,  30.0,    1e-9,    1 - 1e-16,
                              1 + 1e-15,       M_PI,    M_PI_2,  -M_PI_2, 1e20,    DBL_MAX, INFINITY,
                              -INFINITY,       NAN};
    int ns = sizeof special / sizeof special[0];
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < ns; j++) all_functions(special[i], special[j]);
    const double ops[] = {0.0, -0.0, 1.0, -2.5, 3.25, 1e-200, 1e200, 1e308, INFINITY, -INFINITY, NAN, 7e-320};
    int no = sizeof ops / sizeof ops[0];
    for (int i = 0; i < no; i++)
        for (int j = 0; j < no; j++)
            for (int k = 0; k < no; k++)
                for (int l = 0; l < no; l++) operators(ops[i], ops[j], ops[k], ops[l]);
    uint64_t s = seed;
    for (long i = 0; i < n; i++) {
        double x = pick(&s), y = pick(&s);
        all_functions(x, y);
        operators(x, y, pick(&s), pick(&s));
    }
    printf("complex: %ld cases, %ld failures\n", cases, failures);
    return failures != 0;
}
