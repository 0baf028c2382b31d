/* The printf-family formatter (see format.h). Plain C-style code, compiled
 * both by nvcc as device code and by g++ for the threads backend; it calls
 * no libc function, since there is none on the GPU.
 *
 * Floating point (%f %e %g) is printed from the exact value: a double is
 * m * 2^e2, and its decimal expansion is finite (at most 309 integer and
 * 1074 fraction digits). A digit generator (gp_dgen) streams that expansion
 * most significant digit first, holding the integer part as base-10^9 limbs
 * and the fraction as a binary big integer that is multiplied by 10^9 for
 * each next 9 digits. Nothing is buffered per digit, so stack use stays
 * small: each conversion runs the generator twice, once to find the rounding
 * (round half to even on the exact value, as glibc in the default rounding
 * mode) and so the field length for padding, once to print.
 */
#include "gpumpi/format.h"
#include "gpumpi/shim_errno.h"
#include "gpumpi/shim_string.h"

/* Keeps rarely taken, often referenced code out of line (code size). The
 * decimal floating-point path (gp_fmt_dec, gp_dgen_*, gp_scan, gp_emit) must
 * stay out of line too: inlined into gp_vformat under a register cap
 * (-maxrregcount, which gpumpi uses for full occupancy) nvcc 13 miscompiles
 * it and %f prints 0.000000 (seen on an H200; tests/gpu/format_on_gpu.cu). */
#if defined(GPUMPI_CUDA)
#define GP_NOINLINE __noinline__
#else
#define GP_NOINLINE __attribute__((noinline))
#endif

#define GP_E9 1000000000u
/* Enough 32-bit words for both uses of gp_dgen.w: the integer part of
 * DBL_MAX in base 10^9 (309 digits = 35 limbs) and the fraction of the
 * smallest denormal (1074 bits = 34 words). */
#define GP_BIGW 36

/* Length modifiers. */
enum {
    GP_LEN_NONE,
    GP_LEN_HH,
    GP_LEN_H,
    GP_LEN_L,
    GP_LEN_LL,   /* ll, q */
    GP_LEN_BIGL, /* L */
    GP_LEN_J,
    GP_LEN_Z,    /* z, Z */
    GP_LEN_T
};

/* One parsed conversion specification. */
typedef struct gp_spec {
    int left, plus, space, alt, zero;
    int group, i18n; /* ' and I: no effect in the "C" locale but echoed by gp_unknown */
    int width; /* >= 0 */
    int prec;  /* -1: not given */
} gp_spec;

/* ---- output ------------------------------------------------------------ */

/* Every byte goes through here. Out of line: inlined into its hundreds of
 * call sites it multiplied the device code size by ten. */
GPUMPI_FN static GP_NOINLINE void gp_put(gp_sink *s, char c)
{
    s->total++;
    if (s->len >= s->cap) {
        if (!s->drain)
            return; /* snprintf truncation: count, do not store */
        s->drain(s);
        if (s->len >= s->cap)
            return; /* a drain that made no room: drop rather than overrun */
    }
    s->buf[s->len++] = c;
}

GPUMPI_FN static void gp_putn(gp_sink *s, char c, long n)
{
    while (n-- > 0)
        gp_put(s, c);
}

GPUMPI_FN static void gp_putmem(gp_sink *s, const char *p, long n)
{
    while (n-- > 0)
        gp_put(s, *p++);
}

/* How many pad bytes widen a field of len bytes to the width. They go
 * before the field (spaces), after the sign/prefix (zeros) or after the
 * field ('-'), as each conversion decides. */
GPUMPI_FN static long gp_padlen(const gp_spec *sp, long len)
{
    return sp->width > len ? sp->width - len : 0;
}

GPUMPI_FN static void gp_putuint(gp_sink *s, unsigned v)
{
    char t[10];
    int n = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n > 0)
        gp_put(s, t[--n]);
}

/* An unknown conversion: glibc prints the spec back in a canonical form
 * (flags in a fixed order, length modifiers dropped, '*' values filled in). */
GPUMPI_FN static void gp_unknown(gp_sink *s, const gp_spec *sp, char conv)
{
    gp_put(s, '%');
    if (sp->alt)
        gp_put(s, '#');
    if (sp->group)
        gp_put(s, '\'');
    if (sp->plus)
        gp_put(s, '+');
    else if (sp->space)
        gp_put(s, ' ');
    if (sp->left)
        gp_put(s, '-');
    if (sp->zero && !sp->left)
        gp_put(s, '0');
    if (sp->i18n)
        gp_put(s, 'I');
    if (sp->width)
        gp_putuint(s, (unsigned)sp->width);
    if (sp->prec >= 0) {
        gp_put(s, '.');
        gp_putuint(s, (unsigned)sp->prec);
    }
    if (conv)
        gp_put(s, conv);
}

/* ---- integers ---------------------------------------------------------- */

/* u: magnitude; neg: print '-'; sign_ok: + and space flags apply (signed
 * conversions and %p); prefix: "0x"-style prefix already decided. */
