/* stdio.h output on the device. Each rank's stdout and stderr collect in
 * the rank's line buffers and go to the host a whole line at a time, so
 * lines of different ranks never mix and output appears while the program
 * runs. stderr is line-buffered too (C leaves it unbuffered): a partial
 * line goes out when the rank flushes, exits, aborts or fails an assert. */
#include "gpumpi/shim_stdio.h"
#include "gpumpi/shim_string.h"
#include "runtime.h"

GPUMPI_VAR gp_FILE gp_std_files[3] = {{0}, {1}, {2}};

GPUMPI_FN static gp_line_buf *gp_line_of(int fd) { return &gp_self()->out[fd - 1]; }

/* Hand the first n bytes of the line buffer to the host; keep the rest. */
GPUMPI_FN static void gp_out_send(gp_line_buf *b, int fd, size_t n)
{
    if (n == 0) return;
    gp_host_call(GP_HOST_WRITE, fd, b->line, n);
    gp_memmove(b->line, b->line + n, b->len - n);
    b->len -= (uint32_t)n;
}

/* Send every complete line; a full buffer goes out even without a newline. */
GPUMPI_FN static void gp_out_lines(gp_line_buf *b, int fd)
{
    size_t n = b->len;
    while (n > 0 && b->line[n - 1] != '\n') n--;
    if (n == 0 && b->len == GP_LINE_BYTES) n = GP_LINE_BYTES;
    gp_out_send(b, fd, n);
}

/* The formatter's sink is the line buffer itself (ctx: the fd). */
GPUMPI_FN static void gp_out_drain(gp_sink *s)
{
    int fd = (int)(intptr_t)s->ctx;
    gp_line_buf *b = gp_line_of(fd);
    b->len = (uint32_t)s->len;
    gp_out_lines(b, fd);
    if (b->len == GP_LINE_BYTES) gp_out_send(b, fd, b->len);
    s->len = b->len;
}

GPUMPI_FN int gp_vfprintf(gp_FILE *f, const char *fmt, va_list ap)
{
    if (f->fd < 0) return gp_file_vprintf(f, fmt, ap);
    if (f->fd != 1 && f->fd != 2) return -1;
    gp_line_buf *b = gp_line_of(f->fd);
    gp_sink s = {b->line, GP_LINE_BYTES, b->len, 0, gp_out_drain, (void *)(intptr_t)f->fd};
    int n = gp_vformat(&s, fmt, ap);
    b->len = (uint32_t)s.len;
    gp_out_lines(b, f->fd);
    return n;
}

GPUMPI_FN static int gp_fwrite_bytes(gp_FILE *f, const char *p, size_t n)
{
    if (f->fd < 0) return gp_file_write(f, p, n);
    if (f->fd != 1 && f->fd != 2) return -1;
    gp_line_buf *b = gp_line_of(f->fd);
    size_t left = n;
    while (left > 0) {
        size_t room = GP_LINE_BYTES - b->len;
        size_t k = left < room ? left : room;
        gp_memcpy(b->line + b->len, p, k);
        b->len += (uint32_t)k;
        p += k;
        left -= k;
        gp_out_lines(b, f->fd);
    }
    return (int)n;
}

GPUMPI_FN int gp_vprintf(const char *fmt, va_list ap) { return gp_vfprintf(&gp_std_files[1], fmt, ap); }

GPUMPI_VARIADIC_FN int gp_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = gp_vfprintf(&gp_std_files[1], fmt, ap);
    va_end(ap);
    return n;
}

GPUMPI_VARIADIC_FN int gp_fprintf(gp_FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = gp_vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

GPUMPI_FN int gp_fputs(const char *s, gp_FILE *f) { return gp_fwrite_bytes(f, s, gp_strlen(s)) < 0 ? -1 : 1; }

GPUMPI_FN int gp_puts(const char *s)
{
    if (gp_fputs(s, &gp_std_files[1]) < 0) return -1;
    return gp_fputc('\n', &gp_std_files[1]) < 0 ? -1 : 1;
}

GPUMPI_FN int gp_fputc(int c, gp_FILE *f)
{
    char ch = (char)c;
    return gp_fwrite_bytes(f, &ch, 1) < 0 ? -1 : (unsigned char)ch;
}

GPUMPI_FN int gp_putchar(int c) { return gp_fputc(c, &gp_std_files[1]); }

GPUMPI_FN size_t gp_fwrite(const void *p, size_t size, size_t n, gp_FILE *f)
{
    return gp_fwrite_bytes(f, (const char *)p, size * n) < 0 ? 0 : n;
}

GPUMPI_FN void gp_stdio_flush_rank(void)
{
    for (int fd = 1; fd <= 2; fd++) {
        gp_line_buf *b = gp_line_of(fd);
        gp_out_send(b, fd, b->len);
    }
}

GPUMPI_FN int gp_fflush(gp_FILE *f)
{
    if (f && f->fd < 0) return gp_file_flush(f);
    if (!f) {
        gp_stdio_flush_rank();
    } else if (f->fd == 1 || f->fd == 2) {
        gp_line_buf *b = gp_line_of(f->fd);
        gp_out_send(b, f->fd, b->len);
    }
    if (!f) gp_flush_all_files();
    return 0;
}
