/* The host's side of the ranks' files: a table of open descriptors, indexed
 * by the handle a rank's FILE keeps (0 is stdin). Each call is one system
 * call or two, answered in the call's own cells; a read of a pipe that has
 * nothing yet is answered by a later poll. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_service.h"

static int *fds;       /* handle -> descriptor, -1 when free */
static int nfds, capfds;
static int free_hint;

void gp_host_files_init(void)
{
    /* thousands of ranks may each open a file: allow as many as the system does */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    capfds = 64;
    fds = malloc(sizeof(int) * (size_t)capfds);
    fds[0] = 0; /* stdin */
    nfds = 1;
    free_hint = 1;
}

static int new_handle(int fd)
{
    for (int h = free_hint; h < nfds; h++)
        if (fds[h] < 0) {
            fds[h] = fd;
            free_hint = h + 1;
            return h;
        }
    if (nfds == capfds) {
        capfds *= 2;
        fds = realloc(fds, sizeof(int) * (size_t)capfds);
    }
    fds[nfds] = fd;
    free_hint = nfds + 1;
    return nfds++;
}

static int fd_of(int64_t h) { return h >= 0 && h < nfds ? fds[h] : -1; }

int gp_host_file_add(int fd) { return new_handle(fd); }
int gp_host_file_fd(int64_t h) { return fd_of(h); }

void gp_host_file_forget(int64_t h)
{
    if (h <= 0 || h >= nfds) return;
    fds[h] = -1;
    if (h < free_hint) free_hint = (int)h;
}

static int open_flags(const char *mode)
{
    int plus = strchr(mode + 1, '+') != NULL, excl = strchr(mode + 1, 'x') != NULL;
    int f = mode[0] == 'r' ? (plus ? O_RDWR : O_RDONLY)
            : mode[0] == 'w' ? (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC
                             : (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND;
    if (excl && mode[0] != 'r') f |= O_EXCL;
    return f | O_CLOEXEC;
}

static int64_t open_file(const char *req, size_t len)
{
    const char *path = req, *mode = req + strnlen(req, len) + 1;
    if (mode >= req + len || (mode[0] != 'r' && mode[0] != 'w' && mode[0] != 'a')) {
        errno = EINVAL;
        return -1;
    }
    int fd = open(path, open_flags(mode), 0666);
    return fd < 0 ? -1 : new_handle(fd);
}

static int64_t temp_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/gpumpi-tmpfile-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    unlink(path); /* gone when closed, as tmpfile() promises */
    return new_handle(fd);
}

static int64_t write_file(int fd, const char *p, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k = write(fd, p + done, n - done);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return done ? (int64_t)done : -1;
        done += (size_t)k;
    }
    return (int64_t)done;
}

/* Reads into the call's cells; returns bytes (0 at end of file) or -1. */
static int64_t read_file(int fd, gp_host_cell *const *cells, int k, int64_t most)
{
    static char buf[GP_HOST_CALL_BYTES];
    size_t cap = (size_t)k * GP_HOST_CELL_BYTES;
    if (most < 0) most = 0;
    if ((size_t)most < cap) cap = (size_t)most;
    ssize_t n;
    do n = read(fd, buf, cap);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return n;
    for (size_t at = 0; at < (size_t)n; at += GP_HOST_CELL_BYTES) {
        size_t m = (size_t)n - at < GP_HOST_CELL_BYTES ? (size_t)n - at : GP_HOST_CELL_BYTES;
        memcpy(cells[at / GP_HOST_CELL_BYTES]->data, buf + at, m);
    }
    return n;
}

/* Reads that wait for a pipe (a command's output) to have data. */
static struct waiting_read {
    uint64_t t;
    int k;
} *waiting;
static int nwaiting, capwaiting;

static int readable_now(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) != 0; /* data, end of file, an error: read() will not block */
}

