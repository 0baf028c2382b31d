/* The device end of the host-call ring (the launcher's host_service.c is the
 * other end). A caller takes consecutive tickets for its cells, so a long
 * write stays in one piece; it waits for a cell rather than drop output.
 * One-way calls (output, the end of the job) are freed by the host; a
 * request/reply call keeps its cells until it has read the answer the host
 * wrote into them, so replies need no memory per rank. */
#include "runtime.h"
#include "gpumpi/shim_string.h"

/* Roughly how long the host takes to serve one lap of the ring. */
#define GP_HOST_LAP_NS 100000u

/* This rank's host-call ring and its ticket counter: those of the launcher
 * process that runs it (gp_world.proc_ranks). */
GPUMPI_FN static inline gp_host_cell *gp_host_ring(uint64_t **ticket)
{
    gp_world *w = gp_w();
    if (!w->proc_ranks) {
        *ticket = &w->host_ticket;
        return w->host_cells;
    }
    int p = gp_thread_rank() / w->proc_ranks;
    *ticket = &w->proc_tickets[(size_t)p * 8];
    return w->host_cells + (size_t)p * GP_HOST_CELLS;
}

/* Waits until cell c is free for ticket t. When thousands of ranks print at
 * once most tickets are laps ahead of the host; a rank that far back polls
 * the host's memory (a trip over PCIe on a GPU) only about once per lap
 * still ahead of it, not every few microseconds. */
GPUMPI_FN static void gp_wait_cell(gp_host_cell *c, uint64_t t)
{
    unsigned spins = 0;
    for (;;) {
        uint64_t s = gp_sys_load_acquire64(&c->seq);
        if (s == t) return;
        uint64_t laps = (t - s) / GP_HOST_CELLS;
        if (laps) {
            uint64_t until = gp_clock_ns() + laps * GP_HOST_LAP_NS;
            while (gp_clock_ns() < until) gp_pause(&spins);
        } else {
            gp_pause(&spins);
        }
    }
}

/* Takes `ncells` consecutive cells and fills them with len bytes of data
 * (ncells >= the cells the data needs). Returns the first ticket. */
GPUMPI_FN static uint64_t gp_host_post(int op, int64_t arg, int64_t arg2, const void *data, size_t len, size_t ncells,
                                       int one_way)
{
    uint64_t *ticket;
    gp_host_cell *ring = gp_host_ring(&ticket);
    uint64_t t0 = gp_fetch_add64(ticket, ncells), t = t0;
    const char *p = (const char *)data;
    for (size_t i = 0; i < ncells; i++, t++) {
        gp_host_cell *c = &ring[t % GP_HOST_CELLS];
        gp_wait_cell(c, t);
        size_t n = len > GP_HOST_CELL_BYTES ? GP_HOST_CELL_BYTES : len;
        c->rank = gp_thread_rank();
        c->op = (int16_t)op;
        c->ncells = (uint16_t)(one_way ? 1 : i == 0 ? ncells : 0);
        c->arg = arg;
        c->arg2 = arg2;
        c->len = (uint32_t)n;
        if (n) gp_memcpy(c->data, p, n);
        gp_sys_store_release64(&c->seq, t + 1);
        p += n;
        len -= n;
    }
    return t0;
}

#if defined(GPUMPI_CUDA)
/* Bytes a write takes in a packed cell. */
GPUMPI_FN static uint32_t gp_packed_size(size_t len) { return (uint32_t)((sizeof(gp_packed_write) + len + 7) & ~(size_t)7); }

/* The lanes of a warp that write at the same moment (every rank printing
 * its line) share cells: one ticket for the warp, each lane's write placed
 * in a cell by the same greedy layout that every lane computes, and the
 * first lane in each cell publishes it once all have written. The host
 * gets a few cells instead of one per rank. Returns 0 if this lane is
 * alone, to take the plain path. */
