/* Files on the device. The launcher's host service opens, reads, writes and
 * seeks the real file (request/reply host calls, gp_host_rpc); each stream
 * buffers on the device so that small reads and writes, fgetc, fgets and
 * fprintf, cost a host call per GP_FILE_BUF bytes, not per call. A stream is
 * the rank's own; stdin is read by rank 0 only (others see end of file), as
 * under mpirun. */
#include <stdio.h> /* EOF, SEEK_* */
#include <errno.h>
#include "gpumpi/shim_stdio.h"
#include "gpumpi/scan.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_unistd.h"
#include "gpumpi/shim_errno.h"
#include "libc_state.h"
#include "host_streams.h"
#include "runtime.h"

#define GP_FILE_BUF GP_HOST_CALL_BYTES /* one host call's worth */

enum { GP_BUF_NONE = 0, GP_BUF_READ = 1, GP_BUF_WRITE = 2 };

GPUMPI_FN static int gp_file_buffer(gp_FILE *f)
{
    if (!f->buf) f->buf = (char *)gp_malloc(GP_FILE_BUF);
    if (!f->buf) f->err = 1;
    return f->buf != 0;
}

/* Standard streams other than stdin have nothing to read; stdin is rank 0's. */
GPUMPI_FN static int gp_can_read(gp_FILE *f)
{
    if (f->fd == 0) return gp_thread_rank() == 0;
    return f->fd < 0 && f->readable;
}

GPUMPI_FN int gp_file_flush(gp_FILE *f)
{
    if (f->mode != GP_BUF_WRITE) return 0;
    uint32_t done = 0;
    int rc = 0;
    while (done < f->len) {
        int err = 0;
        int64_t n = gp_host_rpc(GP_HOST_FWRITE, f->handle, 0, f->buf + done, f->len - done, 0, 0, 0, &err);
        if (n <= 0) {
            f->err = 1;
            rc = -1;
            break;
        }
        done += (uint32_t)n;
    }
    f->len = 0;
    f->mode = GP_BUF_NONE;
    return rc;
}

/* Leaves read mode: the host's position goes back over what was read ahead
 * and not consumed, so a write lands where the program thinks it is. */
GPUMPI_FN static void gp_drop_read_ahead(gp_FILE *f)
{
    if (f->mode != GP_BUF_READ) return;
    int64_t back = (int64_t)(f->len - f->pos) + f->has_unget;
    char whence = SEEK_CUR;
    if (back) gp_host_rpc(GP_HOST_SEEK, f->handle, -back, &whence, 1, 0, 0, 0, 0);
    f->pos = f->len = 0;
    f->has_unget = 0;
    f->mode = GP_BUF_NONE;
}

/* Readies f for writing into its buffer; 0 when it cannot be written. */
GPUMPI_FN static int gp_file_begin_write(gp_FILE *f)
{
    if (!f->writable) {
        f->err = 1;
        return 0;
    }
    gp_drop_read_ahead(f);
    if (!gp_file_buffer(f)) return 0;
    f->mode = GP_BUF_WRITE;
    return 1;
}

GPUMPI_FN int gp_file_write(gp_FILE *f, const char *p, size_t n)
{
    if (!gp_file_begin_write(f)) return -1;
    size_t left = n;
    while (left > 0) {
        if (f->len == GP_FILE_BUF && gp_file_flush(f) < 0) return -1;
        f->mode = GP_BUF_WRITE;
        size_t k = GP_FILE_BUF - f->len;
        if (k > left) k = left;
        gp_memcpy(f->buf + f->len, p, k);
        f->len += (uint32_t)k;
        p += k;
        left -= k;
    }
    return (int)n;
}

GPUMPI_FN static void gp_file_drain(gp_sink *s)
{
    gp_FILE *f = (gp_FILE *)s->ctx;
    f->len = (uint32_t)s->len;
    gp_file_flush(f);
    f->mode = GP_BUF_WRITE;
    s->len = 0;
}