GPUMPI_FN static void gp_fmt_int(gp_sink *s, const gp_spec *sp, unsigned long long u, int neg,
                                 int sign_ok, unsigned base, int upper, const char *prefix)
{
    char dig[64]; /* %b of a 64-bit value needs 64 digits */
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int nd = 0;
    while (u) {
        dig[nd++] = digits[u % base];
        u /= base;
    }
    /* The precision is the minimum digit count; the default is 1, and
     * "%.0d" of 0 prints no digits at all. */
    long prec = sp->prec < 0 ? 1 : sp->prec;
    long zeros = prec > nd ? prec - nd : 0;
    /* '#' with 'o' makes the first digit a 0 (by raising the precision). */
    if (base == 8 && sp->alt && zeros == 0)
        zeros = 1;
    char sign = neg ? '-' : (sign_ok && sp->plus) ? '+' : (sign_ok && sp->space) ? ' ' : 0;
    long npre = 0;
    while (prefix && prefix[npre])
        npre++;
    long len = (sign != 0) + npre + zeros + nd;
    long pad = gp_padlen(sp, len);
    /* '0' flag is ignored with '-' or when a precision is given. */
    int zpad = sp->zero && !sp->left && sp->prec < 0;
    if (!sp->left && !zpad)
        gp_putn(s, ' ', pad);
    if (sign)
        gp_put(s, sign);
    gp_putmem(s, prefix, npre);
    if (zpad)
        gp_putn(s, '0', pad);
    gp_putn(s, '0', zeros);
    while (nd > 0)
        gp_put(s, dig[--nd]);
    if (sp->left)
        gp_putn(s, ' ', pad);
}

/* ---- strings ----------------------------------------------------------- */

GPUMPI_FN static void gp_fmt_str(gp_sink *s, const gp_spec *sp, const char *str)
{
    long n = 0;
    if (!str) {
        /* glibc prints "(null)" only if the precision leaves room for it. */
        str = (sp->prec < 0 || sp->prec >= 6) ? "(null)" : "";
    }
    while ((sp->prec < 0 || n < sp->prec) && str[n])
        n++;
    long pad = gp_padlen(sp, n);
    /* glibc pads strings and characters with spaces even with '0'. */
    if (!sp->left)
        gp_putn(s, ' ', pad);
    gp_putmem(s, str, n);
    if (sp->left)
        gp_putn(s, ' ', pad);
}

/* %ls: in the "C" locale (the only one here) a wide character converts to
 * one byte if it is ASCII; anything else is an encoding error (-1), as with
 * glibc's wcrtomb in that locale. The precision counts bytes. */
GPUMPI_FN static int gp_fmt_wstr(gp_sink *s, const gp_spec *sp, const wchar_t *ws)
{
    if (!ws) {
        gp_fmt_str(s, sp, 0);
        return 0;
    }
    long n = 0;
    while ((sp->prec < 0 || n < sp->prec) && ws[n]) {
        if ((uint32_t)ws[n] > 0x7f)
            return -1;
        n++;
    }
    long pad = gp_padlen(sp, n);
    if (!sp->left)
        gp_putn(s, ' ', pad);
    for (long i = 0; i < n; i++)
        gp_put(s, (char)ws[i]);
    if (sp->left)
        gp_putn(s, ' ', pad);
    return 0;
}

GPUMPI_FN static void gp_fmt_char(gp_sink *s, const gp_spec *sp, char c)
{
    long pad = gp_padlen(sp, 1); /* the precision does not apply to %c */
    if (!sp->left)
        gp_putn(s, ' ', pad);
    gp_put(s, c);
    if (sp->left)
        gp_putn(s, ' ', pad);
}

/* ---- exact decimal digits of m * 2^e2 ----------------------------------- */

typedef struct gp_dgen {
    uint32_t w[GP_BIGW]; /* big integer part (base 10^9, little-endian) or fraction bits */
    uint32_t il[3];      /* the integer part when it fits in 64 bits (base 10^9) */
    int big;             /* integer part is in w (then the fraction is zero) */
    int nint;            /* integer limbs (>= 1; the integer 0 is one limb "0") */
    int topdigits;       /* decimal digits in the top integer limb */
    int next_int;        /* next integer limb to hand out; -1 once all are out */
    int flo, fw;         /* fraction = w[0..fw) / 2^(32*fw); w[flo] is its lowest
                          * non-zero word, flo == fw when the fraction is 0 */
    uint32_t cur;        /* the digits of the current limb not handed out yet */
    uint32_t div;        /* 10^(digits left in cur - 1); 0 when cur is used up */
    int pend;            /* a pushed-back digit + 1, or 0 */
    long intdigits;      /* decimal digits of the integer part (>= 1) */
} gp_dgen;

