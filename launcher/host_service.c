/* Host side of the host-call ring (runtime/src/host_call.cu is the device
 * side). Cells are served strictly in ticket order, so one rank's writes keep
 * their order and a multi-cell write stays contiguous. Output is gathered in
 * a buffer per stream and written when a poll has nothing more to serve:
 * one write() for many lines, not one per cell. */
#define _GNU_SOURCE
#include "host_service.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

static gp_host_cell *cells;
static int eager_polls; /* polls left before sleeping (set after an answer) */
static uint64_t next_ticket;
static long idle_ns;
static int tagging, nranks_served;
static unsigned char *mid_line; /* with --tag-output: rank r's stream fd is in a line (bit fd) */

#define OUT_BUF (256u << 10)
static struct {
    char *buf;
    size_t len;
} out[3];

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k <= 0) return; /* a closed pipe: the output has no reader */
        p += k;
        n -= (size_t)k;
    }
}

/* Several launcher processes write into one output (mpiexec forwards each
 * process's pipe): writes of at most PIPE_BUF bytes that end at a line's
 * end reach the pipe whole, so mpiexec, which reads up to a pipe's worth,
 * never cuts one process's line into another's. */
static int whole_lines;

void gp_host_service_whole_lines(void) { whole_lines = 1; }

static void write_out(int fd, const char *p, size_t n)
{
    while (whole_lines && n > PIPE_BUF) {
        size_t k = PIPE_BUF;
        while (k > 0 && p[k - 1] != '\n') k--;
        if (k == 0) k = PIPE_BUF; /* a line longer than that goes in pieces */
        write_all(fd, p, k);
        p += k;
        n -= k;
    }
    write_all(fd, p, n);
}

void gp_host_service_flush(void)
{
    for (int fd = 1; fd <= 2; fd++) {
        write_out(fd, out[fd].buf, out[fd].len);
        out[fd].len = 0;
    }
}

static void put(int fd, const char *p, size_t n)
{
    if (out[fd].len + n > OUT_BUF) {
        write_out(fd, out[fd].buf, out[fd].len);
        out[fd].len = 0;
    }
    if (n > OUT_BUF) {
        write_out(fd, p, n);
        return;
    }
    memcpy(out[fd].buf + out[fd].len, p, n);
    out[fd].len += n;
}

/* Output of one rank, with "[1,r]<stdout>:" at the start of each line. */
static void output(int rank, int fd, const char *p, size_t n)
{
    if (!tagging || rank < 0 || rank >= nranks_served) {
        put(fd, p, n);
        return;
    }
    while (n > 0) {
        if (!(mid_line[rank] & (1 << fd))) {
            char tag[48];
            int k = snprintf(tag, sizeof tag, "[1,%d]<%s>:", rank, fd == 1 ? "stdout" : "stderr");
            put(fd, tag, (size_t)k);
            mid_line[rank] |= (unsigned char)(1 << fd);
        }
        const char *nl = memchr(p, '\n', n);
        size_t k = nl ? (size_t)(nl - p) + 1 : n;
        put(fd, p, k);
        if (nl) mid_line[rank] &= (unsigned char)~(1 << fd);
        p += k;
        n -= k;
    }
}

void gp_host_service_init(gp_host_cell *c, int nranks, int tag_output)
{
    cells = c;
    next_ticket = 0;
    for (uint64_t i = 0; i < GP_HOST_CELLS; i++) cells[i].seq = i;
    tagging = tag_output;
    nranks_served = nranks;
    if (tagging) mid_line = calloc((size_t)nranks, 1);
    for (int fd = 1; fd <= 2; fd++) out[fd].buf = malloc(OUT_BUF);
    gp_host_files_init();
}

static int ending;          /* a rank has ended the job: serve what is there, then exit */
static int draining;        /* gp_end_job is serving what is left */
static int end_status = 1, reason_rank = -1;
static uint64_t reason_next; /* a long reason spans consecutive cells */
static char end_reason[GP_HOST_CELL_BYTES * 4 + 1];

static gp_host_cell *cell(uint64_t t) { return &cells[t % GP_HOST_CELLS]; }
static int published(uint64_t t) { return __atomic_load_n(&cell(t)->seq, __ATOMIC_ACQUIRE) == t + 1; }