GPUMPI_FN int gp_file_vprintf(gp_FILE *f, const char *fmt, va_list ap)
{
    if (!gp_file_begin_write(f)) return -1;
    gp_sink s = {f->buf, GP_FILE_BUF, f->len, 0, gp_file_drain, f};
    int n = gp_vformat(&s, fmt, ap);
    f->len = (uint32_t)s.len;
    return f->err ? -1 : n;
}

/* Refills the read-ahead buffer; 0 at end of file or on an error. */
GPUMPI_FN static int gp_fill(gp_FILE *f)
{
    if (!gp_can_read(f)) {
        if (f->fd != 0) f->err = 1;
        f->eof = 1;
        return 0;
    }
    if (f->mode == GP_BUF_WRITE && gp_file_flush(f) < 0) return 0;
    if (!gp_file_buffer(f)) return 0;
    int err = 0;
    size_t got = 0;
    int64_t n = gp_host_rpc(GP_HOST_READ, f->handle, GP_FILE_BUF, 0, 0, f->buf, GP_FILE_BUF, &got, &err);
    f->mode = GP_BUF_READ;
    f->pos = 0;
    f->len = n > 0 ? (uint32_t)got : 0;
    if (n < 0) f->err = 1;
    if (n <= 0) f->eof = 1;
    return f->len > 0;
}

GPUMPI_FN int gp_fgetc(gp_FILE *f)
{
    if (f->has_unget) {
        f->has_unget = 0;
        return f->unget;
    }
    if (f->mode != GP_BUF_READ || f->pos == f->len) {
        if (!gp_fill(f)) return EOF;
    }
    return (unsigned char)f->buf[f->pos++];
}

GPUMPI_FN int gp_getchar(void) { return gp_fgetc(gp_stdin()); }

GPUMPI_FN int gp_ungetc(int c, gp_FILE *f)
{
    if (c == EOF || f->has_unget) return EOF;
    f->has_unget = 1;
    f->unget = (unsigned char)c;
    f->eof = 0;
    return (unsigned char)c;
}

GPUMPI_FN char *gp_fgets(char *s, int n, gp_FILE *f)
{
    if (n <= 0) return 0;
    int i = 0;
    while (i < n - 1) {
        int c = gp_fgetc(f);
        if (c == EOF) break;
        s[i++] = (char)c;
        if (c == '\n') break;
    }
    if (i == 0 || f->err) return 0;
    s[i] = 0;
    return s;
}

GPUMPI_FN size_t gp_fread(void *p, size_t size, size_t n, gp_FILE *f)
{
    size_t want = size * n, got = 0;
    if (want == 0) return 0;
    char *out = (char *)p;
    if (f->has_unget) {
        out[got++] = (char)f->unget;
        f->has_unget = 0;
    }
    while (got < want) {
        if (f->mode == GP_BUF_READ && f->pos < f->len) {
            size_t k = f->len - f->pos;
            if (k > want - got) k = want - got;
            gp_memcpy(out + got, f->buf + f->pos, k);
            f->pos += (uint32_t)k;
            got += k;
        } else if (want - got >= GP_FILE_BUF && gp_can_read(f)) {
            /* a big read goes straight into the caller's memory */
            if (f->mode == GP_BUF_WRITE && gp_file_flush(f) < 0) break;
            f->mode = GP_BUF_NONE;
            int err = 0;
            size_t k = 0;
            int64_t r = gp_host_rpc(GP_HOST_READ, f->handle, GP_FILE_BUF, 0, 0, out + got, GP_FILE_BUF, &k, &err);
            if (r < 0) f->err = 1;
            if (r <= 0) {
                f->eof = 1;
                break;
            }
            got += k;
        } else if (!gp_fill(f)) {
            break;
        }
    }
    return got / size;
}

GPUMPI_FN gp_FILE *gp_stream_new(int handle, int readable, int writable)
{
    gp_libc_state *s = gp_libc();
    gp_FILE *f = (gp_FILE *)gp_malloc(sizeof(gp_FILE));
    if (!s || !f) {
        gp_free(f);
        gp_host_rpc(GP_HOST_CLOSE, handle, 0, 0, 0, 0, 0, 0, 0);
        return 0;
    }
    gp_memset(f, 0, sizeof *f);
    f->fd = -1;
    f->handle = handle;
    f->readable = (uint8_t)readable;
    f->writable = (uint8_t)writable;
    f->next = s->files;
    s->files = f;
    return f;
}

