/* Host side of the host-call ring (runtime/src/host_call.cu is the device
 * side). Cells are served strictly in ticket order, so one rank's writes keep
 * their order and a multi-cell write stays contiguous. */
#define _POSIX_C_SOURCE 200809L
#include "host_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static gp_host_cell *cells;
static uint64_t next_ticket;
static long idle_ns;

void gp_host_service_init(gp_host_cell *c)
{
    cells = c;
    next_ticket = 0;
    for (uint64_t i = 0; i < GP_HOST_CELLS; i++) cells[i].seq = i;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k <= 0) return; /* a closed pipe: the output has no reader */
        p += k;
        n -= (size_t)k;
    }
}

static void serve(gp_host_cell *c)
{
    switch (c->op) {
    case GP_HOST_WRITE:
        write_all(c->arg == 2 ? 2 : 1, c->data, c->len);
        break;
    case GP_HOST_ABORT:
        write_all(2, c->data, c->len);
        fprintf(stderr, "gpumpi: job aborted by rank %d with exit code %d\n", c->rank, c->arg);
        _exit(c->arg ? c->arg & 255 ? c->arg & 255 : 1 : 1);
    default:
        fprintf(stderr, "gpumpi: rank %d made an unknown host call %d (runtime and launcher do not match)\n", c->rank,
                c->op);
        _exit(1);
    }
}

int gp_host_service_poll(void)
{
    int served = 0;
    for (;;) {
        gp_host_cell *c = &cells[next_ticket % GP_HOST_CELLS];
        if (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != next_ticket + 1) break;
        serve(c);
        __atomic_store_n(&c->seq, next_ticket + GP_HOST_CELLS, __ATOMIC_RELEASE);
        next_ticket++;
        served++;
    }
    return served;
}

void gp_host_service_idle(int found)
{
    if (found) {
        idle_ns = 0;
        return;
    }
    idle_ns = idle_ns ? idle_ns * 2 : 2000;
    if (idle_ns > 1000000) idle_ns = 1000000;
    struct timespec ts = {0, idle_ns};
    nanosleep(&ts, NULL);
}