GPUMPI_FN static GP_NOINLINE void gp_dgen_init(gp_dgen *g, uint64_t m, int e2)
{
    int i;
    /* Drop trailing zero bits: a shorter fraction is less work. */
    if (m == 0)
        e2 = 0;
    else
        while (!(m & 1)) {
            m >>= 1;
            e2++;
        }
    g->cur = 0;
    g->div = 0;
    g->pend = 0;
    g->flo = g->fw = 0;
    const uint32_t *limbs;
    if (e2 >= 0) {
        /* An integer: m in base 10^9, then doubled e2 times, 29 at a time
         * (a limb < 2^30 shifted by 29 still fits in 64 bits with carry). */
        uint32_t *d = g->w;
        int n = 0;
        do {
            d[n++] = (uint32_t)(m % GP_E9);
            m /= GP_E9;
        } while (m);
        while (e2 > 0) {
            int sh = e2 < 29 ? e2 : 29;
            e2 -= sh;
            uint64_t carry = 0;
            for (i = 0; i < n; i++) {
                uint64_t t = ((uint64_t)d[i] << sh) + carry;
                d[i] = (uint32_t)(t % GP_E9);
                carry = t / GP_E9;
            }
            while (carry && n < GP_BIGW) {
                d[n++] = (uint32_t)(carry % GP_E9);
                carry /= GP_E9;
            }
        }
        g->big = 1;
        g->nint = n;
        limbs = d;
    } else {
        int k = -e2; /* fraction bits */
        uint64_t ip = k < 64 ? m >> k : 0;
        uint64_t f = k < 64 ? m & ((1ull << k) - 1) : m;
        int n = 0;
        do {
            g->il[n++] = (uint32_t)(ip % GP_E9);
            ip /= GP_E9;
        } while (ip);
        g->big = 0;
        g->nint = n;
        limbs = g->il;
        /* Align the fraction to whole words: f / 2^k = (f << sh) / 2^(32*W). */
        int W = (k + 31) / 32, sh = 32 * W - k;
        for (i = 0; i < W; i++)
            g->w[i] = 0;
        uint64_t lo = f << sh;
        g->w[0] = (uint32_t)lo;
        if (W > 1)
            g->w[1] = (uint32_t)(lo >> 32);
        if (W > 2 && sh)
            g->w[2] = (uint32_t)(f >> (64 - sh));
        g->fw = W;
        g->flo = 0;
        while (g->flo < W && g->w[g->flo] == 0)
            g->flo++;
    }
    uint32_t top = limbs[g->nint - 1];
    g->topdigits = 1;
    while (top >= 10) {
        top /= 10;
        g->topdigits++;
    }
    g->next_int = g->nint - 1;
    g->intdigits = g->topdigits + 9L * (g->nint - 1);
}

/* Every digit from here on is 0. */
GPUMPI_FN static int gp_dgen_done(const gp_dgen *g)
{
    return g->pend == 0 && g->cur == 0 && g->next_int < 0 && g->flo >= g->fw;
}

/* Some digit after the ones handed out so far is non-zero (the sticky bit). */
GPUMPI_FN static int gp_dgen_more(const gp_dgen *g)
{
    if (g->pend > 1 || g->cur)
        return 1;
    const uint32_t *limbs = g->big ? g->w : g->il;
    for (int i = g->next_int; i >= 0; i--)
        if (limbs[i])
            return 1;
    return g->flo < g->fw;
}

/* The next decimal digit: integer digits first, then the fraction's, then
 * zeros for ever. */
GPUMPI_FN static GP_NOINLINE int gp_dgen_next(gp_dgen *g)
{
    if (g->pend) {
        int d = g->pend - 1;
        g->pend = 0;
        return d;
    }
    if (g->div == 0) {
        if (g->next_int >= 0) {
            const uint32_t *limbs = g->big ? g->w : g->il;
            int nd = g->next_int == g->nint - 1 ? g->topdigits : 9;
            g->cur = limbs[g->next_int--];
            g->div = 1;
            while (--nd > 0)
                g->div *= 10;
        } else {
            /* Next 9 fraction digits: the word that carries out of f * 10^9. */
            uint64_t carry = 0;
            for (int i = g->flo; i < g->fw; i++) {
                uint64_t t = (uint64_t)g->w[i] * GP_E9 + carry;
                g->w[i] = (uint32_t)t;
                carry = t >> 32;
            }
            while (g->flo < g->fw && g->w[g->flo] == 0)
                g->flo++;
            g->cur = (uint32_t)carry;
            g->div = 100000000u;
        }
    }
    int d = (int)(g->cur / g->div);
    g->cur -= (uint32_t)d * g->div;
    g->div /= 10;
    return d;
}

/* Skips the leading zeros of a non-zero value; returns how many. */
GPUMPI_FN static long gp_dgen_skip0(gp_dgen *g)
{
    long z = 0;
    for (;;) {
        int d = gp_dgen_next(g);
        if (d) {
            g->pend = d + 1;
            return z;
        }
        z++;
    }
}

/* What rounding to nkeep digits does. */
typedef struct gp_rnd {
    long last_non9; /* index of the last kept digit that is not 9; -1: all are 9 */
    long last_nz;   /* index of the last non-zero kept digit; -1: none */
    int up;         /* round up (add one at the last kept digit) */
} gp_rnd;

GPUMPI_FN static GP_NOINLINE void gp_scan(gp_dgen *g, long nkeep, gp_rnd *r)
{
    int d = 0, last = 0;
    r->last_non9 = -1;
    r->last_nz = -1;
    r->up = 0;
    for (long i = 0; i < nkeep; i++) {
        if (gp_dgen_done(g)) {
            /* Only zeros remain (large precisions): no rounding. */
            r->last_non9 = nkeep - 1;
            return;
        }
        d = gp_dgen_next(g);
        if (d != 9)
            r->last_non9 = i;
        if (d)
            r->last_nz = i;
        last = d;
    }
    d = gp_dgen_next(g);
    /* Round half to even on the exact value. */
    r->up = d > 5 || (d == 5 && (gp_dgen_more(g) || (last & 1)));
}

