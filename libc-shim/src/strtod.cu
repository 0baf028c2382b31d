/* strtod, strtof, atof: correctly rounded (round half to even on the exact
 * decimal value), as glibc's are, with no floating-point arithmetic on the
 * slow path.
 *
 * A decimal input is the integer D of its first GP_MAXD significant digits
 * times 10^E, plus a "sticky" flag if a non-zero digit was dropped. A
 * halfway point between two doubles has at most 767 significant digits, so
 * 800 kept digits and the flag decide every rounding exactly. Short inputs
 * (15 digits, |E| <= 22) take Clinger's fast path: one IEEE multiply or
 * divide of two exact doubles. Otherwise q = floor(D 10^E 2^k) is found with
 * big integers (shift-and-subtract division, P + 4 quotient bits) and
 * rounded to the format's precision P, subnormals included. */
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_ctype.h"
#include "libc_state.h"

#define GP_MAXD 800
#define GP_LIMBS 128 /* 4096 bits: 10^1124 << 57 fits (see the bounds below) */
#define GP_ERANGE 34

typedef struct gp_big {
    uint32_t w[GP_LIMBS];
    int n; /* limbs in use; w[n-1] != 0 unless n == 0 */
} gp_big;

GPUMPI_FN static void gp_big_set(gp_big *a, uint32_t v)
{
    a->w[0] = v;
    a->n = v != 0;
}

GPUMPI_FN static void gp_big_muladd(gp_big *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * m + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < GP_LIMBS) a->w[a->n++] = (uint32_t)carry;
}

GPUMPI_FN static void gp_big_pow10(gp_big *a, int e)
{
    for (; e >= 9; e -= 9) gp_big_muladd(a, 1000000000u, 0);
    static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (e > 0) gp_big_muladd(a, p10[e], 0);
}

GPUMPI_FN static int gp_big_bits(const gp_big *a)
{
    if (a->n == 0) return 0;
    uint32_t top = a->w[a->n - 1];
    int b = 0;
    while (top) {
        b++;
        top >>= 1;
    }
    return 32 * (a->n - 1) + b;
}

GPUMPI_FN static void gp_big_shl(gp_big *a, int s)
{
    if (a->n == 0 || s == 0) return;
    int words = s / 32, bits = s % 32;
    int n = a->n + words + 1;
    if (n > GP_LIMBS) n = GP_LIMBS; /* cannot happen within the bounds above */
    for (int i = n - 1; i >= 0; i--) {
        int j = i - words;
        uint32_t hi = j >= 0 && j < a->n ? a->w[j] : 0;
        uint32_t lo = j - 1 >= 0 && j - 1 < a->n ? a->w[j - 1] : 0;
        a->w[i] = bits ? (hi << bits) | (lo >> (32 - bits)) : hi;
    }
    a->n = n;
    while (a->n > 0 && a->w[a->n - 1] == 0) a->n--;
}

GPUMPI_FN static int gp_big_cmp(const gp_big *a, const gp_big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

GPUMPI_FN static void gp_big_sub(gp_big *a, const gp_big *b) /* a >= b */
{
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
        borrow = t < 0;
        a->w[i] = (uint32_t)(t + (borrow << 32));
    }
    while (a->n > 0 && a->w[a->n - 1] == 0) a->n--;
}

/* A binary floating-point format: P significant bits, exponent bias. */
typedef struct gp_ffmt {
    int P, bias, ebits;
} gp_ffmt;

/* The bits of q * 2^e (plus something below q's last bit if sticky),
 * rounded to the format; sets ERANGE on overflow and on an inexact tiny
 * result, as glibc does. */
