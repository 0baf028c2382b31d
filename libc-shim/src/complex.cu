/* <complex.h>: the elementary functions on gp_cdouble, as C's Annex G
 * defines them (special values, branch cuts, signed zeros), computed so that
 * they stay within a few ulp of glibc's: cancellations near |z| = 1 and near
 * the branch points are avoided (x*x + y*y - 1 in twice the precision, the
 * inverse functions by Hull, Fairgrieve and Tang's method), overflow and
 * underflow by scaling. The float versions compute in double and round; the
 * long double versions compute in double (which long double is on the GPU).
 * Also the out-of-line parts of * and / (shim_complex.h). */
#include <math.h>
#include <float.h>

#include "gpumpi/shim_complex.h"

#define GP_PI 3.14159265358979323846
#define GP_PI_2 1.57079632679489661923
#define GP_PI_4 0.78539816339744830962
#define GP_LN2 0.69314718055994530942

/* ---- multiplication and division (Annex G recovery; Smith's method) ---- */

GPUMPI_HD gp_cdouble gp_cx_mul_recover(double a, double b, double c, double d)
{
    double x = a * c - b * d, y = a * d + b * c;
    int again = 0;
    if (isinf(a) || isinf(b)) { /* an infinite operand: the product is infinite */
        a = copysign(isinf(a) ? 1.0 : 0.0, a);
        b = copysign(isinf(b) ? 1.0 : 0.0, b);
        if (isnan(c)) c = copysign(0.0, c);
        if (isnan(d)) d = copysign(0.0, d);
        again = 1;
    }
    if (isinf(c) || isinf(d)) {
        c = copysign(isinf(c) ? 1.0 : 0.0, c);
        d = copysign(isinf(d) ? 1.0 : 0.0, d);
        if (isnan(a)) a = copysign(0.0, a);
        if (isnan(b)) b = copysign(0.0, b);
        again = 1;
    }
    if (!again && (isinf(a * c) || isinf(b * d) || isinf(a * d) || isinf(b * c))) {
        /* overflow on the way: the NaN came from inf - inf */
        if (isnan(a)) a = copysign(0.0, a);
        if (isnan(b)) b = copysign(0.0, b);
        if (isnan(c)) c = copysign(0.0, c);
        if (isnan(d)) d = copysign(0.0, d);
        again = 1;
    }
    if (again) {
        x = INFINITY * (a * c - b * d);
        y = INFINITY * (a * d + b * c);
    }
    return gp_cdouble(x, y);
}

/* (a + ib) / (c + id) by Smith's method: divide by the larger of c and d,
 * scaled so that neither the ratio nor the denominator leaves the range */
GPUMPI_HD gp_cdouble gp_cx_div(double a, double b, double c, double d)
{
    const double big = DBL_MAX / 2, tiny = DBL_MIN, eps = DBL_EPSILON, up = 1 / DBL_EPSILON;
    const double big_eps = big * eps;
    double x, y;
    int swap = fabs(c) < fabs(d);
    double p = swap ? d : c, q = swap ? c : d; /* |p| >= |q| */
    if (fabs(p) >= big) {
        a *= 0.5, b *= 0.5, p *= 0.5, q *= 0.5;
    }
    if (fabs(p) < eps || ((fabs(a) < tiny && fabs(b) < big_eps && fabs(p) < big_eps) ||
                          (fabs(b) < tiny && fabs(a) < big_eps && fabs(p) < big_eps))) {
        a *= up, b *= up, p *= up, q *= up;
    }
    double ratio = q / p, den = q * ratio + p;
    if (!swap) { /* (a + ib) / (p + iq) */
        if (fabs(ratio) > tiny) {
            x = (b * ratio + a) / den;
            y = (b - a * ratio) / den;
        } else {
            x = (a + q * (b / p)) / den;
            y = (b - q * (a / p)) / den;
        }
    } else { /* (a + ib) / (q + ip) */
        if (fabs(ratio) > tiny) {
            x = (a * ratio + b) / den;
            y = (b * ratio - a) / den;
        } else {
            x = (q * (a / p) + b) / den;
            y = (q * (b / p) - a) / den;
        }
    }
    if (isnan(x) && isnan(y)) return gp_cx_div_recover(a, b, c, d);
    return gp_cdouble(x, y);
}

