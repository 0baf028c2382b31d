/* The device end of the host-call ring (the launcher's host_service.c is the
 * other end). A caller takes consecutive tickets for its cells, so a long
 * write stays in one piece; it waits for a cell rather than drop output. */
#include "runtime.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN void gp_host_call(int op, int arg, const void *data, size_t len)
{
    gp_world *w = gp_w();
    size_t ncells = len ? (len + GP_HOST_CELL_BYTES - 1) / GP_HOST_CELL_BYTES : 1;
    uint64_t t = gp_fetch_add64(&w->host_ticket, ncells);
    const char *p = (const char *)data;
    for (size_t i = 0; i < ncells; i++, t++) {
        gp_host_cell *c = &w->host_cells[t % GP_HOST_CELLS];
        unsigned spins = 0;
        while (gp_sys_load_acquire64(&c->seq) != t) gp_pause(&spins);
        size_t n = len > GP_HOST_CELL_BYTES ? GP_HOST_CELL_BYTES : len;
        c->rank = gp_thread_rank();
        c->op = op;
        c->arg = arg;
        c->len = (uint32_t)n;
        gp_memcpy(c->data, p, n);
        gp_sys_store_release64(&c->seq, t + 1);
        p += n;
        len -= n;
    }
}