/* Prints the a + b rounded digits, with a '.' after the first a if point.
 * carry: the rounding turned 99..9 into 100..0. */
GPUMPI_FN static GP_NOINLINE void gp_emit(gp_sink *s, gp_dgen *g, const gp_rnd *r, int carry, long a, long b,
                              int point)
{
    long n = a + b;
    for (long i = 0; i < n; i++) {
        if (i == a)
            gp_put(s, '.');
        int d;
        if (carry)
            d = i == 0;
        else if (!r->up || i < r->last_non9)
            d = gp_dgen_next(g);
        else if (i == r->last_non9)
            d = gp_dgen_next(g) + 1;
        else
            d = 0;
        gp_put(s, (char)('0' + d));
    }
    if (point && b == 0)
        gp_put(s, '.');
}

/* %f %e %g (kind 'f', 'e', 'g') of m * 2^e2. sign: 0 or the sign character. */
GPUMPI_FN static GP_NOINLINE void gp_fmt_dec(gp_sink *s, const gp_spec *sp, char sign, uint64_t m, int e2,
                                 int kind, int upper)
{
    gp_dgen g;
    gp_rnd r;
    long prec = sp->prec < 0 ? 6 : sp->prec;
    long e10 = 0, nkeep, a, b;
    int carry, trim = 0, glibc_1dot = 0;

    if (kind == 'g') {
        /* P significant digits; X = the exponent %e would print with P-1;
         * %f with P-1-X decimals if P > X >= -4, else %e with P-1; then
         * trailing fraction zeros go unless '#'. */
        long P = prec == 0 ? 1 : prec, X = 0;
        if (m) {
            gp_dgen_init(&g, m, e2);
            X = g.intdigits - 1 - gp_dgen_skip0(&g);
            gp_scan(&g, P, &r);
            if (r.up && r.last_non9 < 0) {
                /* glibc quirk: it picks the style before rounding; when
                 * all P digits were integer digits (X == P-1) and rounding
                 * carries into a new one, its switch to %e style loses the
                 * fraction digits that '#' keeps: %#.3g of 999.5 is
                 * "1.e+03", not "1.00e+03". */
                glibc_1dot = sp->alt && X == P - 1;
                X++;
            }
        }
        if (P > X && X >= -4) {
            kind = 'f';
            prec = P - 1 - X;
        } else {
            kind = 'e';
            prec = P - 1;
        }
        trim = !sp->alt;
    }

    /* Pass 1: where the rounding lands. */
    gp_dgen_init(&g, m, e2);
    if (kind == 'e') {
        if (m)
            e10 = g.intdigits - 1 - gp_dgen_skip0(&g);
        nkeep = prec + 1;
    } else {
        nkeep = g.intdigits + prec;
    }
    gp_scan(&g, nkeep, &r);
    carry = r.up && r.last_non9 < 0;
    if (kind == 'e') {
        a = 1;
        e10 += carry;
    } else {
        a = g.intdigits + carry;
    }
    b = glibc_1dot ? 0 : prec;
    if (trim) {
        long lnz = carry ? 0 : r.up ? r.last_non9 : r.last_nz;
        long fb = lnz + 1 - a;
        if (fb < 0)
            fb = 0;
        if (fb < b)
            b = fb;
    }
    int point = b > 0 || sp->alt;

    char ebuf[8]; /* "e+308" */
    int elen = 0;
    if (kind == 'e') {
        long ae = e10 < 0 ? -e10 : e10;
        char t[6];
        int nt = 0;
        do {
            t[nt++] = (char)('0' + ae % 10);
            ae /= 10;
        } while (ae);
        if (nt < 2)
            t[nt++] = '0';
        ebuf[elen++] = upper ? 'E' : 'e';
        ebuf[elen++] = e10 < 0 ? '-' : '+';
        while (nt > 0)
            ebuf[elen++] = t[--nt];
    }

    long len = (sign != 0) + a + point + b + elen;
    long pad = gp_padlen(sp, len);
    int zpad = sp->zero && !sp->left;
    if (!sp->left && !zpad)
        gp_putn(s, ' ', pad);
    if (sign)
        gp_put(s, sign);
    if (zpad)
        gp_putn(s, '0', pad);

    /* Pass 2: print. */
    gp_dgen_init(&g, m, e2);
    if (kind == 'e' && m)
        gp_dgen_skip0(&g);
    gp_emit(s, &g, &r, carry, a, b, point);
    gp_putmem(s, ebuf, elen);
    if (sp->left)
        gp_putn(s, ' ', pad);
}