/* Annex G: a quotient that came out NaN + iNaN may be an infinity or a zero */
GPUMPI_HD gp_cdouble gp_cx_div_recover(double a, double b, double c, double d)
{
    double x = NAN, y = NAN;
    {
        if (c == 0 && d == 0 && (!isnan(a) || !isnan(b))) {
            x = copysign(INFINITY, c) * a;
            y = copysign(INFINITY, c) * b;
        } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
            a = copysign(isinf(a) ? 1.0 : 0.0, a);
            b = copysign(isinf(b) ? 1.0 : 0.0, b);
            x = INFINITY * (a * c + b * d);
            y = INFINITY * (b * c - a * d);
        } else if ((isinf(c) || isinf(d)) && isfinite(a) && isfinite(b)) {
            c = copysign(isinf(c) ? 1.0 : 0.0, c);
            d = copysign(isinf(d) ? 1.0 : 0.0, d);
            x = 0.0 * (a * c + b * d);
            y = 0.0 * (b * c - a * d);
        }
    }
    return gp_cdouble(x, y);
}

GPUMPI_HD gp_cldouble gp_cx_divl(long double a, long double b, long double c, long double d)
{
    return gp_cldouble(gp_cx_div((double)a, (double)b, (double)c, (double)d));
}

GPUMPI_HD gp_cldouble gp_cx_mul_recoverl(long double a, long double b, long double c, long double d)
{
    return gp_cldouble(gp_cx_mul_recover((double)a, (double)b, (double)c, (double)d));
}

/* ---- helpers ---- */

/* x*x + y*y - 1 with the products' rounding errors kept (fma) and the sum
 * compensated: exact enough where the terms cancel (|z| near 1) */
GPUMPI_FN static double x2y2m1(double x, double y)
{
    double p1 = x * x, e1 = fma(x, x, -p1), p2 = y * y, e2 = fma(y, y, -p2);
    double s1 = p1 - 1.0, t1 = (p1 - (s1 + 1.0)) + (-1.0 - (s1 - p1)); /* two-sum */
    double s2 = s1 + p2, bb = s2 - s1, t2 = (s1 - (s2 - bb)) + (p2 - bb);
    return s2 + (t1 + t2 + e1 + e2);
}

/* log|z| without overflow, underflow or the cancellation near |z| = 1 */
GPUMPI_FN static double log_abs(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    if (ax < ay) {
        double t = ax;
        ax = ay;
        ay = t;
    }
    if (isinf(ax) || isinf(ay)) return INFINITY;
    if (isnan(ax) || isnan(ay)) return NAN;
    if (ax == 0) return -INFINITY; /* divide by zero */
    if (ax > DBL_MAX / 4) return log(hypot(ax * 0.25, ay * 0.25)) + 2 * GP_LN2;
    if (ax < 0x1p-500) return log(hypot(ax * 0x1p600, ay * 0x1p600)) - 600 * GP_LN2;
    double h2 = ax * ax + ay * ay;
    if (h2 > 0.5 && h2 < 2.0 && ax >= 0x1p-30) return 0.5 * log1p(x2y2m1(ax, ay));
    return log(hypot(ax, ay));
}

/* ---- absolute value, argument, projection ---- */

