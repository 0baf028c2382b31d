/* stdio.h on the device (stdio.cu). Output goes to the launcher's host
 * service: stdout is line-buffered per rank, stderr is unbuffered. */
#ifndef GPUMPI_SHIM_STDIO_H
#define GPUMPI_SHIM_STDIO_H

#include <stdarg.h>
#include "gpumpi/platform.h"
#include "gpumpi/format.h"

/* A stream. The standard ones are shared by every rank (stdout
 * and stderr keep no state here: each rank's stdout line is in its gp_rank).
 * A file (stdio_file.cu) is one rank's own: the host holds the open file,
 * the device keeps a buffer so small reads and writes are not each a host
 * call. Only rank 0 reads stdin, as under mpirun. */
typedef struct gp_FILE {
    int fd;            /* 0, 1, 2 for the standard streams; -1 for a file */
    int handle;        /* the host's handle (stdin's is 0) */
    uint8_t readable, writable;
    uint8_t eof, err;
    uint8_t mode;      /* what buf holds: 0 nothing, 1 data read ahead, 2 data to write */
    uint8_t has_unget; /* a character ungetc pushed back */
    unsigned char unget;
    char *buf;         /* GP_FILE_BUF bytes on the heap, made on first use */
    uint32_t pos, len; /* reading: buf[pos..len) not yet read; writing: buf[0..len) pending */
    struct gp_FILE *next; /* the rank's open files */
} gp_FILE;

extern GPUMPI_VAR gp_FILE gp_std_files[3];
/* stdin: rank 0's is the job's (gp_std_files[0]); every other rank has its
 * own, at end of file (libc_state.cu). */
GPUMPI_FN gp_FILE *gp_stdin(void);

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

/* Files (stdio_file.cu). fscanf is not provided yet (it will use the scan
 * core of the libc helper). */
GPUMPI_FN gp_FILE *gp_fopen(const char *path, const char *mode);
GPUMPI_FN int gp_fclose(gp_FILE *f);
GPUMPI_FN size_t gp_fread(void *p, size_t size, size_t n, gp_FILE *f);
GPUMPI_FN char *gp_fgets(char *s, int n, gp_FILE *f);
GPUMPI_FN int gp_fgetc(gp_FILE *f);
GPUMPI_FN int gp_getchar(void);
GPUMPI_FN int gp_ungetc(int c, gp_FILE *f);
GPUMPI_FN int gp_vfscanf(gp_FILE *f, const char *fmt, va_list ap);
GPUMPI_VARIADIC_FN int gp_fscanf(gp_FILE *f, const char *fmt, ...);
GPUMPI_FN int gp_vscanf(const char *fmt, va_list ap);
GPUMPI_VARIADIC_FN int gp_scanf(const char *fmt, ...);
GPUMPI_FN int gp_setvbuf(gp_FILE *f, char *buf, int mode, size_t size);
GPUMPI_FN void gp_setbuf(gp_FILE *f, char *buf);
GPUMPI_FN int gp_fseek(gp_FILE *f, long off, int whence);
GPUMPI_FN long gp_ftell(gp_FILE *f);
GPUMPI_FN void gp_rewind(gp_FILE *f);
GPUMPI_FN int gp_feof(gp_FILE *f);
GPUMPI_FN int gp_ferror(gp_FILE *f);
GPUMPI_FN void gp_clearerr(gp_FILE *f);
GPUMPI_FN int gp_remove(const char *path);
GPUMPI_FN int gp_rename(const char *from, const char *to);
GPUMPI_FN gp_FILE *gp_tmpfile(void);
/* Commands run by the launcher's host (/bin/sh -c), one process per call,
 * so each rank's are its own (process.cu). */
GPUMPI_FN gp_FILE *gp_popen(const char *command, const char *mode);
GPUMPI_FN int gp_pclose(gp_FILE *f);
GPUMPI_FN int gp_fileno(gp_FILE *f);
/* What stdio.cu hands to files: writes, formatted output, flush. */
GPUMPI_FN int gp_file_write(gp_FILE *f, const char *p, size_t n);
GPUMPI_FN int gp_file_vprintf(gp_FILE *f, const char *fmt, va_list ap);
GPUMPI_FN int gp_file_flush(gp_FILE *f);
GPUMPI_FN void gp_flush_all_files(void);

/* Send this rank's pending stdout to the host (at exit, before a failure). */
GPUMPI_FN void gp_stdio_flush_rank(void);

#endif