/* %a: glibc style, "0x1.8p+1"; denormals as "0x0.0000000000001p-1022". */
GPUMPI_FN static void gp_fmt_hex(gp_sink *s, const gp_spec *sp, char sign, int ex, uint64_t frac,
                                 int upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int lead = ex != 0;
    int e = ex == 0 ? (frac ? -1022 : 0) : ex - 1023;
    /* Without a precision: as many hex digits as the fraction needs. */
    int nd = 0;
    if (frac) {
        uint64_t f = frac;
        nd = 13;
        while (!(f & 15)) {
            f >>= 4;
            nd--;
        }
    }
    long prec = sp->prec < 0 ? nd : sp->prec;
    uint64_t q = frac; /* the printed fraction digits (up to 13) */
    int nq = 13;
    if (prec < 13) {
        /* Round to prec hex digits, half to even (glibc's round_away). */
        int drop = 4 * (13 - (int)prec);
        uint64_t rest = frac & ((1ull << drop) - 1), half = 1ull << (drop - 1);
        q = frac >> drop;
        nq = (int)prec;
        int odd = prec > 0 ? (int)(q & 1) : lead & 1;
        if (rest > half || (rest == half && odd)) {
            q++;
            if (q >> (4 * prec)) { /* 0xf.ff -> 0x10.00: into the lead digit */
                lead++;
                q = 0;
            }
        }
    }
    char ebuf[8]; /* "p+1023" */
    int elen = 0;
    {
        int ae = e < 0 ? -e : e;
        char t[6];
        int nt = 0;
        do {
            t[nt++] = (char)('0' + ae % 10);
            ae /= 10;
        } while (ae);
        ebuf[elen++] = upper ? 'P' : 'p';
        ebuf[elen++] = e < 0 ? '-' : '+';
        while (nt > 0)
            ebuf[elen++] = t[--nt];
    }
    int point = prec > 0 || sp->alt;
    long len = (sign != 0) + 2 + 1 + point + prec + elen;
    long pad = gp_padlen(sp, len);
    int zpad = sp->zero && !sp->left;
    if (!sp->left && !zpad)
        gp_putn(s, ' ', pad);
    if (sign)
        gp_put(s, sign);
    gp_put(s, '0');
    gp_put(s, upper ? 'X' : 'x');
    if (zpad)
        gp_putn(s, '0', pad);
    gp_put(s, digits[lead]);
    if (point)
        gp_put(s, '.');
    for (int i = nq - 1; i >= 0; i--)
        gp_put(s, digits[(q >> (4 * i)) & 15]);
    gp_putn(s, '0', prec - nq); /* precision beyond the 13 digits a double has */
    gp_putmem(s, ebuf, elen);
    if (sp->left)
        gp_putn(s, ' ', pad);
}

GPUMPI_FN static void gp_fmt_fp(gp_sink *s, const gp_spec *sp, double x, int conv)
{
    union {
        double d;
        uint64_t u;
    } bits;
    bits.d = x;
    int neg = (int)(bits.u >> 63);
    int ex = (int)((bits.u >> 52) & 0x7ff);
    uint64_t frac = bits.u & 0xfffffffffffffull;
    int upper = conv == 'F' || conv == 'E' || conv == 'G' || conv == 'A';
    char sign = neg ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;

    if (ex == 0x7ff) {
        /* inf/nan: glibc pads with spaces even with '0'; nan keeps its sign. */
        const char *t = frac ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        long pad = gp_padlen(sp, (sign != 0) + 3);
        if (!sp->left)
            gp_putn(s, ' ', pad);
        if (sign)
            gp_put(s, sign);
        gp_putmem(s, t, 3);
        if (sp->left)
            gp_putn(s, ' ', pad);
        return;
    }
    if (conv == 'a' || conv == 'A') {
        gp_fmt_hex(s, sp, sign, ex, frac, upper);
        return;
    }
    uint64_t m = ex ? frac | (1ull << 52) : frac;
    int e2 = ex ? ex - 1075 : -1074;
    int kind = conv | 0x20; /* 'f', 'e' or 'g' */
    gp_fmt_dec(s, sp, sign, m, e2, kind, upper);
}

/* ---- the conversion loop ----------------------------------------------- */

/* ---- arguments: in order from the va_list, or by position ------------- */

/* glibc's NL_ARGMAX is 4096; a GPU thread's stack is small, so positional
 * formats may name arguments 1 to GP_ARGMAX (more: the call returns -1) */
#define GP_ARGMAX 64

typedef union gp_argval {
    long long i; /* every integer, sign-extended from its own type */
    double d;
    long double ld;
    void *p;
} gp_argval;

enum { GP_K_NONE, GP_K_INT, GP_K_LONG, GP_K_DOUBLE, GP_K_LDOUBLE, GP_K_PTR };

typedef struct gp_args {
    va_list *ap;     /* in order (vals == 0) */
    gp_argval *vals; /* by position: every argument fetched beforehand */
    int next;        /* a spec without n$ in a positional format takes the next one */
} gp_args;

/* the argument of type T for a spec (pos: 0-based, -1 when not numbered) */
#define GP_ARG(T, member, pos) \
    (a->vals ? (T)a->vals[(pos) >= 0 ? (pos) : a->next++].member : va_arg(*a->ap, T))

/* "n$" at p (n >= 1): returns n and moves p past it; else 0, p unchanged */
GPUMPI_FN static int gp_posnum(const char **pp)
{
    const char *p = *pp;
    if (*p < '1' || *p > '9') return 0;
    long n = 0;
    while (*p >= '0' && *p <= '9') {
        n = n * 10 + (*p++ - '0');
        if (n > 2147483647) return 0;
    }
    if (*p != '$') return 0;
    *pp = p + 1;
    return (int)n;
}

/* %m: strerror(errno), formatted like %s */
GPUMPI_FN static void gp_fmt_errno(gp_sink *s, const gp_spec *sp);