GPUMPI_FN double gp_cabs(gp_cdouble z) { return hypot(z.re, z.im); }
GPUMPI_FN double gp_carg(gp_cdouble z) { return atan2(z.im, z.re); }
GPUMPI_FN float gp_cabsf(gp_cfloat z) { return (float)hypot((double)z.re, (double)z.im); }
GPUMPI_FN float gp_cargf(gp_cfloat z) { return (float)atan2((double)z.im, (double)z.re); }
GPUMPI_FN long double gp_cabsl(gp_cldouble z) { return hypot((double)z.re, (double)z.im); }
GPUMPI_FN long double gp_cargl(gp_cldouble z) { return atan2((double)z.im, (double)z.re); }

GPUMPI_FN gp_cdouble gp_cproj(gp_cdouble z)
{
    if (isinf(z.re) || isinf(z.im)) return gp_cdouble(INFINITY, copysign(0.0, z.im));
    return z;
}

/* ---- exponential, logarithm, power, square root ---- */

/* sin y and cos y; below DBL_MIN exactly y and 1, so that cexp and ctanh
 * pass a tiny imaginary part through unchanged. */
GPUMPI_FN static void gp_sin_cos(double y, double *s, double *c)
{
    if (fabs(y) > DBL_MIN) {
        *s = sin(y);
        *c = cos(y);
    } else {
        *s = y;
        *c = 1;
    }
}

GPUMPI_FN gp_cdouble gp_cexp(gp_cdouble z)
{
    double x = z.re, y = z.im;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0) return gp_cdouble(exp(x), y);
        double s, c;
        gp_sin_cos(y, &s, &c);
        if (x > 709.0) { /* exp(x) overflows, exp(x) * cos(y) may not */
            double h = exp(x * 0.5);
            return gp_cdouble(c * h * h, s * h * h);
        }
        double e = exp(x);
        return gp_cdouble(e * c, e * s);
    }
    if (isinf(x)) {
        if (x > 0) {
            if (y == 0) return gp_cdouble(x, y);
            if (isfinite(y)) return gp_cdouble(x * cos(y), x * sin(y));
            return gp_cdouble(x, NAN);
        }
        if (isfinite(y)) return gp_cdouble(0.0 * cos(y), 0.0 * sin(y));
        return gp_cdouble(0.0, copysign(0.0, y));
    }
    if (isnan(x) && y == 0) return gp_cdouble(NAN, y);
    return gp_cdouble(NAN, NAN);
}

GPUMPI_FN gp_cdouble gp_clog(gp_cdouble z)
{
    return gp_cdouble(log_abs(z.re, z.im), atan2(z.im, z.re));
}

GPUMPI_FN gp_cdouble gp_cpow(gp_cdouble z, gp_cdouble w) { return gp_cexp(w * gp_clog(z)); }

GPUMPI_FN gp_cdouble gp_csqrt(gp_cdouble z)
{
    double x = z.re, y = z.im;
    if (isinf(y)) return gp_cdouble(INFINITY, y);
    if (isinf(x)) {
        if (x > 0) return gp_cdouble(x, isnan(y) ? y : copysign(0.0, y));
        return gp_cdouble(isnan(y) ? y : 0.0, copysign(INFINITY, y));
    }
    if (isnan(x) || isnan(y)) return gp_cdouble(NAN, NAN);
    if (x == 0 && y == 0) return gp_cdouble(0.0, y);
    double scale = 1;
    double ax = fabs(x), ay = fabs(y);
    if (ax > DBL_MAX / 4 || ay > DBL_MAX / 4) {
        ax *= 0.25, ay *= 0.25, scale = 2;
    } else if (ax < 0x1p-1000 && ay < 0x1p-1000) {
        ax *= 0x1p108, ay *= 0x1p108, scale = 0x1p-54;
    }
    double t = sqrt(0.5 * (ax + hypot(ax, ay)));
    double u = 0.5 * (ay / t);
    if (x >= 0) return gp_cdouble(t * scale, copysign(u * scale, y));
    return gp_cdouble(u * scale, copysign(t * scale, y));
}

/* ---- hyperbolic and trigonometric ---- */