static void serve_one_way(gp_host_cell *c, uint64_t t)
{
    switch (c->op) {
    case GP_HOST_WRITE:
        output(c->rank, c->arg == 2 ? 2 : 1, c->data, c->len);
        break;
    case GP_HOST_WRITE_PACKED:
        for (size_t off = 0; off + sizeof(gp_packed_write) <= c->len && off < GP_HOST_CELL_BYTES;) {
            gp_packed_write h;
            memcpy(&h, c->data + off, sizeof h);
            size_t n = h.len, room = GP_HOST_CELL_BYTES - off - sizeof h;
            output(h.rank, h.fd == 2 ? 2 : 1, c->data + off + sizeof h, n < room ? n : room);
            off += (sizeof h + n + 7) & ~(size_t)7;
        }
        break;
    case GP_HOST_ABORT:
        if (!ending) { /* the first rank to end the job gives the reason and the status */
            ending = 1;
            end_status = (int)(c->arg & 255) ? (int)(c->arg & 255) : 1;
            reason_rank = c->rank;
            reason_next = t;
        }
        if (c->rank == reason_rank && t == reason_next) {
            size_t have = strlen(end_reason), n = c->len;
            if (have + n > sizeof end_reason - 1) n = sizeof end_reason - 1 - have;
            memcpy(end_reason + have, c->data, n);
            end_reason[have + n] = 0;
            reason_next = t + 1;
        }
        break;
    default:
        gp_host_service_flush();
        fprintf(stderr, "gpumpi: rank %d made an unknown host call %d (runtime and launcher do not match)\n", c->rank,
                c->op);
        _exit(1);
    }
}

/* A request/reply call of k cells from ticket t; 0 if not all are there yet. */
static int serve_call(uint64_t t)
{
    gp_host_cell *first = cell(t);
    int k = first->ncells ? first->ncells : 1;
    if (k > GP_HOST_CALL_CELLS) k = GP_HOST_CALL_CELLS;
    for (int i = 1; i < k; i++)
        if (!published(t + (uint64_t)i)) return 0;
    gp_host_cell *cs[GP_HOST_CALL_CELLS];
    static char req[GP_HOST_CALL_BYTES + 1];
    size_t len = 0;
    for (int i = 0; i < k; i++) {
        cs[i] = cell(t + (uint64_t)i);
        size_t n = cs[i]->len > GP_HOST_CELL_BYTES ? GP_HOST_CELL_BYTES : cs[i]->len;
        memcpy(req + len, cs[i]->data, n);
        len += n;
    }
    req[len] = 0;
    gp_host_service_flush(); /* the program's output so far comes before what a file call does */
    if (gp_host_files_serve(cs, k, req, len, t)) gp_host_answer(t);
    return k;
}

gp_host_cell *gp_host_cell_at(uint64_t t) { return cell(t); }

void gp_host_answer(uint64_t t)
{
    eager_polls = 100; /* the caller may well call again at once */
    __atomic_store_n(&cell(t)->seq, t + 2, __ATOMIC_RELEASE); /* answered: the caller frees the cells */
}

int gp_host_service_poll(void)
{
    int served = gp_host_files_poll() + gp_host_system_poll();
    for (;;) {
        if (!published(next_ticket)) break;
        gp_host_cell *c = cell(next_ticket);
        if (c->op >= GP_HOST_OPEN) {
            int k = serve_call(next_ticket);
            if (!k) break;
            next_ticket += (uint64_t)k;
        } else {
            serve_one_way(c, next_ticket);
            __atomic_store_n(&c->seq, next_ticket + GP_HOST_CELLS, __ATOMIC_RELEASE);
            next_ticket++;
        }
        served++;
    }
    if (ending && !draining) gp_end_job(end_status, end_reason);
    if (served == 0 || out[1].len > OUT_BUF / 2 || out[2].len) gp_host_service_flush();
    return served;
}

void (*gp_end_job_exit)(int status);

void gp_end_job(int status, const char *reason)
{
    if (!draining) {
        draining = 1;
        /* what the ranks had already sent still goes out (a reason sent
         * in pieces arrives whole) */
        for (int rounds = 0; rounds < 100; rounds++) {
            if (gp_host_service_poll() == 0) {
                struct timespec ts = {0, 1000000};
                nanosleep(&ts, NULL);
                if (gp_host_service_poll() == 0) break;
            }
        }
    }
    gp_host_service_flush();
    if (reason && *reason) write_all(2, reason, strlen(reason));
    if (gp_end_job_exit) gp_end_job_exit(status);
    _exit(status);
}

static int low_latency;

void gp_host_service_low_latency(void)
{
    /* this thread then sleeps 2 us when asked, not Linux's default 50 us
     * more (threads it starts would inherit it) */
    prctl(PR_SET_TIMERSLACK, 1000UL);
    low_latency = 1;
}

/* Right after an answer the caller's next call is likely close behind (a
 * rank reading a file waits for each one): poll on for a short while,
 * giving the processor to anyone who needs it; then sleep longer and
 * longer, up to 1 ms, so an idle launcher costs nothing. On the threads
 * backend the service shares the cores with the rank threads, so it polls
 * on only after request/reply calls; on the GPU backend after any call. */
void gp_host_service_idle(int found)
{
    if (found) {
        idle_ns = 0;
        if (low_latency) eager_polls = 200;
        return;
    }
    if (eager_polls > 0) {
        eager_polls--;
        sched_yield();
        return;
    }
    idle_ns = idle_ns ? idle_ns * 2 : 2000;
    if (idle_ns > 1000000) idle_ns = 1000000;
    struct timespec ts = {0, idle_ns};
    nanosleep(&ts, NULL);
}