GPUMPI_FN static int gp_host_write_packed(int fd, const void *data, size_t len)
{
    unsigned mask = __activemask();
    if (__popc(mask) == 1) return 0;
    int lane = gp_lane_id(), leader = gp_lowest_bit(mask);
    uint32_t size = gp_packed_size(len), cell = 0, used = 0, my_cell = 0, my_off = 0, cell_len[32];
    for (unsigned m = mask; m; m &= m - 1) {
        int j = gp_lowest_bit(m);
        uint32_t sj = __shfl_sync(mask, size, j);
        if (used + sj > GP_HOST_CELL_BYTES) {
            cell_len[cell++] = used;
            used = 0;
        }
        if (j == lane) {
            my_cell = cell;
            my_off = used;
        }
        used += sj;
    }
    cell_len[cell] = used;
    uint64_t *ticket;
    gp_host_cell *ring = gp_host_ring(&ticket);
    uint64_t t0 = 0;
    if (lane == leader) t0 = gp_fetch_add64(ticket, cell + 1);
    t0 = __shfl_sync(mask, t0, leader);
    uint64_t t = t0 + my_cell;
    gp_host_cell *c = &ring[t % GP_HOST_CELLS];
    if (my_off == 0) gp_wait_cell(c, t);
    __syncwarp(mask); /* every cell of the warp is ours */
    gp_packed_write h = {gp_thread_rank(), (uint16_t)fd, (uint16_t)len};
    gp_memcpy(c->data + my_off, &h, sizeof h);
    gp_memcpy(c->data + my_off + sizeof h, data, len);
    __syncwarp(mask); /* orders the other lanes' writes before the publisher's release */
    if (my_off == 0) {
        c->rank = -1;
        c->op = GP_HOST_WRITE_PACKED;
        c->ncells = 1;
        c->arg = 0;
        c->arg2 = 0;
        c->len = cell_len[my_cell];
        gp_sys_store_release64(&c->seq, t + 1);
    }
    return 1;
}
#endif

GPUMPI_FN void gp_host_call(int op, int arg, const void *data, size_t len)
{
#if defined(GPUMPI_CUDA)
    if (op == GP_HOST_WRITE && gp_packed_size(len) <= GP_HOST_CELL_BYTES && gp_host_write_packed(arg, data, len)) return;
#endif
    size_t ncells = len ? (len + GP_HOST_CELL_BYTES - 1) / GP_HOST_CELL_BYTES : 1;
    gp_host_post(op, arg, 0, data, len, ncells, 1);
}

GPUMPI_FN int64_t gp_host_rpc(int op, int64_t arg, int64_t arg2, const void *in, size_t in_len, void *out,
                              size_t out_cap, size_t *out_len, int *err)
{
    uint64_t *ticket;
    gp_host_cell *ring = gp_host_ring(&ticket);
    size_t most = in_len > out_cap ? in_len : out_cap;
    if (most > GP_HOST_CALL_BYTES) gp_fatal("host call", MPI_ERR_INTERN, "%zu bytes is more than one call carries", most);
    size_t ncells = most ? (most + GP_HOST_CELL_BYTES - 1) / GP_HOST_CELL_BYTES : 1;
    uint64_t t0 = gp_host_post(op, arg, arg2, in, in_len, ncells, 0);
    gp_host_cell *first = &ring[t0 % GP_HOST_CELLS];
    unsigned spins = 0;
    while (gp_sys_load_acquire64(&first->seq) != t0 + 2) gp_pause(&spins);
    int64_t ret = first->ret;
    if (err) *err = first->err;
    size_t got = first->len < out_cap ? first->len : out_cap;
    if (out_len) *out_len = got;
    char *o = (char *)out;
    for (size_t i = 0; i < ncells; i++) {
        gp_host_cell *c = &ring[(t0 + i) % GP_HOST_CELLS];
        size_t n = got > GP_HOST_CELL_BYTES ? GP_HOST_CELL_BYTES : got;
        if (n) gp_memcpy(o, c->data, n);
        o += n;
        got -= n;
    }
    /* free the cells for the tickets one lap on */
    for (size_t i = 0; i < ncells; i++)
        gp_sys_store_release64(&ring[(t0 + i) % GP_HOST_CELLS].seq, t0 + i + GP_HOST_CELLS);
    return ret;
}