GPUMPI_FN gp_cdouble gp_csinh(gp_cdouble z)
{
    double x = z.re, y = z.im;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0) return gp_cdouble(sinh(x), y);
        double s = sin(y), c = cos(y);
        if (fabs(x) > 709.0) {
            double h = exp(fabs(x) * 0.5);
            return gp_cdouble(copysign(1.0, x) * (c * h * 0.5 * h), s * h * 0.5 * h);
        }
        return gp_cdouble(sinh(x) * c, cosh(x) * s);
    }
    if (x == 0) return gp_cdouble(x, y - y); /* +-0 + i NaN */
    if (isinf(x)) {
        if (y == 0) return gp_cdouble(x, y);
        if (isfinite(y)) return gp_cdouble(x * cos(y), INFINITY * sin(y));
        return gp_cdouble(INFINITY, y - y); /* glibc's sign */
    }
    if (isnan(x) && y == 0) return gp_cdouble(NAN, y);
    return gp_cdouble(NAN, NAN);
}

GPUMPI_FN gp_cdouble gp_ccosh(gp_cdouble z)
{
    double x = z.re, y = z.im;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0) return gp_cdouble(cosh(x), copysign(0.0, x) * y);
        double s = sin(y), c = cos(y);
        if (fabs(x) > 709.0) {
            double h = exp(fabs(x) * 0.5);
            return gp_cdouble(c * h * 0.5 * h, copysign(1.0, x) * (s * h * 0.5 * h));
        }
        return gp_cdouble(cosh(x) * c, sinh(x) * s);
    }
    if (x == 0) return gp_cdouble(y - y, 0.0); /* NaN + i0, as glibc */
    if (isinf(x)) {
        if (y == 0) return gp_cdouble(INFINITY, y * copysign(1.0, x));
        if (isfinite(y)) return gp_cdouble(INFINITY * cos(y), x * sin(y));
        return gp_cdouble(INFINITY, NAN);
    }
    if (isnan(x) && y == 0) return gp_cdouble(NAN, y);
    return gp_cdouble(NAN, NAN);
}

GPUMPI_FN gp_cdouble gp_ctanh(gp_cdouble z)
{
    double x = z.re, y = z.im;
    if (isinf(x)) {
        double im = isfinite(y) && fabs(y) > 1 ? sin(y) * cos(y) : isnan(y) ? 1.0 : y;
        return gp_cdouble(copysign(1.0, x), copysign(0.0, im));
    }
    if (isnan(x)) return gp_cdouble(NAN, y == 0 ? y : NAN);
    if (!isfinite(y)) return gp_cdouble(x == 0 ? x : NAN, NAN);
    if (y == 0) return gp_cdouble(tanh(x), y);
    double s, c;
    gp_sin_cos(y, &s, &c);
    if (fabs(x) > 22.0) { /* tanh x is +-1; the imaginary part decays as exp(-2|x|) */
        double e = exp(-fabs(x));
        return gp_cdouble(copysign(1.0, x), 4 * s * c * e * e);
    }
    double sh = sinh(x), ch = sqrt(1 + sh * sh);
    double den = sh * sh + c * c;
    return gp_cdouble(sh * ch / den, s * c / den);
}

/* sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz) */
GPUMPI_FN gp_cdouble gp_csin(gp_cdouble z)
{
    gp_cdouble w = gp_csinh(gp_cdouble(-z.im, z.re));
    if (isnan(w.im) && isinf(w.re)) return gp_cdouble(w.im, INFINITY); /* glibc's sign */
    return gp_cdouble(w.im, -w.re);
}

GPUMPI_FN gp_cdouble gp_ccos(gp_cdouble z) { return gp_ccosh(gp_cdouble(-z.im, z.re)); }

GPUMPI_FN gp_cdouble gp_ctan(gp_cdouble z)
{
    gp_cdouble w = gp_ctanh(gp_cdouble(-z.im, z.re));
    return gp_cdouble(w.im, -w.re);
}

