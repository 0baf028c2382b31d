/* The scanf-family core of the device C library (scan.cu). gp_vscan reads
 * from any character source, so sscanf (a string) and fscanf (a FILE,
 * launcher side) share it. Results match glibc's scanf in the "C" locale.
 * Differences: positional arguments ("%1$d") and the 'm' allocation flag
 * are not supported (the call stops there, returning the count so far);
 * a floating-point field keeps its first 380 mantissa characters (longer
 * ones may differ from glibc in the last bit). */
#ifndef GPUMPI_LIBC_SCAN_H
#define GPUMPI_LIBC_SCAN_H

#include <stdarg.h>
#include "gpumpi/platform.h"

/* Where scanned bytes come from. getc returns the next byte as an unsigned
 * char, or -1 at the end; ungetc pushes back the byte just read (at most
 * one: gp_vscan never needs more). */
typedef struct gp_scan_src {
    int (*getc)(void *ctx);
    void (*ungetc)(int c, void *ctx);
    void *ctx;
} gp_scan_src;

/* The number of fields assigned, or -1 (EOF) if the input ended before the
 * first conversion. */
GPUMPI_FN int gp_vscan(gp_scan_src *src, const char *fmt, va_list ap);

GPUMPI_FN int gp_vsscanf(const char *s, const char *fmt, va_list ap);
GPUMPI_VARIADIC_FN int gp_sscanf(const char *s, const char *fmt, ...);

#endif