GPUMPI_FN static uint64_t gp_round_bin(const gp_ffmt *f, uint64_t q, long e, int sticky)
{
    if (q == 0) {
        if (sticky) *gp_errno_location() = GP_ERANGE;
        return 0;
    }
    int b = 0;
    for (uint64_t t = q; t; t >>= 1) b++;
    long k = -e;
    int want = f->P + 1; /* P bits and a rounding bit */
    if (b > want) {
        int s = b - want;
        sticky |= (q & ((1ull << s) - 1)) != 0;
        q >>= s;
        k -= s;
    } else if (b < want) {
        q <<= want - b;
        k += want - b;
    }
    long kmax = f->bias + f->P - 1; /* below this, the subnormal spacing */
    long emax = (1L << f->ebits) - 1;
    if (k < kmax - 4 * emax) k = kmax - 4 * emax; /* far overflow: keep the arithmetic small */
    int tiny = 0;
    if (k > kmax) {
        long s = k - kmax;
        /* glibc on x86 detects tininess after rounding: the value is tiny
         * unless rounding it to P bits with an unbounded exponent reaches
         * the smallest normal, which only q = 11..1 one bit short does. */
        int reaches = s == 1 && q == ((1ull << (f->P + 1)) - 1);
        tiny = !reaches;
        if (s >= 64) {
            sticky |= q != 0;
            q = 0;
        } else {
            sticky |= (q & ((1ull << s) - 1)) != 0;
            q >>= s;
        }
        k = kmax;
    }
    int round = (int)(q & 1);
    uint64_t mant = q >> 1;
    if (round && (sticky || (mant & 1))) mant++;
    if ((round || sticky) && tiny) *gp_errno_location() = GP_ERANGE;
    long ebiased = kmax - k; /* biased exponent - 1 */
    if (ebiased >= emax - 1) {
        *gp_errno_location() = GP_ERANGE;
        return (uint64_t)emax << (f->P - 1); /* infinity */
    }
    uint64_t bits = ((uint64_t)ebiased << (f->P - 1)) + mant; /* a carry out of mant raises the exponent */
    if (bits >= ((uint64_t)emax << (f->P - 1))) {
        *gp_errno_location() = GP_ERANGE;
        return (uint64_t)emax << (f->P - 1);
    }
    return bits;
}

GPUMPI_FN static int gp_lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* s starts with word (case-insensitive)? */
GPUMPI_FN static int gp_word(const char *s, const char *word)
{
    for (; *word; s++, word++)
        if (gp_lower((unsigned char)*s) != *word) return 0;
    return 1;
}

GPUMPI_FN static int gp_hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = gp_lower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* A decimal exponent "e[+-]ddd" at p, clamped far beyond any format's
 * range; returns its end, or p when there is no valid exponent. */
GPUMPI_FN static const char *gp_exponent(const char *p, long *exp)
{
    const char *q = p + 1;
    int neg = 0;
    if (*q == '+' || *q == '-') neg = *q++ == '-';
    if (*q < '0' || *q > '9') return p;
    long v = 0;
    for (; *q >= '0' && *q <= '9'; q++)
        if (v < 100000000) v = v * 10 + (*q - '0');
    *exp = neg ? -v : v;
    return q;
}

/* The bits of the number at s, rounded to f; *end past what was used (s if
 * nothing was). neg gets the sign. */
