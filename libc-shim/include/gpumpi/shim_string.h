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

#endif
