/* The deadlock watchdog. Ranks publish a record when a wait inside MPI has
 * lasted a while (runtime/src/watchdog.cu); here the launcher's service loop
 * looks at the records a few times a second. Only when every rank still
 * running is blocked, and no record has changed (no message reached a
 * blocked rank, none left its wait) for --timeout seconds, is it a
 * deadlock: a rank computing is never blocked, so a long computation is not
 * reported. The report groups ranks waiting in the same way into ranges.
 * The same loop enforces the job's time limit (--time-limit,
 * MPIEXEC_TIMEOUT as mpiexec reads it), computing or not, with the same
 * report. */
#define _POSIX_C_SOURCE 200809L
#include "watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host_service.h"

static gp_block_rec *recs;
static int n;
static double limit, job_limit, started, last_look, quiet_since;
static uint64_t last_sig;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void gp_watchdog_init(gp_block_rec *r, int nranks, double timeout, double time_limit)
{
    recs = r;
    n = nranks;
    limit = timeout;
    job_limit = time_limit;
    started = last_look = quiet_since = now_s();
}

static uint64_t word(int r) { return __atomic_load_n((uint64_t *)&recs[r].state, __ATOMIC_ACQUIRE); }

static void describe_comm(char *s, size_t cap, int32_t comm)
{
    if (comm == 1)
        snprintf(s, cap, "MPI_COMM_WORLD");
    else if (comm == 2)
        snprintf(s, cap, "MPI_COMM_SELF");
    else
        snprintf(s, cap, "communicator %d", comm);
}

static uint32_t state_of(const gp_block_rec *a) { return a->state; }

/* Does rank rb wait the same way as the group that rank ra begins? Same
 * call, communicator and tag, and either the same peer (mode 1) or the same
 * offset to it (mode 2); the second member decides the mode. */
static int same_way(const gp_block_rec *a, int ra, const gp_block_rec *b, int rb, int *mode)
{
    if (state_of(a) != state_of(b)) return 0;
    if (state_of(a) == GP_REC_EXITED) return a->code == b->code;
    if (state_of(a) == GP_REC_RUNNING) return 1;
    if (strncmp(a->fn, b->fn, sizeof a->fn) || a->comm != b->comm || a->tag != b->tag) return 0;
    if (a->peer < 0 || b->peer < 0) return a->peer == b->peer;
    int same = a->peer == b->peer, offset = b->peer - rb == a->peer - ra;
    if (*mode == 0) *mode = same ? 1 : offset ? 2 : 0;
    return *mode == 1 ? same : *mode == 2 ? offset : 0;
}

static void describe(char *what, size_t cap, gp_block_rec *a, int ra, int mode)
{
    if (state_of(a) == GP_REC_EXITED) {
        snprintf(what, cap, "finished (exit status %d)", a->code);
        return;
    }
    if (state_of(a) == GP_REC_RUNNING) { /* only the time limit reports these */
        snprintf(what, cap, "running (not blocked in MPI)");
        return;
    }
    a->fn[sizeof a->fn - 1] = 0;
    /* the last word says which way: "MPI_Recv", or "MPI_Wait: MPI_Ibcast #2 phase 0 Send" */
    const char *space = strrchr(a->fn, ' '), *last = space ? space + 1 : a->fn;
    const char *dir = strstr(last, "Recv") || strstr(last, "Probe") ? "from" : strstr(last, "Send") ? "to" : "with";
    char peer[64] = "", comm[48], tag[32] = "";
    if (a->peer == -2) /* MPI_ANY_SOURCE */
        snprintf(peer, sizeof peer, " from any source");
    else if (a->peer >= 0 && mode == 2)
        snprintf(peer, sizeof peer, " %s rank%+d", dir, a->peer - ra);
    else if (a->peer >= 0)
        snprintf(peer, sizeof peer, " %s rank %d", dir, a->peer);
    if (a->tag == -1) /* MPI_ANY_TAG */
        snprintf(tag, sizeof tag, "any tag, ");
    else if (a->tag != GP_BLOCK_NONE)
        snprintf(tag, sizeof tag, "tag %d, ", a->tag);
    describe_comm(comm, sizeof comm, a->comm);
    snprintf(what, cap, "%s%s (%s%s)", a->fn, peer, tag, comm);
}

/* Ends the job (status 124, as timeout(1)) with `why` and where the ranks are. */
static void report(const char *why)
{
    size_t cap = 1 << 16, len = 0;
    char *msg = malloc(cap);
    len += (size_t)snprintf(msg + len, cap - len, "%s Where the ranks are:\n", why);
    int groups = 0;
    for (int r = 0; r < n;) {
        gp_block_rec a = recs[r];
        int end = r, mode = 0;
        while (end + 1 < n) {
            gp_block_rec b = recs[end + 1];
            if (!same_way(&a, r, &b, end + 1, &mode)) break;
            end++;
        }
        if (++groups <= 40 && len + 512 < cap) {
            char who[64], what[256];
            if (end > r)
                snprintf(who, sizeof who, "ranks %d-%d", r, end);
            else
                snprintf(who, sizeof who, "rank %d", r);
            describe(what, sizeof what, &a, r, mode);
            len += (size_t)snprintf(msg + len, cap - len, "gpumpi:   %s: %s\n", who, what);
        }
        r = end + 1;
    }
    if (groups > 40) len += (size_t)snprintf(msg + len, cap - len, "gpumpi:   ... and %d more groups\n", groups - 40);
    gp_end_job(124, msg);
}

void gp_watchdog_check(void)
{
    if ((limit <= 0 && job_limit <= 0) || !recs) return;
    double t = now_s();
    char why[256];
    if (job_limit > 0 && t - started >= job_limit) {
        snprintf(why, sizeof why, "gpumpi: time limit: the job ran for %.1f s, past its limit of %g s "
                 "(--time-limit, or MPIEXEC_TIMEOUT).", t - started, job_limit);
        report(why);
    }
    if (limit <= 0) return;
    double period = limit / 4 < 0.25 ? limit / 4 : 0.25;
    if (t - last_look < period) return;
    last_look = t;
    uint64_t sig = 0;
    int live = 0;
    for (int r = 0; r < n; r++) {
        uint64_t w = word(r);
        uint32_t state = (uint32_t)w;
        if (state == GP_REC_EXITED) continue;
        if (state != GP_REC_BLOCKED) { /* someone is computing (or just left a wait) */
            quiet_since = t;
            last_sig = 0;
            return;
        }
        live++;
        sig = sig * 1000003u + (w >> 32) + 1;
    }
    if (live == 0) return;
    if (sig != last_sig) {
        last_sig = sig;
        quiet_since = t;
        return;
    }
    if (t - quiet_since >= limit) {
        snprintf(why, sizeof why, "gpumpi: deadlock: every rank still running has been blocked in MPI for %.1f s with "
                 "no message moving (--timeout %g).", t - quiet_since, limit);
        report(why);
    }
}