GPUMPI_FN static uint64_t gp_parse_float(const gp_ffmt *f, const char *s, char **end, int *neg)
{
    const char *p = s;
    uint64_t inf = (((uint64_t)1 << f->ebits) - 1) << (f->P - 1);
    while (gp_isspace((unsigned char)*p)) p++;
    *neg = 0;
    if (*p == '+' || *p == '-') *neg = *p++ == '-';
    if (end) *end = (char *)s;

    if (gp_word(p, "inf")) {
        p += gp_word(p, "infinity") ? 8 : 3;
        if (end) *end = (char *)p;
        return inf;
    }
    if (gp_word(p, "nan")) {
        p += 3;
        uint64_t payload = 0;
        if (*p == '(') {
            const char *q = p + 1;
            while ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_') q++;
            if (*q == ')') {
                /* glibc takes the payload when the sequence is an integer */
                char *ie;
                unsigned long long v = gp_strtoull(p + 1, &ie, 0);
                if (ie == q) payload = v;
                p = q + 1;
            }
        }
        if (end) *end = (char *)p;
        uint64_t quiet = (uint64_t)1 << (f->P - 2);
        return inf | quiet | (payload & (quiet - 1));
    }

    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        (gp_hexval((unsigned char)p[2]) >= 0 || (p[2] == '.' && gp_hexval((unsigned char)p[3]) >= 0))) {
        /* hex: up to 60 significant bits kept, the rest sticky */
        p += 2;
        uint64_t q = 0;
        long e2 = 0;
        int sticky = 0, seen_point = 0;
        for (;; p++) {
            if (*p == '.' && !seen_point) {
                seen_point = 1;
                continue;
            }
            int h = gp_hexval((unsigned char)*p);
            if (h < 0) break;
            if (q >> 56) {
                sticky |= h != 0;
                if (!seen_point) e2 += 4;
            } else {
                q = q << 4 | (uint64_t)h;
                if (seen_point) e2 -= 4;
            }
        }
        if (*p == 'p' || *p == 'P') {
            long x = 0;
            const char *q2 = gp_exponent(p, &x);
            if (q2 != p) {
                e2 += x;
                p = q2;
            }
        }
        if (end) *end = (char *)p;
        if (q == 0) return 0;
        return gp_round_bin(f, q, e2, sticky);
    }

    /* decimal: pass 1 finds the digits and the exponent */
    const char *digits = p;
    long nsig = 0, dp = 0; /* significant digits; digits of the integer part from the first significant one */
    int any = 0, seen_point = 0;
    for (;; p++) {
        if (*p == '.' && !seen_point) {
            seen_point = 1;
            continue;
        }
        if (*p < '0' || *p > '9') break;
        any = 1;
        if (*p != '0' || nsig) nsig++;
        if (!seen_point && nsig) dp++;
        if (seen_point && !nsig) dp--; /* a leading zero after the point */
    }
    if (!any) { /* no conversion: *end stays s, the result is +0 */
        *neg = 0;
        return 0;
    }
    long exp = 0;
    if (*p == 'e' || *p == 'E') p = gp_exponent(p, &exp);
    if (end) *end = (char *)p;
    if (nsig == 0) return 0;
    long mag = dp + exp; /* value in [10^(mag-1), 10^mag) */
    long maxmag = f->P == 53 ? 310 : 40, minmag = f->P == 53 ? -324 : -46;
    if (mag > maxmag) {
        *gp_errno_location() = GP_ERANGE;
        return inf;
    }
    if (mag < minmag) {
        *gp_errno_location() = GP_ERANGE;
        return 0;
    }

    /* pass 2: D from the first GP_MAXD significant digits; zeros are held
     * back until a non-zero digit follows, so D has no trailing zeros */
    gp_big A;
    gp_big_set(&A, 0);
    uint64_t small = 0; /* D while it fits in 64 bits with room for one more digit */
    int use_small = 1;
    long kept = 0, zeros = 0;
    int sticky = 0;
    uint32_t chunk = 0;
    int chunk_digits = 0;
    long seen = 0;
    for (const char *c = digits; c < p; c++) {
        if (*c == '.') continue;
        if (*c < '0' || *c > '9') break; /* the exponent */
        int d = *c - '0';
        if (d == 0 && seen == 0) continue; /* a leading zero */
        seen++;
        if (kept + zeros >= GP_MAXD) {
            sticky |= d != 0;
            continue;
        }
        if (d == 0) {
            zeros++;
            continue;
        }
        for (; zeros >= 0; zeros--) { /* the held-back zeros, then d */
            int dig = zeros ? 0 : d;
            kept++;
            if (use_small && small < 100000000000000000ull) {
                small = small * 10 + (uint64_t)dig;
                continue;
            }
            if (use_small) {
                use_small = 0;
                A.w[0] = (uint32_t)small;
                A.w[1] = (uint32_t)(small >> 32);
                A.n = A.w[1] ? 2 : 1;
            }
            chunk = chunk * 10 + (uint32_t)dig;
            if (++chunk_digits == 9) {
                gp_big_muladd(&A, 1000000000u, chunk);
                chunk = 0;
                chunk_digits = 0;
            }
        }
        zeros = 0;
    }
    /* D * 10^E = the value (less the sticky tail) */
    long E = mag - kept;
    if (use_small && !sticky) {
        /* Clinger's fast path: exact D and 10^|E|, one correctly rounded op */
        static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        if (f->P == 53 && small < (1ull << 53) && E >= -22 && E <= 22) {
            double v = (double)small;
            v = E >= 0 ? v * p10[E] : v / p10[-E];
            union {
                double d;
                uint64_t u;
            } b;
            b.d = v;
            return b.u;
        }
        if (f->P == 24 && small < (1u << 24) && E >= -10 && E <= 10) {
            float v = (float)small;
            float t = (float)p10[E >= 0 ? E : -E]; /* exact up to 1e10 */
            v = E >= 0 ? v * t : v / t;
            union {
                float d;
                uint32_t u;
            } b;
            b.d = v;
            return b.u;
        }
    }
    if (use_small) {
        A.w[0] = (uint32_t)small;
        A.w[1] = (uint32_t)(small >> 32);
        A.n = A.w[1] ? 2 : 1;
    } else if (chunk_digits) {
        static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
        gp_big_muladd(&A, p10[chunk_digits], chunk);
    }
    gp_big B; /* the divisor */
    gp_big_set(&B, 1);
    if (E >= 0)
        gp_big_pow10(&A, (int)E);
    else
        gp_big_pow10(&B, (int)-E);
    /* q = floor(A 2^k / B) with P+2 or P+3 bits; tiny values keep k just
     * past the subnormal rounding point (gp_round_bin rounds the rest) */
    long k = (f->P + 2) - (gp_big_bits(&A) - gp_big_bits(&B));
    long kcap = f->bias + f->P + 1;
    if (k > kcap) k = kcap;
    int G = f->P + 4; /* quotient bits: A 2^k / B < 2^(P+3) */
    if (k >= 0) {
        gp_big_shl(&A, (int)k);
        gp_big_shl(&B, G);
    } else {
        gp_big_shl(&B, (int)(G - k));
    }
    uint64_t q = 0;
    for (int i = 0; i < G; i++) {
        gp_big_shl(&A, 1);
        q <<= 1;
        if (gp_big_cmp(&A, &B) >= 0) {
            gp_big_sub(&A, &B);
            q |= 1;
        }
    }
    sticky |= A.n != 0;
    return gp_round_bin(f, q, -k, sticky);
}

GPUMPI_FN double gp_strtod(const char *s, char **end)
{
    gp_ffmt f = {53, 1023, 11};
    int neg;
    union {
        uint64_t u;
        double d;
    } b;
    b.u = gp_parse_float(&f, s, end, &neg);
    if (neg) b.u |= 1ull << 63;
    return b.d;
}

GPUMPI_FN float gp_strtof(const char *s, char **end)
{
    gp_ffmt f = {24, 127, 8};
    int neg;
    union {
        uint32_t u;
        float d;
    } b;
    b.u = (uint32_t)gp_parse_float(&f, s, end, &neg);
    if (neg) b.u |= 1u << 31;
    return b.d;
}

/* long double is double on the device; on the host it is the same double,
 * widened, so both backends parse alike. */
GPUMPI_FN long double gp_strtold(const char *s, char **end) { return (long double)gp_strtod(s, end); }

GPUMPI_FN double gp_atof(const char *s) { return gp_strtod(s, 0); }
