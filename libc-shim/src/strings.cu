/* strings.h (strcasecmp, bzero, index, ffs...) and strcasestr, in the "C"
 * locale. */
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_ctype.h"

GPUMPI_FN int gp_strcasecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = gp_tolower((unsigned char)*a), y = gp_tolower((unsigned char)*b);
        if (x != y || !x) return x - y;
    }
}

GPUMPI_FN int gp_strncasecmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        int x = gp_tolower((unsigned char)*a), y = gp_tolower((unsigned char)*b);
        if (x != y || !x) return x - y;
    }
    return 0;
}

GPUMPI_FN char *gp_strcasestr(const char *hay, const char *needle)
{
    size_t n = gp_strlen(needle);
    for (; *hay; hay++)
        if (gp_strncasecmp(hay, needle, n) == 0) return (char *)hay;
    return n == 0 ? (char *)hay : 0;
}

GPUMPI_FN void gp_bzero(void *p, size_t n) { gp_memset(p, 0, n); }
GPUMPI_FN void gp_bcopy(const void *src, void *dst, size_t n) { gp_memmove(dst, src, n); }
GPUMPI_FN int gp_bcmp(const void *a, const void *b, size_t n) { return gp_memcmp(a, b, n); }
GPUMPI_FN char *gp_index(const char *s, int c) { return gp_strchr(s, c); }
GPUMPI_FN char *gp_rindex(const char *s, int c) { return gp_strrchr(s, c); }

GPUMPI_FN int gp_ffsll(long long x)
{
    unsigned long long u = (unsigned long long)x;
    if (!u) return 0;
    int n = 1;
    while (!(u & 1)) {
        u >>= 1;
        n++;
    }
    return n;
}
GPUMPI_FN int gp_ffs(int x) { return gp_ffsll((long long)(unsigned)x); }
GPUMPI_FN int gp_ffsl(long x) { return gp_ffsll(x); }