/* Out of line so the four wrappers below do not each get a copy. */
GPUMPI_FN static GP_NOINLINE int gp_vformat_args(gp_sink *s, const char *fmt, gp_args *a)
{
    size_t start = s->total;
    const char *p = fmt;
    /* glibc finishes a format in its positional-argument code once it met
     * an unknown conversion; only there is a spec cut off by the end of the
     * format echoed rather than an error. */
    int unknown_seen = 0;

    while (*p) {
        if (*p != '%') {
            gp_put(s, *p++);
            continue;
        }
        p++;
        int argpos = gp_posnum(&p) - 1; /* -1: the next argument */
        gp_spec sp;
        sp.left = sp.plus = sp.space = sp.alt = sp.zero = sp.group = sp.i18n = 0;
        sp.width = 0;
        sp.prec = -1;

        /* flags; ' (grouping) and I (locale digits) do nothing in "C" */
        for (;; p++) {
            if (*p == '-')
                sp.left = 1;
            else if (*p == '+')
                sp.plus = 1;
            else if (*p == ' ')
                sp.space = 1;
            else if (*p == '#')
                sp.alt = 1;
            else if (*p == '0')
                sp.zero = 1;
            else if (*p == '\'')
                sp.group = 1;
            else if (*p == 'I')
                sp.i18n = 1;
            else
                break;
        }
        /* width */
        if (*p == '*') {
            p++;
            int wpos = gp_posnum(&p) - 1;
            int w = GP_ARG(int, i, wpos);
            if (w < 0) {
                if (w == -2147483647 - 1)
                    return -1; /* -INT_MIN overflows: glibc's EOVERFLOW */
                sp.left = 1;
                w = -w;
            }
            sp.width = w;
        } else {
            while (*p >= '0' && *p <= '9') {
                if (sp.width > (2147483647 - (*p - '0')) / 10)
                    return -1; /* over INT_MAX: glibc's EOVERFLOW */
                sp.width = sp.width * 10 + (*p++ - '0');
            }
            if (*p == '$')
                return -1; /* n$ after flags */
        }
        /* precision; a negative one from '*' counts as not given */
        if (*p == '.') {
            p++;
            if (*p == '*') {
                p++;
                int ppos = gp_posnum(&p) - 1;
                int pr = GP_ARG(int, i, ppos);
                sp.prec = pr < 0 ? -1 : pr;
            } else {
                sp.prec = 0;
                while (*p >= '0' && *p <= '9') {
                    if (sp.prec > (2147483647 - (*p - '0')) / 10)
                        return -1;
                    sp.prec = sp.prec * 10 + (*p++ - '0');
                }
            }
        }
        /* length modifier */
        int len = GP_LEN_NONE;
        switch (*p) {
        case 'h':
            p++;
            len = GP_LEN_H;
            if (*p == 'h') {
                p++;
                len = GP_LEN_HH;
            }
            break;
        case 'l':
            p++;
            len = GP_LEN_L;
            if (*p == 'l') {
                p++;
                len = GP_LEN_LL;
            }
            break;
        case 'q': p++; len = GP_LEN_LL; break;
        case 'L': p++; len = GP_LEN_BIGL; break;
        case 'j': p++; len = GP_LEN_J; break;
        case 'z':
        case 'Z': p++; len = GP_LEN_Z; break;
        case 't': p++; len = GP_LEN_T; break;
        default: break;
        }
        /* As in glibc: every modifier of 64-bit size also makes %c/%s wide
         * (glibc's is_long), and ll/q/L make a float argument long double. */
        int wide = len == GP_LEN_L || len == GP_LEN_LL || len == GP_LEN_BIGL || len == GP_LEN_J ||
                   len == GP_LEN_Z || len == GP_LEN_T;
        int ldbl = len == GP_LEN_LL || len == GP_LEN_BIGL;

        char conv = *p;
        if (conv)
            p++;
        switch (conv) {
        case 'd':
        case 'i': {
            long long v;
            switch (len) {
            case GP_LEN_HH: v = (signed char)GP_ARG(int, i, argpos); break;
            case GP_LEN_H: v = (short)GP_ARG(int, i, argpos); break;
            case GP_LEN_L: v = GP_ARG(long, i, argpos); break;
            case GP_LEN_LL:
            case GP_LEN_BIGL: v = GP_ARG(long long, i, argpos); break;
            case GP_LEN_J: v = GP_ARG(intmax_t, i, argpos); break;
            case GP_LEN_Z: /* ssize_t */
            case GP_LEN_T: v = GP_ARG(ptrdiff_t, i, argpos); break;
            default: v = GP_ARG(int, i, argpos); break;
            }
            unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            gp_fmt_int(s, &sp, u, v < 0, 1, 10, 0, 0);
            break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X':
        case 'b':
        case 'B': {
            unsigned long long u;
            switch (len) {
            case GP_LEN_HH: u = (unsigned char)GP_ARG(unsigned int, i, argpos); break;
            case GP_LEN_H: u = (unsigned short)GP_ARG(unsigned int, i, argpos); break;
            case GP_LEN_L: u = GP_ARG(unsigned long, i, argpos); break;
            case GP_LEN_LL:
            case GP_LEN_BIGL: u = GP_ARG(unsigned long long, i, argpos); break;
            case GP_LEN_J: u = GP_ARG(uintmax_t, i, argpos); break;
            case GP_LEN_Z: u = GP_ARG(size_t, i, argpos); break;
            case GP_LEN_T: u = (unsigned long long)GP_ARG(ptrdiff_t, i, argpos); break;
            default: u = GP_ARG(unsigned int, i, argpos); break;
            }
            unsigned base = conv == 'u' ? 10 : conv == 'o' ? 8 : (conv == 'b' || conv == 'B') ? 2 : 16;
            const char *prefix = 0;
            if (sp.alt && u != 0) { /* "0x" only for non-zero values */
                if (conv == 'x')
                    prefix = "0x";
                else if (conv == 'X')
                    prefix = "0X";
                else if (conv == 'b')
                    prefix = "0b";
                else if (conv == 'B')
                    prefix = "0B";
            }
            gp_fmt_int(s, &sp, u, 0, 0, base, conv == 'X', prefix);
            break;
        }
        case 'p': {
            /* glibc: %#x of the address (flags + and space still apply),
             * "(nil)" as a string for NULL. */
            void *ptr = GP_ARG(void *, p, argpos);
            if (ptr) {
                gp_fmt_int(s, &sp, (unsigned long long)(uintptr_t)ptr, 0, 1, 16, 0, "0x");
            } else {
                if (sp.prec >= 0 && sp.prec < 5)
                    sp.prec = 5;
                gp_fmt_str(s, &sp, "(nil)");
            }
            break;
        }
        case 'c':
        case 'C':
            if (wide || conv == 'C') {
                /* wint_t is unsigned int on Linux */
                unsigned int wc = GP_ARG(unsigned int, i, argpos);
                if (wc > 0x7f)
                    return -1;
                gp_fmt_char(s, &sp, (char)wc);
            } else {
                gp_fmt_char(s, &sp, (char)(unsigned char)GP_ARG(int, i, argpos));
            }
            break;
        case 's':
        case 'S':
            if (wide || conv == 'S') {
                if (gp_fmt_wstr(s, &sp, GP_ARG(const wchar_t *, p, argpos)) < 0)
                    return -1;
            } else {
                gp_fmt_str(s, &sp, GP_ARG(const char *, p, argpos));
            }
            break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            double x;
            if (ldbl) {
#if defined(GPUMPI_CUDA)
                /* In device code long double is double. */
                x = GP_ARG(double, d, argpos);
#else
                /* Host (threads backend): the caller passed a real long
                 * double. It is rounded to double and printed as such, so
                 * both backends print the same; glibc would print the extra
                 * precision/range and, for %La, x87-style "0x8p-3". */
                x = (double)GP_ARG(long double, ld, argpos);
#endif
            } else {
                x = GP_ARG(double, d, argpos);
            }
            gp_fmt_fp(s, &sp, x, conv);
            break;
        }
        case 'n': {
            size_t n = s->total - start;
            void *dst = GP_ARG(void *, p, argpos);
            switch (len) {
            case GP_LEN_HH: *(signed char *)dst = (signed char)n; break;
            case GP_LEN_H: *(short *)dst = (short)n; break;
            case GP_LEN_L: *(long *)dst = (long)n; break;
            case GP_LEN_LL:
            case GP_LEN_BIGL: *(long long *)dst = (long long)n; break;
            case GP_LEN_J: *(intmax_t *)dst = (intmax_t)n; break;
            case GP_LEN_Z: *(size_t *)dst = n; break;
            case GP_LEN_T: *(ptrdiff_t *)dst = (ptrdiff_t)n; break;
            default: *(int *)dst = (int)n; break;
            }
            break;
        }
        case '%':
            gp_put(s, '%'); /* glibc ignores flags and width here */
            break;
        case 'm':
            gp_fmt_errno(s, &sp);
            break;
        default:
            if (!conv && !unknown_seen)
                return -1; /* the format ends inside a spec: glibc's EINVAL */
            gp_unknown(s, &sp, conv);
            unknown_seen = 1;
            break;
        }
    }
    size_t total = s->total - start;
    return total > 2147483647u ? -1 : (int)total;
}

