/* The rest of string.h: strdup/strndup (on the rank's heap), stpcpy,
 * stpncpy, mempcpy, memccpy, memrchr, strcoll/strxfrm (the "C" locale
 * compares bytes), strlcpy/strlcat. */
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN char *gp_strdup(const char *s)
{
    size_t n = gp_strlen(s) + 1;
    char *d = (char *)gp_malloc(n);
    return d ? (char *)gp_memcpy(d, s, n) : 0;
}

GPUMPI_FN char *gp_strndup(const char *s, size_t max)
{
    size_t n = gp_strnlen(s, max);
    char *d = (char *)gp_malloc(n + 1);
    if (!d) return 0;
    gp_memcpy(d, s, n);
    d[n] = 0;
    return d;
}

GPUMPI_FN char *gp_stpcpy(char *dst, const char *src)
{
    size_t n = gp_strlen(src);
    gp_memcpy(dst, src, n + 1);
    return dst + n;
}

GPUMPI_FN char *gp_stpncpy(char *dst, const char *src, size_t n)
{
    size_t k = gp_strnlen(src, n);
    gp_memcpy(dst, src, k);
    gp_memset(dst + k, 0, n - k);
    return dst + k;
}

GPUMPI_FN void *gp_mempcpy(void *dst, const void *src, size_t n) { return (char *)gp_memcpy(dst, src, n) + n; }

GPUMPI_FN void *gp_memccpy(void *dst, const void *src, int c, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    for (size_t i = 0; i < n; i++)
        if ((d[i] = s[i]) == (unsigned char)c) return d + i + 1;
    return 0;
}

GPUMPI_FN void *gp_memrchr(const void *s, int c, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    while (n--)
        if (p[n] == (unsigned char)c) return (void *)(p + n);
    return 0;
}

GPUMPI_FN int gp_strcoll(const char *a, const char *b) { return gp_strcmp(a, b); }

GPUMPI_FN size_t gp_strxfrm(char *dst, const char *src, size_t n)
{
    size_t len = gp_strlen(src);
    if (n) gp_memcpy(dst, src, len < n ? len + 1 : n);
    return len;
}

GPUMPI_FN size_t gp_strlcpy(char *dst, const char *src, size_t n)
{
    size_t len = gp_strlen(src);
    if (n) {
        size_t k = len < n - 1 ? len : n - 1;
        gp_memcpy(dst, src, k);
        dst[k] = 0;
    }
    return len;
}

GPUMPI_FN size_t gp_strlcat(char *dst, const char *src, size_t n)
{
    size_t d = gp_strnlen(dst, n);
    if (d == n) return n + gp_strlen(src);
    return d + gp_strlcpy(dst + d, src, n - d);
}
