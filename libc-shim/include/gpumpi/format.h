/* The printf-family formatter of the device C library.
 *
 * One implementation of the C99 printf conversion language that runs on the
 * GPU (no libc there) and on the host threads backend, with output
 * byte-identical to glibc's printf. Floating point is converted exactly
 * (big-integer arithmetic, round-half-to-even on the exact binary value), as
 * glibc does; nothing is approximated with floating-point arithmetic.
 *
 * Positional arguments ("%2$*1$d") work as in glibc (all-or-nothing, each
 * argument's type from the specs naming it) for arguments 1 to 64 (beyond:
 * -1); "%m" prints strerror(errno) as %s would (no argument).
 * Differences from glibc (see format.cu for details): wide characters (%lc, %ls) are converted as in
 * the "C" locale (ASCII only, anything else returns -1 like glibc does there);
 * on the host, long double arguments are rounded to double before formatting.
 */
#ifndef GPUMPI_LIBC_FORMAT_H
#define GPUMPI_LIBC_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "gpumpi/platform.h"

/* Where formatted bytes go. The formatter appends to buf[len..cap); when buf
 * is full it calls drain(s) (which must empty the buffer by setting len = 0),
 * or, if drain is NULL, drops the excess bytes (snprintf truncation). total
 * counts every byte produced, dropped or not. */
typedef struct gp_sink {
    char *buf;
    size_t cap;
    size_t len;
    size_t total;
    void (*drain)(struct gp_sink *s);
    void *ctx;
} gp_sink;

/* Formats into s; returns the number of bytes this call produced (dropped
 * ones included), or -1 on an unsupported format, an unconvertible wide
 * character, or a result longer than INT_MAX. */
GPUMPI_FN int gp_vformat(gp_sink *s, const char *fmt, va_list ap);

/* C99 semantics: write at most n bytes including the terminating NUL (none
 * when n == 0), return the untruncated length. */
GPUMPI_FN int gp_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
GPUMPI_VARIADIC_FN int gp_snprintf(char *buf, size_t n, const char *fmt, ...);
GPUMPI_FN int gp_vsprintf(char *buf, const char *fmt, va_list ap);
GPUMPI_VARIADIC_FN int gp_sprintf(char *buf, const char *fmt, ...);

#endif
