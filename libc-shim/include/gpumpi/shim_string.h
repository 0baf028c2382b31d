/* The C library's string and memory functions, as device code (string.cu).
 * The runtime uses these too: one copy loop for the whole project. */
#ifndef GPUMPI_SHIM_STRING_H
#define GPUMPI_SHIM_STRING_H

#include "gpumpi/platform.h"

/* Lane `lane` of `width` threads copying together does its share. */
GPUMPI_FN void gp_copy_lanes(void *dst, const void *src, size_t n, int lane, int width);
GPUMPI_FN void *gp_memcpy(void *dst, const void *src, size_t n);
GPUMPI_FN void *gp_memmove(void *dst, const void *src, size_t n);
GPUMPI_FN void *gp_memset(void *dst, int c, size_t n);
GPUMPI_FN int gp_memcmp(const void *a, const void *b, size_t n);
GPUMPI_FN void *gp_memchr(const void *s, int c, size_t n);
GPUMPI_FN size_t gp_strlen(const char *s);
GPUMPI_FN size_t gp_strnlen(const char *s, size_t n);
GPUMPI_FN int gp_strcmp(const char *a, const char *b);
GPUMPI_FN int gp_strncmp(const char *a, const char *b, size_t n);
GPUMPI_FN char *gp_strcpy(char *dst, const char *src);
GPUMPI_FN char *gp_strncpy(char *dst, const char *src, size_t n);
GPUMPI_FN char *gp_strcat(char *dst, const char *src);
GPUMPI_FN char *gp_strncat(char *dst, const char *src, size_t n);
GPUMPI_FN char *gp_strchr(const char *s, int c);
GPUMPI_FN char *gp_strrchr(const char *s, int c);
GPUMPI_FN char *gp_strstr(const char *hay, const char *needle);
/* string_tok.cu: strtok keeps its position per rank */
GPUMPI_FN size_t gp_strspn(const char *s, const char *accept);
GPUMPI_FN size_t gp_strcspn(const char *s, const char *reject);
GPUMPI_FN char *gp_strpbrk(const char *s, const char *accept);
GPUMPI_FN char *gp_strtok(char *s, const char *delim);
GPUMPI_FN char *gp_strtok_r(char *s, const char *delim, char **save);
GPUMPI_FN char *gp_strsep(char **sp, const char *delim);
/* string_dup.cu */
GPUMPI_FN char *gp_strdup(const char *s);
GPUMPI_FN char *gp_strndup(const char *s, size_t max);
GPUMPI_FN char *gp_stpcpy(char *dst, const char *src);
GPUMPI_FN char *gp_stpncpy(char *dst, const char *src, size_t n);
GPUMPI_FN void *gp_mempcpy(void *dst, const void *src, size_t n);
GPUMPI_FN void *gp_memccpy(void *dst, const void *src, int c, size_t n);
GPUMPI_FN void *gp_memrchr(const void *s, int c, size_t n);
GPUMPI_FN int gp_strcoll(const char *a, const char *b);
GPUMPI_FN size_t gp_strxfrm(char *dst, const char *src, size_t n);
GPUMPI_FN size_t gp_strlcpy(char *dst, const char *src, size_t n);
GPUMPI_FN size_t gp_strlcat(char *dst, const char *src, size_t n);
/* strerror.cu: glibc's messages; gp_errmsg gives NULL for unknown numbers */
GPUMPI_FN const char *gp_errmsg(int e);
GPUMPI_FN char *gp_strerror(int e);
GPUMPI_FN char *gp_strerror_r(int e, char *buf, size_t n);
/* string_gnu.cu */
GPUMPI_FN void *gp_memmem(const void *hay, size_t n, const void *needle, size_t m);
GPUMPI_FN char *gp_strchrnul(const char *s, int c);
GPUMPI_FN void *gp_rawmemchr(const void *s, int c);
GPUMPI_FN void gp_explicit_bzero(void *p, size_t n);
GPUMPI_FN char *gp_strsignal(int sig);
/* strings.cu */
GPUMPI_FN int gp_strcasecmp(const char *a, const char *b);
GPUMPI_FN int gp_strncasecmp(const char *a, const char *b, size_t n);
GPUMPI_FN char *gp_strcasestr(const char *hay, const char *needle);
GPUMPI_FN void gp_bzero(void *p, size_t n);
GPUMPI_FN void gp_bcopy(const void *src, void *dst, size_t n);
GPUMPI_FN int gp_bcmp(const void *a, const void *b, size_t n);
GPUMPI_FN char *gp_index(const char *s, int c);
GPUMPI_FN char *gp_rindex(const char *s, int c);
GPUMPI_FN int gp_ffs(int x);
GPUMPI_FN int gp_ffsl(long x);
GPUMPI_FN int gp_ffsll(long long x);

#endif
