/* stdlib.h on the device: integer parsing (malloc is in malloc.cu; exit,
 * abort, atexit, getenv in exit.cu). */
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdio.h"
#include "runtime.h"

GPUMPI_FN static int gp_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

GPUMPI_FN static int gp_digit_value(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

/* The one integer parser: magnitude as unsigned long long, with overflow
 * saturating at `limit` (the caller's type bound), as C's strto* require. */
GPUMPI_FN static unsigned long long gp_parse_int(const char *s, char **end, int base, int *neg,
                                                 unsigned long long limit)
{
    const char *p = s;
    while (gp_isspace(*p)) p++;
    *neg = 0;
    if (*p == '+' || *p == '-') *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && gp_digit_value(p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    unsigned long long v = 0;
    int any = 0, over = 0;
    for (; gp_digit_value(*p) < base; p++) {
        unsigned d = (unsigned)gp_digit_value(*p);
        any = 1;
        if (v > (limit - d) / (unsigned)base)
            over = 1;
        else
            v = v * (unsigned)base + d;
    }
    if (end) *end = (char *)(any ? p : s);
    return over ? limit : v;
}

GPUMPI_FN long long gp_strtoll(const char *s, char **end, int base)
{
    int neg;
    unsigned long long v = gp_parse_int(s, end, base, &neg, 0x8000000000000000ull);
    if (!neg && v > 0x7fffffffffffffffull) return 0x7fffffffffffffffll;
    return neg ? (long long)(0 - v) : (long long)v;
}

GPUMPI_FN unsigned long long gp_strtoull(const char *s, char **end, int base)
{
    int neg;
    unsigned long long v = gp_parse_int(s, end, base, &neg, ~0ull);
    return neg ? 0 - v : v;
}

GPUMPI_FN long gp_strtol(const char *s, char **end, int base) { return (long)gp_strtoll(s, end, base); }
GPUMPI_FN unsigned long gp_strtoul(const char *s, char **end, int base) { return (unsigned long)gp_strtoull(s, end, base); }
GPUMPI_FN int gp_atoi(const char *s) { return (int)gp_strtol(s, 0, 10); }
GPUMPI_FN long gp_atol(const char *s) { return gp_strtol(s, 0, 10); }
GPUMPI_FN long long gp_atoll(const char *s) { return gp_strtoll(s, 0, 10); }