GPUMPI_FN gp_FILE *gp_fopen(const char *path, const char *mode)
{
    if (!path || !mode || (mode[0] != 'r' && mode[0] != 'w' && mode[0] != 'a')) return 0;
    size_t pl = gp_strlen(path), ml = gp_strlen(mode);
    if (pl + ml + 2 > GP_HOST_CALL_BYTES) return 0;
    char req[GP_HOST_CELL_BYTES];
    char *msg = pl + ml + 2 <= sizeof req ? req : (char *)gp_malloc(pl + ml + 2);
    if (!msg) return 0;
    gp_memcpy(msg, path, pl + 1);
    gp_memcpy(msg + pl + 1, mode, ml + 1);
    int err = 0;
    int64_t h = gp_host_rpc(GP_HOST_OPEN, 0, 0, msg, pl + ml + 2, 0, 0, 0, &err);
    if (msg != req) gp_free(msg);
    if (h < 0) return 0;
    int plus = 0;
    for (const char *m = mode + 1; *m; m++) plus |= *m == '+';
    return gp_stream_new((int)h, mode[0] == 'r' || plus, mode[0] != 'r' || plus);
}

GPUMPI_FN gp_FILE *gp_tmpfile(void)
{
    int64_t h = gp_host_rpc(GP_HOST_TMPFILE, 0, 0, 0, 0, 0, 0, 0, 0);
    return h < 0 ? 0 : gp_stream_new((int)h, 1, 1);
}

GPUMPI_FN int gp_fclose(gp_FILE *f)
{
    if (!f) return EOF;
    if (f->fd >= 0) { /* a standard stream: flush; it stays usable by the other ranks */
        gp_fflush(f);
        return 0;
    }
    int rc = gp_file_flush(f);
    if (gp_host_rpc(GP_HOST_CLOSE, f->handle, 0, 0, 0, 0, 0, 0, 0) < 0) rc = -1;
    gp_stream_forget(f);
    return rc < 0 ? EOF : 0;
}

GPUMPI_FN void gp_stream_forget(gp_FILE *f)
{
    gp_libc_state *s = gp_libc();
    for (gp_FILE **at = s ? &s->files : 0; at && *at; at = &(*at)->next)
        if (*at == f) {
            *at = f->next;
            break;
        }
    gp_free(f->buf);
    gp_free(f);
}

GPUMPI_FN int gp_fseek(gp_FILE *f, long off, int whence)
{
    if (f->fd >= 0) return -1; /* the standard streams are not seekable here */
    if (f->mode == GP_BUF_WRITE && gp_file_flush(f) < 0) return -1;
    if (f->mode == GP_BUF_READ && whence == SEEK_CUR) off -= (long)(f->len - f->pos) + f->has_unget;
    f->pos = f->len = 0;
    f->has_unget = 0;
    f->mode = GP_BUF_NONE;
    char w = (char)whence;
    int64_t r = gp_host_rpc(GP_HOST_SEEK, f->handle, off, &w, 1, 0, 0, 0, 0);
    if (r < 0) return -1;
    f->eof = 0;
    return 0;
}

GPUMPI_FN long gp_ftell(gp_FILE *f)
{
    if (f->fd >= 0) return -1;
    if (f->mode == GP_BUF_WRITE && gp_file_flush(f) < 0) return -1;
    char w = SEEK_CUR;
    int64_t r = gp_host_rpc(GP_HOST_SEEK, f->handle, 0, &w, 1, 0, 0, 0, 0);
    if (r < 0) return -1;
    if (f->mode == GP_BUF_READ) r -= (int64_t)(f->len - f->pos);
    return (long)(r - f->has_unget);
}

GPUMPI_FN void gp_rewind(gp_FILE *f)
{
    gp_fseek(f, 0, SEEK_SET);
    f->err = 0;
}

GPUMPI_FN int gp_feof(gp_FILE *f) { return f->eof; }
GPUMPI_FN int gp_ferror(gp_FILE *f) { return f->err; }