static void answer_read(gp_host_cell *const *cells, int k)
{
    gp_host_cell *c = cells[0];
    int fd = fd_of(c->arg);
    errno = 0;
    c->ret = fd < 0 ? (errno = EBADF, -1) : read_file(fd, cells, k, c->arg2);
    c->err = c->ret < 0 ? (errno ? errno : EIO) : 0;
    c->len = c->ret > 0 ? (uint32_t)c->ret : 0;
}

int gp_host_files_poll(void)
{
    int answered = 0;
    for (int i = 0; i < nwaiting;) {
        gp_host_cell *cs[GP_HOST_CALL_CELLS];
        for (int j = 0; j < waiting[i].k; j++) cs[j] = gp_host_cell_at(waiting[i].t + (uint64_t)j);
        int fd = fd_of(cs[0]->arg);
        if (fd >= 0 && !readable_now(fd)) {
            i++;
            continue;
        }
        answer_read(cs, waiting[i].k);
        gp_host_answer(waiting[i].t);
        waiting[i] = waiting[--nwaiting];
        answered++;
    }
    return answered;
}

int gp_host_files_serve(gp_host_cell *const *cells, int k, const char *req, size_t req_len, uint64_t t)
{
    gp_host_cell *c = cells[0];
    int64_t ret = -1;
    errno = 0;
    if (c->op == GP_HOST_READ) {
        int fd = fd_of(c->arg);
        if (fd > 0 && !readable_now(fd)) { /* stdin (0) is read as before: a blocking read */
            if (nwaiting == capwaiting) {
                capwaiting = capwaiting ? 2 * capwaiting : 16;
                waiting = realloc(waiting, sizeof *waiting * (size_t)capwaiting);
            }
            waiting[nwaiting++] = (struct waiting_read){t, k};
            return 0;
        }
        answer_read(cells, k);
        return 1;
    }
    switch (c->op) {
    case GP_HOST_SYSCONF:
    case GP_HOST_TZ:
    case GP_HOST_SYSTEM:
    case GP_HOST_POPEN:
    case GP_HOST_PCLOSE:
        return gp_host_system_serve(c, req, req_len, t);
    case GP_HOST_OPEN:
        ret = open_file(req, req_len);
        break;
    case GP_HOST_TMPFILE:
        ret = temp_file();
        break;
    case GP_HOST_CLOSE: {
        int fd = fd_of(c->arg);
        if (fd > 0) { /* never close stdin (handle 0) */
            ret = close(fd) == 0 ? 0 : -1;
            fds[c->arg] = -1;
            if (c->arg < free_hint) free_hint = (int)c->arg;
        } else {
            ret = fd == 0 ? 0 : -1;
            if (fd < 0) errno = EBADF;
        }
        break;
    }
    case GP_HOST_FWRITE: {
        int fd = fd_of(c->arg);
        if (fd < 0) {
            errno = EBADF;
            break;
        }
        ret = write_file(fd, req, req_len);
        break;
    }
    case GP_HOST_SEEK: {
        int fd = fd_of(c->arg);
        int whence = req_len ? req[0] : SEEK_SET;
        if (fd < 0) {
            errno = EBADF;
            break;
        }
        ret = lseek(fd, (off_t)c->arg2, whence);
        break;
    }
    case GP_HOST_REMOVE:
        ret = remove(req);
        break;
    case GP_HOST_ACCESS:
        ret = access(req, (int)c->arg);
        break;
    case GP_HOST_MKDIR:
        ret = mkdir(req, (mode_t)c->arg);
        break;
    case GP_HOST_RMDIR:
        ret = rmdir(req);
        break;
    case GP_HOST_UNLINK:
        ret = unlink(req);
        break;
    case GP_HOST_RENAME: {
        size_t n = strnlen(req, req_len);
        ret = n + 1 < req_len ? rename(req, req + n + 1) : (errno = EINVAL, -1);
        break;
    }
    default:
        errno = ENOSYS;
        break;
    }
    c->ret = ret;
    c->err = ret < 0 ? (errno ? errno : EIO) : 0;
    c->len = 0;
    return 1;
}
