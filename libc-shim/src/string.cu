/* string.h on the device. memcpy moves 16-byte words when both pointers
 * allow it, several at a time: one thread copying byte by byte is the prior
 * art's 3 MB/s. */
#include "gpumpi/shim_string.h"

/* The copy loop shared by memcpy (one thread: lane 0 of 1, for unaligned
 * copies: gp_memcpy has its own loop for aligned ones) and the copy
 * service (a warp: lanes 0..31 of 32, each taking every 32nd word). Eight
 * loads are in flight before the first store: a lone thread waiting on each
 * load in turn is what makes single-thread copies slow. */
GPUMPI_FN void gp_copy_lanes(void *dst, const void *src, size_t n, int lane, int width)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    size_t k = (size_t)lane, w = (size_t)width, done = 0;
    if ((((uintptr_t)d | (uintptr_t)s) & 15) == 0) {
        typedef struct { uint64_t a, b; } v16;
        v16 *dv = (v16 *)d;
        const v16 *sv = (const v16 *)s;
        size_t words = n / 16;
        for (; k + 7 * w < words; k += 8 * w) {
            v16 a0 = sv[k], a1 = sv[k + w], a2 = sv[k + 2 * w], a3 = sv[k + 3 * w];
            v16 a4 = sv[k + 4 * w], a5 = sv[k + 5 * w], a6 = sv[k + 6 * w], a7 = sv[k + 7 * w];
            dv[k] = a0, dv[k + w] = a1, dv[k + 2 * w] = a2, dv[k + 3 * w] = a3;
            dv[k + 4 * w] = a4, dv[k + 5 * w] = a5, dv[k + 6 * w] = a6, dv[k + 7 * w] = a7;
        }
        for (; k < words; k += w) dv[k] = sv[k];
        done = words * 16;
        if (n - done >= 8 && lane == 0) { /* a last 8-byte word */
            *(uint64_t *)(d + done) = *(const uint64_t *)(s + done);
            done += 8;
        } else if (n - done >= 8) {
            done += 8;
        }
    } else if ((((uintptr_t)d | (uintptr_t)s) & 7) == 0) {
        uint64_t *dv = (uint64_t *)d;
        const uint64_t *sv = (const uint64_t *)s;
        size_t words = n / 8;
        for (; k + 3 * w < words; k += 4 * w) {
            uint64_t a0 = sv[k], a1 = sv[k + w], a2 = sv[k + 2 * w], a3 = sv[k + 3 * w];
            dv[k] = a0, dv[k + w] = a1, dv[k + 2 * w] = a2, dv[k + 3 * w] = a3;
        }
        for (; k < words; k += w) dv[k] = sv[k];
        done = words * 8;
    }
    for (k = done + (size_t)lane; k < n; k += w) d[k] = s[k];
}

/* A lone thread keeps six 16-byte loads in flight, in registers, and no
 * more: in gp_copy_lanes, whose loop the service's lanes need eight wide,
 * or with this loop unrolled, the registers (-maxrregcount=32) run out and
 * loads spill to local memory, each spill waiting for its load. On an
 * H100: ping-pong half round trip, 4 KiB 22.3 -> 17.5 us, 512 B 8.9 ->
 * 8.1, 64 KiB without the copy service 258 -> 178; 4096 ranks exchanging
 * 2 KiB messages 37.0 -> 45.9 M messages/s, 16 KiB 5.1 -> 8.3.
 * Unaligned copies go to gp_copy_lanes; the aligned tail stays here,
 * though gp_copy_lanes could do it: a version that called it for the tail
 * (its loop unrolled) spilled most of all, 276 local loads and stores,
 * 4 KiB 25.9 us. The call alone, with this loop, was not measured. */