/* ---- inverse functions ---- */

/* asin(x + iy) and acos(x + iy) for finite x, y >= 0 (Hull, Fairgrieve and
 * Tang, 1997): *re_asin, *re_acos and the magnitude of the imaginary part,
 * which is the same for both (asin's +, acos's -) */
GPUMPI_FN static void asin_acos_parts(double x, double y, double *re_asin, double *re_acos, double *im)
{
    const double big = 0x1p60, tiny = 0x1p-60;
    if (x > big || y > big) { /* asin z ~ -i log(2iz) */
        *re_asin = atan2(x, y);
        *re_acos = atan2(y, x);
        *im = log_abs(x, y) + GP_LN2;
        return;
    }
    if (x < tiny && y < tiny) { /* asin z ~ z */
        *re_asin = x;
        *re_acos = GP_PI_2 - x;
        *im = y;
        return;
    }
    double r = hypot(x + 1, y), s = hypot(x - 1, y);
    double a = 0.5 * (r + s), b = x / a;
    double y2 = y * y;
    if (b <= 0.6417) {
        *re_asin = asin(b);
        *re_acos = acos(b);
    } else if (x <= 1) {
        double d = sqrt(0.5 * (a + x) * (y2 / (r + x + 1) + (s + (1 - x))));
        *re_asin = atan(x / d);
        *re_acos = atan(d / x);
    } else {
        double d = y * sqrt(0.5 * ((a + x) / (r + x + 1) + (a + x) / (s + (x - 1))));
        *re_asin = atan(x / d);
        *re_acos = atan(d / x);
    }
    if (a <= 1.5) {
        double am1;
        if (y < 0x1p-500) { /* y*y would underflow */
            if (x == 1) {
                *im = sqrt(y);
                return;
            }
            if (x < 1) {
                *im = y / sqrt((1 - x) * (1 + x));
                return;
            }
            am1 = x - 1;
        } else if (x < 1)
            am1 = 0.5 * (y2 / (r + x + 1) + y2 / (s + (1 - x)));
        else
            am1 = 0.5 * (y2 / (r + x + 1) + (s + (x - 1)));
        *im = log1p(am1 + sqrt(am1 * (a + 1)));
    } else
        *im = log(a + sqrt(a * a - 1));
}

GPUMPI_FN gp_cdouble gp_cacos(gp_cdouble z)
{
    double x = z.re, y = z.im;
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return gp_cdouble(NAN, -INFINITY);
        if (isinf(y)) return gp_cdouble(NAN, -y);
        if (x == 0) return gp_cdouble(GP_PI_2, NAN);
        return gp_cdouble(NAN, NAN);
    }
    if (isinf(x) || isinf(y)) {
        double re;
        if (isinf(x) && isinf(y)) re = x > 0 ? GP_PI_4 : 3 * GP_PI_4;
        else if (isinf(y)) re = GP_PI_2;
        else re = x > 0 ? 0.0 : GP_PI;
        return gp_cdouble(re, copysign(INFINITY, -y));
    }
    double ra, rc, im;
    asin_acos_parts(fabs(x), fabs(y), &ra, &rc, &im);
    if (x < 0) rc = GP_PI - rc;
    return gp_cdouble(rc, copysign(im, -y));
}

GPUMPI_FN gp_cdouble gp_casinh(gp_cdouble z)
{
    double x = z.re, y = z.im;
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return gp_cdouble(x, NAN);
        if (isinf(y)) return gp_cdouble(INFINITY, NAN);
        if (y == 0) return gp_cdouble(NAN, y);
        return gp_cdouble(NAN, NAN);
    }
    if (isinf(x) || isinf(y)) {
        double im;
        if (isinf(x) && isinf(y)) im = GP_PI_4;
        else if (isinf(y)) im = GP_PI_2;
        else im = 0.0;
        return gp_cdouble(copysign(INFINITY, x), copysign(im, y));
    }
    double ra, rc, im;
    asin_acos_parts(fabs(y), fabs(x), &ra, &rc, &im); /* asinh(x + iy) = -i asin(-y + ix) */
    return gp_cdouble(copysign(im, x), copysign(ra, y));
}

