/* stdio.h output on the device. Each rank's stdout collects in its line
 * buffer and goes to the host a whole line at a time, so lines of different
 * ranks never mix and output appears while the program runs. */
#include "gpumpi/shim_stdio.h"
#include "gpumpi/shim_string.h"
#include "runtime.h"

GPUMPI_VAR gp_FILE gp_std_files[3] = {{0}, {1}, {2}};

/* Hand the first n bytes of the line buffer to the host; keep the rest. */
GPUMPI_FN static void gp_out_send(gp_rank *me, size_t n)
{
    if (n == 0) return;
    gp_host_call(GP_HOST_WRITE, 1, me->out_line, n);
    gp_memmove(me->out_line, me->out_line + n, me->out_len - n);
    me->out_len -= (uint32_t)n;
}

/* Send every complete line; a full buffer goes out even without a newline. */
GPUMPI_FN static void gp_out_lines(gp_rank *me)
{
    size_t n = me->out_len;
    while (n > 0 && me->out_line[n - 1] != '\n') n--;
    if (n == 0 && me->out_len == GP_LINE_BYTES) n = GP_LINE_BYTES;
    gp_out_send(me, n);
}

GPUMPI_FN static void gp_out_drain(gp_sink *s)
{
    gp_rank *me = gp_self();
    me->out_len = (uint32_t)s->len;
    gp_out_lines(me);
    if (me->out_len == GP_LINE_BYTES) gp_out_send(me, me->out_len);
    s->len = me->out_len;
}

GPUMPI_FN static void gp_err_drain(gp_sink *s)
{
    gp_host_call(GP_HOST_WRITE, 2, s->buf, s->len);
    s->len = 0;
}

GPUMPI_FN int gp_vfprintf(gp_FILE *f, const char *fmt, va_list ap)
{
    if (f->fd < 0) return gp_file_vprintf(f, fmt, ap);
    if (f->fd == 1) {
        gp_rank *me = gp_self();
        gp_sink s = {me->out_line, GP_LINE_BYTES, me->out_len, 0, gp_out_drain, 0};
        int n = gp_vformat(&s, fmt, ap);
        me->out_len = (uint32_t)s.len;
        gp_out_lines(me);
        return n;
    }
    if (f->fd == 2) {
        char buf[256];
        gp_sink s = {buf, sizeof buf, 0, 0, gp_err_drain, 0};
        int n = gp_vformat(&s, fmt, ap);
        gp_err_drain(&s);
        return n;
    }
    return -1;
}

GPUMPI_FN static int gp_fwrite_bytes(gp_FILE *f, const char *p, size_t n)
{
    if (f->fd < 0) return gp_file_write(f, p, n);
    if (f->fd == 2) {
        gp_host_call(GP_HOST_WRITE, 2, p, n);
        return (int)n;
    }
    if (f->fd != 1) return -1;
    gp_rank *me = gp_self();
    size_t left = n;
    while (left > 0) {
        size_t room = GP_LINE_BYTES - me->out_len;
        size_t k = left < room ? left : room;
        gp_memcpy(me->out_line + me->out_len, p, k);
        me->out_len += (uint32_t)k;
        p += k;
        left -= k;
        gp_out_lines(me);
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
    gp_rank *me = gp_self();
    gp_out_send(me, me->out_len);
}

GPUMPI_FN int gp_fflush(gp_FILE *f)
{
    if (f && f->fd < 0) return gp_file_flush(f);
    if (!f || f->fd == 1) gp_stdio_flush_rank();
    if (!f) gp_flush_all_files();
    return 0;
}