GPUMPI_FN void gp_clearerr(gp_FILE *f)
{
    f->eof = 0;
    f->err = 0;
}

GPUMPI_FN int gp_fileno(gp_FILE *f) { return f->fd >= 0 ? f->fd : 3 + f->handle; }

GPUMPI_FN int64_t gp_path_call(int op, const char *a, const char *b, int64_t arg)
{
    size_t la = gp_strlen(a) + 1, lb = b ? gp_strlen(b) + 1 : 0;
    if (la + lb > GP_HOST_CALL_BYTES) {
        *gp_errno_location() = ENAMETOOLONG;
        return -1;
    }
    char *msg = (char *)gp_malloc(la + lb);
    if (!msg) {
        *gp_errno_location() = ENOMEM;
        return -1;
    }
    gp_memcpy(msg, a, la);
    if (b) gp_memcpy(msg + la, b, lb);
    int err = 0;
    int64_t r = gp_host_rpc(op, arg, 0, msg, la + lb, 0, 0, 0, &err);
    gp_free(msg);
    if (r < 0) *gp_errno_location() = err; /* as the host's call set it */
    return r;
}

GPUMPI_FN static int gp_path_status(int op, const char *a, const char *b, int64_t arg)
{
    return gp_path_call(op, a, b, arg) < 0 ? -1 : 0;
}

GPUMPI_FN int gp_remove(const char *path) { return gp_path_status(GP_HOST_REMOVE, path, 0, 0); }
GPUMPI_FN int gp_rename(const char *from, const char *to) { return gp_path_status(GP_HOST_RENAME, from, to, 0); }
GPUMPI_FN int gp_access(const char *path, int mode) { return gp_path_status(GP_HOST_ACCESS, path, 0, mode); }
GPUMPI_FN int gp_mkdir(const char *path, mode_t mode) { return gp_path_status(GP_HOST_MKDIR, path, 0, mode); }
GPUMPI_FN int gp_rmdir(const char *path) { return gp_path_status(GP_HOST_RMDIR, path, 0, 0); }
GPUMPI_FN int gp_unlink(const char *path) { return gp_path_status(GP_HOST_UNLINK, path, 0, 0); }

GPUMPI_FN void gp_flush_all_files(void)
{
    gp_libc_state *s = (gp_libc_state *)gp_self()->libc;
    for (gp_FILE *f = s ? s->files : 0; f; f = f->next) gp_file_flush(f);
}

GPUMPI_FN void gp_close_all_files(gp_libc_state *s)
{
    while (s->files) gp_fclose(s->files);
}

/* fscanf: the scan core (scan.cu) reading from the stream's buffer. */
GPUMPI_FN static int gp_file_scan_getc(void *f) { return gp_fgetc((gp_FILE *)f); }
GPUMPI_FN static void gp_file_scan_ungetc(int c, void *f) { gp_ungetc(c, (gp_FILE *)f); }

GPUMPI_FN int gp_vfscanf(gp_FILE *f, const char *fmt, va_list ap)
{
    gp_scan_src src = {gp_file_scan_getc, gp_file_scan_ungetc, f};
    return gp_vscan(&src, fmt, ap);
}

GPUMPI_VARIADIC_FN int gp_fscanf(gp_FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = gp_vfscanf(f, fmt, ap);
    va_end(ap);
    return n;
}

GPUMPI_FN int gp_vscanf(const char *fmt, va_list ap) { return gp_vfscanf(gp_stdin(), fmt, ap); }

GPUMPI_VARIADIC_FN int gp_scanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = gp_vfscanf(gp_stdin(), fmt, ap);
    va_end(ap);
    return n;
}

/* The shim chooses the buffering itself (stdout goes out a whole line at
 * a time per rank, a file has one buffer per stream); a request for another
 * mode or buffer is accepted and changes nothing (libc-shim/README.md). */
GPUMPI_FN int gp_setvbuf(gp_FILE *f, char *buf, int mode, size_t size)
{
    (void)f, (void)buf, (void)size;
    return mode == _IOFBF || mode == _IOLBF || mode == _IONBF ? 0 : -1;
}

GPUMPI_FN void gp_setbuf(gp_FILE *f, char *buf) { gp_setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }
