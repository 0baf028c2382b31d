/* The scanf-family core (scan.h). Each field is read into a small buffer
 * with one byte of lookahead, then converted by the same strtol/strtod the
 * C library exports, so scanf and strtod agree on every number. */
#include "gpumpi/scan.h"
#include "gpumpi/shim_ctype.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include <wchar.h>

/* gp_vscan is called through three wrappers: one copy out of line. */
#if defined(GPUMPI_CUDA)
#define GP_SCAN_NOINLINE __noinline__
#else
#define GP_SCAN_NOINLINE __attribute__((noinline))
#endif

#define GP_FIELD 400 /* bytes of one numeric field kept for conversion */

typedef struct gp_reader {
    gp_scan_src *src;
    int look;  /* the byte read ahead, -1 at the end, -2 none */
    long used; /* bytes consumed (%n) */
} gp_reader;

GPUMPI_FN static int gp_peek(gp_reader *r)
{
    if (r->look == -2) r->look = r->src->getc(r->src->ctx);
    return r->look;
}

GPUMPI_FN static int gp_take(gp_reader *r)
{
    int c = gp_peek(r);
    if (c >= 0) {
        r->used++;
        r->look = -2;
    }
    return c;
}

GPUMPI_FN static void gp_skip_space(gp_reader *r)
{
    while (gp_peek(r) >= 0 && gp_isspace(gp_peek(r))) gp_take(r);
}

/* A field buffer that takes bytes while the width allows. */
typedef struct gp_field {
    char buf[GP_FIELD];
    int n;
    long width; /* bytes still allowed */
} gp_field;

/* Takes the next byte into f if it is one of `set` (case-insensitive for
 * letters) and the width allows; returns it, or 0. */
GPUMPI_FN static int gp_accept(gp_reader *r, gp_field *f, const char *set)
{
    if (f->width <= 0) return 0;
    int c = gp_peek(r);
    if (c < 0) return 0;
    int lc = gp_tolower(c);
    for (const char *s = set; *s; s++)
        if (*s == lc) {
            gp_take(r);
            f->width--;
            if (f->n < GP_FIELD - 1) f->buf[f->n++] = (char)c;
            return c;
        }
    return 0;
}

GPUMPI_FN static int gp_accept_word(gp_reader *r, gp_field *f, const char *word)
{
    char one[2] = {0, 0};
    for (; *word; word++) {
        one[0] = *word;
        if (!gp_accept(r, f, one)) return 0;
    }
    return 1;
}

/* An integer field in base (0: C prefixes); 1 if digits were read. */
GPUMPI_FN static int gp_scan_int(gp_reader *r, gp_field *f, int base)
{
    gp_accept(r, f, "+-");
    int digits = 0;
    if ((base == 0 || base == 16) && gp_accept(r, f, "0")) {
        digits = 1;
        if (gp_accept(r, f, "x")) base = 16;
        else if (base == 0) base = 8;
    }
    if (base == 0) base = 10;
    const char *set = base == 16 ? "0123456789abcdef" : base == 8 ? "01234567" : "0123456789";
    while (gp_accept(r, f, set)) digits = 1;
    f->buf[f->n] = 0;
    return digits;
}

/* A floating-point field: decimal, hex, inf, infinity, nan, nan(...).
 * Returns 1 if it holds a whole number. */
GPUMPI_FN static int gp_scan_float(gp_reader *r, gp_field *f)
{
    gp_accept(r, f, "+-");
    int c = gp_peek(r);
    if (c >= 0 && gp_tolower(c) == 'i') {
        if (!gp_accept_word(r, f, "inf")) return 0;
        if (gp_accept(r, f, "i") && !gp_accept_word(r, f, "nity")) return 0;
        f->buf[f->n] = 0;
        return 1;
    }
    if (c >= 0 && gp_tolower(c) == 'n') {
        if (!gp_accept_word(r, f, "nan")) return 0;
        int n = f->n; /* glibc's scanf drops the payload of nan(...) */
        if (gp_accept(r, f, "(")) {
            while (gp_accept(r, f, "0123456789abcdefghijklmnopqrstuvwxyz_")) {
            }
            gp_accept(r, f, ")"); /* the nan stands even without it */
        }
        f->n = n;
        f->buf[f->n] = 0;
        return 1;
    }
    const char *digits = "0123456789";
    const char *expch = "e";
    int any = 0;
    if (gp_accept(r, f, "0")) {
        any = 1;
        if (gp_accept(r, f, "x")) {
            digits = "0123456789abcdef";
            expch = "p";
            any = 0;
            if (f->width == 0 && r->look == -2) {
                /* the width ends the field at "0x": glibc gives the 0 back
                 * the 'x' (the one byte we may push back) */
                r->look = f->buf[--f->n];
                r->used--;
                any = 1;
            }
        }
    }
    while (gp_accept(r, f, digits)) any = 1;
    if (gp_accept(r, f, "."))
        while (gp_accept(r, f, digits)) any = 1;
    if (!any) return 0;
    /* "1e" and "1e+" still give 1 (glibc converts what it took) */
    if (gp_accept(r, f, expch)) {
        gp_accept(r, f, "+-");
        while (gp_accept(r, f, "0123456789")) {
        }
    }
    f->buf[f->n] = 0;
    return 1;
}

enum { GP_L_NONE, GP_L_HH, GP_L_H, GP_L_L, GP_L_LL, GP_L_BIGL, GP_L_J, GP_L_Z, GP_L_T };

GPUMPI_FN static void gp_store_int(void *p, int len, unsigned long long v)
{
    switch (len) {
    case GP_L_HH: *(signed char *)p = (signed char)v; break;
    case GP_L_H: *(short *)p = (short)v; break;
    case GP_L_L: *(long *)p = (long)v; break;
    case GP_L_LL:
    case GP_L_BIGL: *(long long *)p = (long long)v; break;
    case GP_L_J: *(intmax_t *)p = (intmax_t)v; break;
    case GP_L_Z: *(size_t *)p = (size_t)v; break;
    case GP_L_T: *(ptrdiff_t *)p = (ptrdiff_t)v; break;
    default: *(int *)p = (int)v; break;
    }
}

/* A %[...] set: the bitmap of accepted bytes; returns the end of the spec
 * (past ']'), or NULL if it has none. */
GPUMPI_FN static const char *gp_scanset(const char *p, uint32_t set[8])
{
    int neg = 0;
    for (int i = 0; i < 8; i++) set[i] = 0;
    if (*p == '^') {
        neg = 1;
        p++;
    }
    int first = 1;
    for (; *p && (*p != ']' || first); p++, first = 0) {
        unsigned char lo = (unsigned char)*p;
        if (p[1] == '-' && p[2] && p[2] != ']' && (unsigned char)p[2] >= lo) { /* a range a-z */
            for (unsigned c = lo; c <= (unsigned char)p[2]; c++) set[c >> 5] |= 1u << (c & 31);
            p += 2;
        } else {
            set[lo >> 5] |= 1u << (lo & 31);
        }
    }
    if (!*p) return 0;
    if (neg)
        for (int i = 0; i < 8; i++) set[i] = ~set[i];
    return p + 1;
}

GPUMPI_FN GP_SCAN_NOINLINE int gp_vscan(gp_scan_src *src, const char *fmt, va_list ap)
{
    gp_reader rd = {src, -2, 0};
    gp_reader *r = &rd;
    int assigned = 0, input_failure = 0;
    const unsigned char *p = (const unsigned char *)fmt;

    while (*p) {
        if (gp_isspace(*p)) {
            while (gp_isspace(*p)) p++;
            gp_skip_space(r);
            continue;
        }
        if (*p != '%' || p[1] == '%') {
            if (*p == '%') {
                p++; /* %% matches '%' after white space, as glibc does */
                gp_skip_space(r);
            }
            int c = gp_peek(r);
            if (c < 0) {
                input_failure = 1;
                break;
            }
            if (c != *p) break;
            gp_take(r);
            p++;
            continue;
        }
        p++;
        int suppress = 0;
        if (*p == '*') {
            suppress = 1;
            p++;
        }
        long width = 0;
        while (*p >= '0' && *p <= '9') width = width * 10 + (*p++ - '0');
        if (*p == '$' || *p == 'm') break; /* positional / allocating: not supported */
        int len = GP_L_NONE;
        switch (*p) {
        case 'h':
            len = GP_L_H;
            if (*++p == 'h') {
                len = GP_L_HH;
                p++;
            }
            break;
        case 'l':
            len = GP_L_L;
            if (*++p == 'l') {
                len = GP_L_LL;
                p++;
            }
            break;
        case 'q': len = GP_L_LL; p++; break;
        case 'L': len = GP_L_BIGL; p++; break;
        case 'j': len = GP_L_J; p++; break;
        case 'z': len = GP_L_Z; p++; break;
        case 't': len = GP_L_T; p++; break;
        default: break;
        }
        int conv = *p++;
        if (!conv) break;
        if (conv == 'n') {
            if (!suppress) gp_store_int(va_arg(ap, void *), len, (unsigned long long)r->used);
            continue;
        }
        if (conv != 'c' && conv != '[') gp_skip_space(r);
        if (gp_peek(r) < 0) {
            input_failure = 1;
            break;
        }
        gp_field f;
        f.n = 0;
        f.width = width > 0 ? width : 0x7fffffffffffffffl;
        if (conv == 'c' || conv == 's' || conv == '[') {
            uint32_t set[8];
            if (conv == '[') {
                const unsigned char *e = (const unsigned char *)gp_scanset((const char *)p, set);
                if (!e) break;
                p = e;
            }
            if (conv == 'c' && width <= 0) f.width = 1;
            int wide = len == GP_L_L;
            void *dst = suppress ? 0 : va_arg(ap, void *);
            long n = 0;
            while (f.width > 0) {
                int c = gp_peek(r);
                if (c < 0) break;
                if (conv == 's' && gp_isspace(c)) break;
                if (conv == '[' && !((set[c >> 5] >> (c & 31)) & 1)) break;
                gp_take(r);
                f.width--;
                if (dst) {
                    if (wide)
                        ((wchar_t *)dst)[n] = (wchar_t)c;
                    else
                        ((char *)dst)[n] = (char)c;
                }
                n++;
            }
            if (n == 0) break; /* nothing matched (the end of input was checked above) */
            if (dst && conv != 'c') {
                if (wide)
                    ((wchar_t *)dst)[n] = 0;
                else
                    ((char *)dst)[n] = 0;
            }
            if (!suppress) assigned++;
            continue;
        }
        switch (conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'o':
        case 'x':
        case 'X':
        case 'p': {
            int base = conv == 'd' || conv == 'u' ? 10 : conv == 'i' ? 0 : conv == 'o' ? 8 : 16;
            if (conv == 'p' && gp_peek(r) == '(') { /* what %p prints for NULL */
                if (!gp_accept_word(r, &f, "(nil)")) goto done;
                f.buf[0] = '0';
                f.buf[1] = 0;
            } else if (!gp_scan_int(r, &f, base)) {
                goto done;
            }
            unsigned long long v;
            if (conv == 'd' || conv == 'i')
                v = (unsigned long long)gp_strtoll(f.buf, 0, base);
            else
                v = gp_strtoull(f.buf, 0, base);
            if (!suppress) {
                if (conv == 'p')
                    *va_arg(ap, void **) = (void *)(uintptr_t)v;
                else
                    gp_store_int(va_arg(ap, void *), len, v);
                assigned++;
            }
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            if (!gp_scan_float(r, &f)) goto done;
            if (!suppress) {
                if (len == GP_L_L)
                    *va_arg(ap, double *) = gp_strtod(f.buf, 0);
                else if (len == GP_L_BIGL || len == GP_L_LL)
#if defined(GPUMPI_CUDA)
                    *va_arg(ap, double *) = gp_strtod(f.buf, 0); /* long double is double there */
#else
                    *va_arg(ap, long double *) = gp_strtold(f.buf, 0);
#endif
                else
                    *va_arg(ap, float *) = gp_strtof(f.buf, 0);
                assigned++;
            }
            break;
        }
        default:
            goto done; /* an unknown conversion ends the scan */
        }
    }
done:
    if (rd.look >= 0) src->ungetc(rd.look, src->ctx);
    /* glibc: EOF when the input ended before anything was assigned */
    if (input_failure && assigned == 0) return -1;
    return assigned;
}

/* ---- sscanf: a string as the source ---- */

typedef struct gp_str_src {
    const unsigned char *p;
} gp_str_src;

GPUMPI_FN static int gp_str_getc(void *ctx)
{
    gp_str_src *s = (gp_str_src *)ctx;
    return *s->p ? *s->p++ : -1;
}

GPUMPI_FN static void gp_str_ungetc(int c, void *ctx)
{
    (void)c;
    ((gp_str_src *)ctx)->p--;
}

GPUMPI_FN int gp_vsscanf(const char *s, const char *fmt, va_list ap)
{
    gp_str_src ss = {(const unsigned char *)s};
    gp_scan_src src = {gp_str_getc, gp_str_ungetc, &ss};
    return gp_vscan(&src, fmt, ap);
}

GPUMPI_VARIADIC_FN int gp_sscanf(const char *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = gp_vsscanf(s, fmt, ap);
    va_end(ap);
    return n;
}
