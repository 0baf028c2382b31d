/* stdio.h on the device (stdio.cu). Output goes to the launcher's host
 * service: stdout is line-buffered per rank, stderr is unbuffered. */
#ifndef GPUMPI_SHIM_STDIO_H
#define GPUMPI_SHIM_STDIO_H

#include <stdarg.h>
#include "gpumpi/platform.h"
#include "gpumpi/format.h"

typedef struct gp_FILE {
    int fd;
} gp_FILE;

extern GPUMPI_VAR gp_FILE gp_std_files[3];

GPUMPI_VARIADIC_FN int gp_printf(const char *fmt, ...);
GPUMPI_FN int gp_vprintf(const char *fmt, va_list ap);
GPUMPI_VARIADIC_FN int gp_fprintf(gp_FILE *f, const char *fmt, ...);
GPUMPI_FN int gp_vfprintf(gp_FILE *f, const char *fmt, va_list ap);
GPUMPI_FN int gp_puts(const char *s);
GPUMPI_FN int gp_fputs(const char *s, gp_FILE *f);
GPUMPI_FN int gp_putchar(int c);
GPUMPI_FN int gp_fputc(int c, gp_FILE *f);
GPUMPI_FN size_t gp_fwrite(const void *p, size_t size, size_t n, gp_FILE *f);
GPUMPI_FN int gp_fflush(gp_FILE *f);
GPUMPI_FN void gp_perror(const char *s); /* perror.cu */

/* Send this rank's pending stdout to the host (at exit, before a failure). */
GPUMPI_FN void gp_stdio_flush_rank(void);

#endif