/* The kind of argument a conversion takes (pass 1 of a positional format). */
GPUMPI_FN static int gp_kind(char conv, int len)
{
    int ldbl = len == GP_LEN_LL || len == GP_LEN_BIGL;
    switch (conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'b': case 'B':
        return len == GP_LEN_NONE || len == GP_LEN_H || len == GP_LEN_HH ? GP_K_INT : GP_K_LONG;
    case 'c': case 'C': return GP_K_INT;
    case 's': case 'S': case 'p': case 'n': return GP_K_PTR;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        return ldbl ? GP_K_LDOUBLE : GP_K_DOUBLE;
    default: return GP_K_NONE;
    }
}

GPUMPI_FN static int gp_note_kind(unsigned char *kinds, int *nargs, int pos, int kind)
{
    if (pos < 0 || pos >= GP_ARGMAX) return -1;
    kinds[pos] = (unsigned char)kind;
    if (pos + 1 > *nargs) *nargs = pos + 1;
    return 0;
}

/* A format with n$ in it: glibc's all-or-nothing, every argument's type
 * taken from the specs that name it, fetched in order 1..n, then formatted
 * from the table. Out of line: only such formats pay for the table. */
GPUMPI_FN static GP_NOINLINE int gp_vformat_positional(gp_sink *s, const char *fmt, va_list *ap)
{
    unsigned char kinds[GP_ARGMAX];
    gp_argval vals[GP_ARGMAX];
    int nargs = 0, next = 0;
    for (int i = 0; i < GP_ARGMAX; i++) kinds[i] = GP_K_NONE;
    for (const char *p = fmt; *p;) {
        if (*p++ != '%') continue;
        if (*p == '%') {
            p++;
            continue;
        }
        int pos = gp_posnum(&p) - 1;
        while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0' || *p == '\'' || *p == 'I') p++;
        if (*p == '*') {
            p++;
            int w = gp_posnum(&p) - 1;
            if (gp_note_kind(kinds, &nargs, w >= 0 ? w : next++, GP_K_INT)) return -1;
        } else
            while (*p >= '0' && *p <= '9') p++;
        if (*p == '.') {
            p++;
            if (*p == '*') {
                p++;
                int pr = gp_posnum(&p) - 1;
                if (gp_note_kind(kinds, &nargs, pr >= 0 ? pr : next++, GP_K_INT)) return -1;
            } else
                while (*p >= '0' && *p <= '9') p++;
        }
        int len = GP_LEN_NONE;
        if (*p == 'h') len = p[1] == 'h' ? (p++, GP_LEN_HH) : GP_LEN_H;
        else if (*p == 'l') len = p[1] == 'l' ? (p++, GP_LEN_LL) : GP_LEN_L;
        else if (*p == 'q' || *p == 'L') len = GP_LEN_BIGL;
        else if (*p == 'j') len = GP_LEN_J;
        else if (*p == 'z' || *p == 'Z') len = GP_LEN_Z;
        else if (*p == 't') len = GP_LEN_T;
        if (len != GP_LEN_NONE) p++;
        int kind = gp_kind(*p, len);
        if (*p) p++;
        if (kind != GP_K_NONE && gp_note_kind(kinds, &nargs, pos >= 0 ? pos : next++, kind)) return -1;
    }
    for (int i = 0; i < nargs; i++) {
        switch (kinds[i]) {
        case GP_K_LONG: vals[i].i = va_arg(*ap, long); break;
        case GP_K_DOUBLE: vals[i].d = va_arg(*ap, double); break;
#if defined(GPUMPI_CUDA)
        case GP_K_LDOUBLE: vals[i].ld = va_arg(*ap, double); break;
#else
        case GP_K_LDOUBLE: vals[i].ld = va_arg(*ap, long double); break;
#endif
        case GP_K_PTR: vals[i].p = va_arg(*ap, void *); break;
        default: vals[i].i = va_arg(*ap, int); break; /* int, or a gap: glibc takes an int too */
        }
    }
    gp_args a = {ap, vals, 0};
    return gp_vformat_args(s, fmt, &a);
}

