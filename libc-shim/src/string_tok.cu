/* strtok (its position is the rank's own), strtok_r, strsep, strspn,
 * strcspn, strpbrk. A 256-bit set makes each scan one pass. */
#include "gpumpi/shim_string.h"
#include "libc_state.h"

typedef struct gp_charset {
    uint32_t bits[8];
} gp_charset;

GPUMPI_FN static void gp_set_of(gp_charset *s, const char *chars)
{
    for (int i = 0; i < 8; i++) s->bits[i] = 0;
    for (const unsigned char *p = (const unsigned char *)chars; *p; p++) s->bits[*p >> 5] |= 1u << (*p & 31);
}

GPUMPI_FN static int gp_in(const gp_charset *s, unsigned char c) { return (s->bits[c >> 5] >> (c & 31)) & 1; }

GPUMPI_FN size_t gp_strspn(const char *s, const char *accept)
{
    gp_charset set;
    gp_set_of(&set, accept);
    size_t n = 0;
    while (s[n] && gp_in(&set, (unsigned char)s[n])) n++;
    return n;
}

GPUMPI_FN size_t gp_strcspn(const char *s, const char *reject)
{
    gp_charset set;
    gp_set_of(&set, reject);
    size_t n = 0;
    while (s[n] && !gp_in(&set, (unsigned char)s[n])) n++;
    return n;
}

GPUMPI_FN char *gp_strpbrk(const char *s, const char *accept)
{
    s += gp_strcspn(s, accept);
    return *s ? (char *)s : 0;
}

GPUMPI_FN char *gp_strtok_r(char *s, const char *delim, char **save)
{
    if (!s) s = *save;
    if (!s) return 0;
    s += gp_strspn(s, delim);
    if (!*s) {
        *save = s;
        return 0;
    }
    char *end = s + gp_strcspn(s, delim);
    if (*end) *end++ = 0;
    *save = end;
    return s;
}

GPUMPI_FN char *gp_strtok(char *s, const char *delim) { return gp_strtok_r(s, delim, &gp_libc()->strtok_save); }

GPUMPI_FN char *gp_strsep(char **sp, const char *delim)
{
    char *s = *sp;
    if (!s) return 0;
    char *end = s + gp_strcspn(s, delim);
    *sp = *end ? end + 1 : 0;
    *end = 0;
    return s;
}
