/* Filling a rank's globals block from the templates. An initializer such as
 * int *p = &x; was compiled against x's template, so after the copy any
 * pointer-sized word of a relocated variable that points into some
 * template is moved to the same place in this rank's block. */
#include "gpumpi/globals.h"
#include "gpumpi/shim_string.h"
#include "runtime.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/launch.h"

GPUMPI_FN static const gp_global_slot *gp_slot_holding(const gp_global_slot *slots, int n, uintptr_t addr)
{
    for (int i = 0; i < n; i++) {
        uintptr_t lo = (uintptr_t)slots[i].tmpl;
        if (addr >= lo && addr < lo + slots[i].size) return &slots[i];
    }
    return 0;
}

extern "C" GPUMPI_FN void gp_globals_init_rank(const gp_global_slot *slots, int n, char *block)
{
    for (int i = 0; i < n; i++) gp_memcpy(block + slots[i].offset, slots[i].tmpl, slots[i].size);
    for (int i = 0; i < n; i++) {
        if (!slots[i].relocate) continue;
        uintptr_t *w = (uintptr_t *)(block + slots[i].offset);
        size_t words = slots[i].size / sizeof(uintptr_t);
        for (size_t k = 0; k < words; k++) {
            const gp_global_slot *to = gp_slot_holding(slots, n, w[k]);
            if (to) w[k] = (uintptr_t)(block + to->offset) + (w[k] - (uintptr_t)to->tmpl);
        }
    }
}

/* The calling rank's globals block. In its private memory when the
 * launcher found room (a warp's ranks then share the cache lines of a
 * global they all use), filled by the rank itself; else its part of the
 * shared copies the launcher filled. Called once as the rank starts, after
 * gp_private_init and before any other allocation. */
extern "C" GPUMPI_FN char *gp_rank_globals(void)
{
    gp_world *w = gp_w();
    if (w->globals_private) {
        char *block = (char *)gp_private_take(w->globals_stride);
        if (block) {
            gp_globals_init_rank(w->global_slots, w->nglobal_slots, block);
            return block;
        }
        gp_fatal("gpumpi", MPI_ERR_NO_MEM, "the globals block (%zu bytes) does not fit the rank's private memory",
                 w->globals_stride);
    }
    return w->globals + (size_t)gp_thread_rank() * w->globals_stride;
}