/* Does the format number its arguments (a spec starting with n$)? */
GPUMPI_FN static int gp_is_positional(const char *p)
{
    for (; *p; p++) {
        if (*p != '%') continue;
        p++;
        if (*p == '%') continue;
        if (gp_posnum(&p)) return 1;
        if (!*p) break;
    }
    return 0;
}

GPUMPI_FN int gp_vformat(gp_sink *s, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int r;
    if (gp_is_positional(fmt)) {
        r = gp_vformat_positional(s, fmt, &cp);
    } else {
        gp_args a = {&cp, 0, 0};
        r = gp_vformat_args(s, fmt, &a);
    }
    va_end(cp);
    return r;
}

GPUMPI_FN static void gp_fmt_errno(gp_sink *s, const gp_spec *sp)
{
    int e = *gp_errno_location();
    const char *m = gp_errmsg(e);
    char buf[32];
    if (!m) {
        /* "Unknown error N" without calling the formatter again */
        char digits[12];
        int n = 0;
        unsigned u = e < 0 ? 0u - (unsigned)e : (unsigned)e;
        do digits[n++] = (char)('0' + u % 10); while ((u /= 10) != 0);
        const char *t = "Unknown error ";
        int k = 0;
        while (*t) buf[k++] = *t++;
        if (e < 0) buf[k++] = '-';
        while (n) buf[k++] = digits[--n];
        buf[k] = 0;
        m = buf;
    }
    gp_fmt_str(s, sp, m);
}

/* ---- the C library entry points ---------------------------------------- */

GPUMPI_FN int gp_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    gp_sink s;
    s.buf = buf;
    s.cap = n ? n - 1 : 0; /* room for the NUL */
    s.len = 0;
    s.total = 0;
    s.drain = 0;
    s.ctx = 0;
    int r = gp_vformat(&s, fmt, ap);
    if (n)
        buf[s.len] = 0;
    return r;
}

GPUMPI_VARIADIC_FN int gp_snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = gp_vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

GPUMPI_FN int gp_vsprintf(char *buf, const char *fmt, va_list ap)
{
    gp_sink s;
    s.buf = buf;
    s.cap = ((size_t)-1) >> 1; /* unbounded, like sprintf */
    s.len = 0;
    s.total = 0;
    s.drain = 0;
    s.ctx = 0;
    int r = gp_vformat(&s, fmt, ap);
    buf[s.len] = 0;
    return r;
}

GPUMPI_VARIADIC_FN int gp_sprintf(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = gp_vsprintf(buf, fmt, ap);
    va_end(ap);
    return r;
}
