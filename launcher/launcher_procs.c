/* See launcher_procs.h. */
#define _GNU_SOURCE
#include "launcher_procs.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "host_mpi.h"

/* Address space randomisation puts the program and its libraries at other
 * addresses in each process; with it off they match, and so do pointers
 * to functions and constants that ranks store for each other. Re-executes
 * this program with it off, once: the flag survives exec (and is
 * inherited, so a job started under `setarch -R` never re-executes). */
static void run_without_randomisation(void)
{
    int now = personality(0xffffffff);
    if (now == -1 || (now & ADDR_NO_RANDOMIZE)) return;
    if (personality((unsigned long)now | ADDR_NO_RANDOMIZE) == -1) return; /* the check below then says so */
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f) return;
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    if (len == 0 || len == sizeof buf - 1) return;
    buf[len] = 0;
    char **argv = calloc(len + 1, sizeof *argv);
    int argc = 0;
    for (size_t at = 0; at < len; at += strlen(buf + at) + 1) argv[argc++] = buf + at;
    argv[argc] = NULL;
    fflush(NULL);
    execv("/proc/self/exe", argv);
    free(argv); /* could not: go on, and the check below decides */
}

/* Before main, so that nothing the launcher prints comes twice. */
__attribute__((constructor)) static void randomisation_off_under_mpiexec(void)
{
    gp_host_job job;
    if (gp_host_job_detect(&job)) run_without_randomisation();
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

/* What every process of a job must have the same as process 0. */
typedef struct identity {
    long long nranks;
    unsigned long long program;  /* the executable file */
    unsigned long long args;     /* the program's own arguments */
    unsigned long long code, data, lib; /* where a function, a constant and libc's memcpy are */
} identity;

static identity who_am_i(const gp_options *o)
{
    identity id;
    memset(&id, 0, sizeof id);
    id.nranks = o->nranks;
    struct stat st;
    if (stat("/proc/self/exe", &st) == 0) {
        uint64_t h = fnv(1469598103934665603ull, &st.st_dev, sizeof st.st_dev);
        h = fnv(h, &st.st_ino, sizeof st.st_ino);
        h = fnv(h, &st.st_size, sizeof st.st_size);
        id.program = fnv(h, &st.st_mtime, sizeof st.st_mtime);
    }
    uint64_t h = 1469598103934665603ull;
    for (int i = 1; i < o->app_argc; i++) h = fnv(h, o->app_argv[i], strlen(o->app_argv[i]) + 1);
    id.args = h;
    static const char constant[] = "gpumpi";
    id.code = (unsigned long long)(uintptr_t)&gp_procs_start;
    id.data = (unsigned long long)(uintptr_t)constant;
    id.lib = (unsigned long long)(uintptr_t)&memcpy;
    return id;
}

/* 0 if this process agrees with process 0, else 1 after saying why. */
static int differs(const identity *mine, const identity *first, int proc)
{
    if (mine->nranks != first->nranks) {
        fprintf(stderr, "gpumpi: launcher process %d runs %lld ranks (-n) but process 0 runs %lld: give every process "
                "of the job the same ---gpumpi options\n", proc, mine->nranks, first->nranks);
        return 1;
    }
    if (mine->program != first->program || mine->args != first->args) {
        fprintf(stderr, "gpumpi: launcher process %d runs another program or other arguments than process 0: every "
                "process of one job must run the same program (mpiexec -n P ./prog args ---gpumpi -n N)\n", proc);
        return 1;
    }
    if (mine->code != first->code || mine->data != first->data || mine->lib != first->lib) {
        fprintf(stderr, "gpumpi: launcher process %d has the program at other addresses than process 0 (address "
                "space randomisation is on and could not be turned off here); start the job under `setarch -R`: "
                "setarch -R mpiexec ...\n", proc);
        return 1;
    }
    return 0;
}

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

int gp_procs_take_fd(long long pid, int fd)
{
    int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
    if (pidfd < 0) return -1;
    int got = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
    int saved = errno;
    close(pidfd);
    errno = saved;
    return got;
}

/* mpirun gives each launcher process a pipe (or a terminal) of its own
 * and forwards what it reads from each as it comes; a read that ends
 * inside a line lets another process's output in there (Open MPI's cut 7
 * of 2,048 lines so, MPICH's none). So every process writes to process
 * 0's stdout and stderr, the same open files: one stream, in which the
 * host service's writes of whole lines stay whole and in the order made.
 * Where that is refused each process keeps its own. */
static void share_output(int proc)
{
    long long pid = (long long)getpid();
    gp_host_mpi_bcast(&pid, sizeof pid, 0);
    if (proc == 0) return;
    fflush(NULL);
    for (int fd = 1; fd <= 2; fd++) {
        int got = gp_procs_take_fd(pid, fd);
        if (got < 0) continue;
        dup2(got, fd);
        close(got);
    }
}

gp_procs gp_procs_start(const gp_options *o)
{
    gp_procs me = {0, 1};
    gp_host_job job;
    if (!gp_host_job_detect(&job)) return me;
    if (gp_host_mpi_init(&job) != 0) {
        fprintf(stderr, "gpumpi: launcher process %d of %d cannot reach the other processes without the host MPI\n",
                job.rank, job.size);
        exit(1);
    }
    me.rank = job.rank;
    me.size = job.size;
    identity mine = who_am_i(o), first = mine;
    gp_host_mpi_bcast(&first, sizeof first, 0);
    long long bad[1] = {differs(&mine, &first, me.rank)};
    gp_host_mpi_allreduce_max(bad, 1);
    if (bad[0]) {
        gp_host_mpi_finalize();
        exit(2);
    }
    share_output(me.rank);
    if (o->verbose)
        fprintf(stderr, "gpumpi: launcher process %d of %d (%s, pid %d) runs world ranks %d to %d of %d\n", me.rank,
                me.size, job.flavour, (int)getpid(), me.rank * o->nranks, (me.rank + 1) * o->nranks - 1,
                me.size * o->nranks);
    return me;
}

void gp_procs_end_job(int status)
{
    fflush(NULL);
    /* mpiexec forwards a process's output as it comes, but an abort may
     * kill the process's proxy before it has read the reason just written:
     * give it a moment (an abort is rare; losing its reason is not) */
    struct timespec ts = {0, 300000000L};
    nanosleep(&ts, NULL);
    gp_host_mpi_abort(status);
    _exit(status);
}

void gp_procs_finish(void) { gp_host_mpi_finalize(); }
