/* What a rank asks of the host system beyond its files: sysconf values, the
 * time zone's offset at a given time, and commands (system, popen/pclose).
 * A command is started at once (posix_spawn: no copy of the launcher's
 * large mappings) and waited for by later polls, so a long command holds
 * up only the rank that ran it. Each rank's command is its own process. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host_service.h"

extern char **environ;

/* Calls that wait for a command to end: system, pclose. */
static struct waiting_child {
    uint64_t t;
    pid_t pid;
} *waiting;
static int nwaiting, capwaiting;

/* The command behind each open popen handle. */
static struct pipe_child {
    int64_t handle;
    pid_t pid;
} *pipes;
static int npipes, cappipes;

static void wait_later(uint64_t t, pid_t pid)
{
    if (nwaiting == capwaiting) {
        capwaiting = capwaiting ? 2 * capwaiting : 16;
        waiting = realloc(waiting, sizeof *waiting * (size_t)capwaiting);
    }
    waiting[nwaiting++] = (struct waiting_child){t, pid};
}

int gp_host_system_poll(void)
{
    int answered = 0;
    for (int i = 0; i < nwaiting;) {
        int status = 0;
        pid_t r = waitpid(waiting[i].pid, &status, WNOHANG);
        if (r == 0 || (r < 0 && errno == EINTR)) {
            i++;
            continue;
        }
        gp_host_cell *c = gp_host_cell_at(waiting[i].t);
        c->ret = r < 0 ? -1 : status;
        c->err = r < 0 ? errno : 0;
        c->len = 0;
        gp_host_answer(waiting[i].t);
        waiting[i] = waiting[--nwaiting];
        answered++;
    }
    return answered;
}

/* /bin/sh -c command, with child_fd (0 or 1; -1: none) the pipe end
 * `end`. Returns the pid or -1 with errno set. */
static pid_t spawn_shell(const char *command, int end, int child_fd)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    if (child_fd >= 0) posix_spawn_file_actions_adddup2(&fa, end, child_fd);
    /* the command starts as from a shell: no signal blocked, SIGPIPE as default */
    sigset_t none, pipe_sig;
    sigemptyset(&none);
    sigemptyset(&pipe_sig);
    sigaddset(&pipe_sig, SIGPIPE);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &pipe_sig);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {(char *)"sh", (char *)"-c", (char *)command, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return pid;
}

static int64_t open_pipe(const char *command, int64_t mode)
{
    int p[2];
    if ((mode != 'r' && mode != 'w') || pipe2(p, O_CLOEXEC) != 0) {
        if (mode != 'r' && mode != 'w') errno = EINVAL;
        return -1;
    }
    int mine = mode == 'r' ? p[0] : p[1], theirs = mode == 'r' ? p[1] : p[0];
    pid_t pid = spawn_shell(command, theirs, mode == 'r' ? 1 : 0);
    int saved = errno;
    close(theirs);
    if (pid < 0) {
        close(mine);
        errno = saved;
        return -1;
    }
    if (npipes == cappipes) {
        cappipes = cappipes ? 2 * cappipes : 16;
        pipes = realloc(pipes, sizeof *pipes * (size_t)cappipes);
    }
    int64_t h = gp_host_file_add(mine);
    pipes[npipes++] = (struct pipe_child){h, pid};
    return h;
}

/* Closes the pipe; returns its command's pid, or -1 (not a popen handle). */
static pid_t close_pipe(int64_t h)
{
    for (int i = 0; i < npipes; i++)
        if (pipes[i].handle == h) {
            pid_t pid = pipes[i].pid;
            pipes[i] = pipes[--npipes];
            close(gp_host_file_fd(h));
            gp_host_file_forget(h);
            return pid;
        }
    errno = ECHILD;
    return -1;
}

/* The values of the sysconf() names in req (int32 each), into the reply. */
static uint32_t sysconf_values(gp_host_cell *c, const char *req, size_t len)
{
    size_t n = len / sizeof(int32_t);
    if (n * sizeof(int64_t) > GP_HOST_CELL_BYTES) n = GP_HOST_CELL_BYTES / sizeof(int64_t);
    for (size_t i = 0; i < n; i++) {
        int32_t name;
        memcpy(&name, req + i * sizeof name, sizeof name);
        int64_t v = sysconf(name);
        memcpy(c->data + i * sizeof v, &v, sizeof v);
    }
    return (uint32_t)(n * sizeof(int64_t));
}

/* At time arg: the UTC offset (int64, seconds), isdst (a byte) and the
 * zone's name (NUL-terminated), into the reply. */
static uint32_t zone_at(gp_host_cell *c)
{
    time_t t = (time_t)c->arg;
    struct tm tm;
    int64_t off = 0;
    const char *z = "UTC";
    char dst = 0;
    if (localtime_r(&t, &tm)) {
        off = tm.tm_gmtoff;
        dst = (char)(tm.tm_isdst > 0);
        if (tm.tm_zone) z = tm.tm_zone;
    }
    size_t n = strnlen(z, GP_HOST_CELL_BYTES - sizeof off - 2);
    memcpy(c->data, &off, sizeof off);
    c->data[sizeof off] = dst;
    memcpy(c->data + sizeof off + 1, z, n);
    c->data[sizeof off + 1 + n] = 0;
    return (uint32_t)(sizeof off + n + 2);
}

int gp_host_system_serve(gp_host_cell *c, const char *req, size_t req_len, uint64_t t)
{
    int64_t ret = -1;
    uint32_t reply = 0;
    errno = 0;
    switch (c->op) {
    case GP_HOST_SYSCONF:
        reply = sysconf_values(c, req, req_len);
        ret = 0;
        break;
    case GP_HOST_TZ:
        reply = zone_at(c);
        ret = 0;
        break;
    case GP_HOST_SYSTEM: {
        pid_t pid = spawn_shell(req, -1, -1);
        if (pid > 0) {
            wait_later(t, pid);
            return 0;
        }
        break;
    }
    case GP_HOST_POPEN:
        ret = open_pipe(req, c->arg);
        break;
    case GP_HOST_PCLOSE: {
        pid_t pid = close_pipe(c->arg);
        if (pid > 0) {
            wait_later(t, pid);
            return 0;
        }
        break;
    }
    default:
        errno = ENOSYS;
        break;
    }
    c->ret = ret;
    c->err = ret < 0 ? (errno ? errno : EIO) : 0;
    c->len = reply;
    return 1;
}
