/* strtol and friends, atoi/atol/atoll: glibc's rules in the "C" locale
 * (a base 0 or 16 "0x" prefix only counts when a hex digit follows it;
 * out of range saturates and sets ERANGE; a bad base is EINVAL). */
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_ctype.h"
#include "libc_state.h"

#define GP_EINVAL 22
#define GP_ERANGE 34

GPUMPI_FN static int gp_digit_value(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

/* The magnitude, saturated at `limit` (*over set then); *neg gets the sign. */
GPUMPI_FN static unsigned long long gp_parse_int(const char *s, char **end, int base, int *neg,
                                                 unsigned long long limit, int *over)
{
    const char *p = s;
    *neg = 0;
    *over = 0;
    if (base < 0 || base == 1 || base > 36) {
        *gp_errno_location() = GP_EINVAL;
        if (end) *end = (char *)s;
        return 0;
    }
    while (gp_isspace((unsigned char)*p)) p++;
    if (*p == '+' || *p == '-') *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        gp_digit_value((unsigned char)p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = p[0] == '0' ? 8 : 10;
    }
    unsigned long long v = 0;
    int any = 0;
    for (; gp_digit_value((unsigned char)*p) < base; p++) {
        unsigned d = (unsigned)gp_digit_value((unsigned char)*p);
        any = 1;
        if (*over || v > (limit - d) / (unsigned)base)
            *over = 1;
        else
            v = v * (unsigned)base + d;
    }
    if (end) *end = (char *)(any ? p : s);
    if (*over) *gp_errno_location() = GP_ERANGE;
    return *over ? limit : v;
}

GPUMPI_FN static long long gp_signed(const char *s, char **end, int base, long long max)
{
    int neg, over;
    unsigned long long lim = (unsigned long long)max; /* positive bound; negative allows one more */
    unsigned long long v = gp_parse_int(s, end, base, &neg, lim + 1, &over);
    if (over) return neg ? -max - 1 : max;
    if (!neg && v > lim) {
        *gp_errno_location() = GP_ERANGE;
        return max;
    }
    return neg ? (long long)(0 - v) : (long long)v;
}

GPUMPI_FN static unsigned long long gp_unsigned(const char *s, char **end, int base, unsigned long long max)
{
    int neg, over;
    unsigned long long v = gp_parse_int(s, end, base, &neg, max, &over);
    if (over) return max;
    return neg ? (0 - v) & max : v;
}

GPUMPI_FN long long gp_strtoll(const char *s, char **end, int base) { return gp_signed(s, end, base, 0x7fffffffffffffffll); }
GPUMPI_FN long gp_strtol(const char *s, char **end, int base) { return (long)gp_signed(s, end, base, (long)(~0ul >> 1)); }
GPUMPI_FN unsigned long long gp_strtoull(const char *s, char **end, int base) { return gp_unsigned(s, end, base, ~0ull); }
GPUMPI_FN unsigned long gp_strtoul(const char *s, char **end, int base) { return (unsigned long)gp_unsigned(s, end, base, ~0ul); }
GPUMPI_FN intmax_t gp_strtoimax(const char *s, char **end, int base) { return gp_strtoll(s, end, base); }
GPUMPI_FN uintmax_t gp_strtoumax(const char *s, char **end, int base) { return gp_strtoull(s, end, base); }
GPUMPI_FN int gp_atoi(const char *s) { return (int)gp_strtol(s, 0, 10); }
GPUMPI_FN long gp_atol(const char *s) { return gp_strtol(s, 0, 10); }
GPUMPI_FN long long gp_atoll(const char *s) { return gp_strtoll(s, 0, 10); }