GPUMPI_FN void *gp_memcpy(void *dst, const void *src, size_t n)
{
    if ((((uintptr_t)dst | (uintptr_t)src) & 15) != 0) {
        gp_copy_lanes(dst, src, n, 0, 1);
        return dst;
    }
    typedef struct __attribute__((aligned(16))) { uint64_t a, b; } v16;
    v16 *d = (v16 *)dst;
    const v16 *s = (const v16 *)src;
    size_t k = 0, words = n / 16;
    GP_NO_UNROLL
    for (; k + 5 < words; k += 6) {
        v16 a0 = s[k], a1 = s[k + 1], a2 = s[k + 2], a3 = s[k + 3], a4 = s[k + 4], a5 = s[k + 5];
        d[k] = a0, d[k + 1] = a1, d[k + 2] = a2, d[k + 3] = a3, d[k + 4] = a4, d[k + 5] = a5;
    }
    GP_NO_UNROLL
    for (; k < words; k++) d[k] = s[k];
    GP_NO_UNROLL
    for (k = words * 16; k < n; k++) ((char *)dst)[k] = ((const char *)src)[k];
    return dst;
}

GPUMPI_FN void *gp_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (d <= s || d >= s + n) return gp_memcpy(dst, src, n);
    /* backwards; 8-byte words when both ends share their alignment (a
     * word read below what was written is never one written yet) */
    if ((((uintptr_t)d ^ (uintptr_t)s) & 7) == 0) {
        while (n && ((uintptr_t)(d + n) & 7)) {
            n--;
            d[n] = s[n];
        }
        for (; n >= 8; n -= 8) *(uint64_t *)(d + n - 8) = *(const uint64_t *)(s + n - 8);
    }
    while (n--) d[n] = s[n];
    return dst;
}

/* 16-byte stores once the destination is aligned: bytes up to the
 * boundary, words, then the tail. */
GPUMPI_FN void *gp_memset(void *dst, int c, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    unsigned char b = (unsigned char)c;
    while (n && ((uintptr_t)d & 15)) {
        *d++ = b;
        n--;
    }
    if (n >= 16) {
        uint64_t w = 0x0101010101010101ull * b;
        typedef struct { uint64_t a, b; } v16;
        v16 v = {w, w};
        v16 *dv = (v16 *)d;
        size_t words = n / 16;
        for (size_t i = 0; i < words; i++) dv[i] = v;
        d += words * 16;
        n -= words * 16;
    }
    while (n--) *d++ = b;
    return dst;
}

GPUMPI_FN int gp_memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

GPUMPI_FN void *gp_memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++)
        if (p[i] == (unsigned char)c) return (void *)(p + i);
    return 0;
}

GPUMPI_FN size_t gp_strlen(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

GPUMPI_FN size_t gp_strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n]) n++;
    return n;
}

GPUMPI_FN int gp_strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

GPUMPI_FN int gp_strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
        if (!*a) return 0;
    }
    return 0;
}

GPUMPI_FN char *gp_strcpy(char *dst, const char *src)
{
    char *d = dst;
    while ((*d++ = *src++)) {
    }
    return dst;
}

GPUMPI_FN char *gp_strncpy(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i]; i++) dst[i] = src[i];
    for (; i < n; i++) dst[i] = 0;
    return dst;
}

GPUMPI_FN char *gp_strcat(char *dst, const char *src)
{
    gp_strcpy(dst + gp_strlen(dst), src);
    return dst;
}

GPUMPI_FN char *gp_strncat(char *dst, const char *src, size_t n)
{
    char *d = dst + gp_strlen(dst);
    size_t i = 0;
    for (; i < n && src[i]; i++) d[i] = src[i];
    d[i] = 0;
    return dst;
}

GPUMPI_FN char *gp_strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c) return (char *)s;
        if (!*s) return 0;
    }
}

GPUMPI_FN char *gp_strrchr(const char *s, int c)
{
    const char *last = 0;
    for (;; s++) {
        if (*s == (char)c) last = s;
        if (!*s) return (char *)last;
    }
}

GPUMPI_FN char *gp_strstr(const char *hay, const char *needle)
{
    size_t n = gp_strlen(needle);
    for (; *hay; hay++)
        if (gp_strncmp(hay, needle, n) == 0) return (char *)hay;
    return n == 0 ? (char *)hay : 0;
}