GPUMPI_FN gp_cdouble gp_casin(gp_cdouble z)
{
    gp_cdouble w = gp_casinh(gp_cdouble(-z.im, z.re));
    if (isnan(w.im) && isinf(w.re)) return gp_cdouble(w.im, isinf(z.im) ? z.im : INFINITY); /* glibc's sign */
    return gp_cdouble(w.im, -w.re);
}

GPUMPI_FN gp_cdouble gp_cacosh(gp_cdouble z)
{
    gp_cdouble w = gp_cacos(z);
    if (isnan(w.im)) return gp_cdouble(w.im, fabs(w.re));
    if (signbit(w.im)) return gp_cdouble(-w.im, w.re);
    return gp_cdouble(w.im, -w.re);
}

GPUMPI_FN gp_cdouble gp_catanh(gp_cdouble z)
{
    double x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return gp_cdouble(copysign(0.0, x), NAN);
        if (isinf(y)) return gp_cdouble(copysign(0.0, x), copysign(GP_PI_2, y));
        if (x == 0) return gp_cdouble(x, NAN);
        return gp_cdouble(NAN, NAN);
    }
    if (isinf(x) || isinf(y)) return gp_cdouble(copysign(0.0, x), copysign(GP_PI_2, y));
    double re, im;
    if (ax > 0x1p60 || ay > 0x1p60) { /* atanh z ~ 1/z + i pi/2 */
        double h = ax > ay ? ax : ay, sx = ax / h, sy = ay / h;
        re = (sx / (sx * sx + sy * sy)) / h;
        im = GP_PI_2;
    } else if (ax < 0x1p-60 && ay < 0x1p-60) {
        re = ax;
        im = ay;
    } else {
        double den = (1 - ax) * (1 - ax) + ay * ay;
        if (den > 0x1p-900)
            re = 0.25 * log1p(4 * ax / den);
        else
            re = 0.5 * (log(hypot(1 + ax, ay)) - log(hypot(1 - ax, ay)));
        double h2 = ax * ax + ay * ay, m;
        if (h2 > 0.5 && h2 < 2.0) m = -x2y2m1(ax, ay);
        else m = (1 - ax) * (1 + ax) - ay * ay;
        im = 0.5 * atan2(2 * ay, m == 0 ? 0.0 : m); /* atanh(1 + i0) = inf + i0 */
    }
    return gp_cdouble(copysign(re, x), copysign(im, y));
}

GPUMPI_FN gp_cdouble gp_catan(gp_cdouble z)
{
    gp_cdouble w = gp_catanh(gp_cdouble(-z.im, z.re));
    return gp_cdouble(w.im, -w.re);
}

/* ---- float and long double: through double ---- */

#define GP_CX_NARROW(name)                                                                   \
    GPUMPI_FN gp_cfloat gp_##name##f(gp_cfloat z) { return gp_cfloat(gp_##name(gp_cdouble(z))); } \
    GPUMPI_FN gp_cldouble gp_##name##l(gp_cldouble z) { return gp_cldouble(gp_##name(gp_cdouble(z))); }
GP_CX_FUNCTIONS(GP_CX_NARROW)
#undef GP_CX_NARROW

GPUMPI_FN gp_cfloat gp_cpowf(gp_cfloat z, gp_cfloat w) { return gp_cfloat(gp_cpow(gp_cdouble(z), gp_cdouble(w))); }
GPUMPI_FN gp_cldouble gp_cpowl(gp_cldouble z, gp_cldouble w)
{
    return gp_cldouble(gp_cpow(gp_cdouble(z), gp_cdouble(w)));
}
