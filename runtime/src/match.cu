/* Message matching: each rank's unexpected-message queue, in arrival order.
 * Senders append under the receiver's lock; the receiver takes the first
 * envelope that matches (source, tag, context), which gives MPI's
 * non-overtaking order for each sender. */
#include "runtime.h"

GPUMPI_FN static void gp_lock(uint32_t *l)
{
    unsigned spins = 0;
    while (!gp_cas(l, 0, 1)) gp_pause(&spins);
}

GPUMPI_FN static void gp_unlock(uint32_t *l) { gp_store_release(l, 0); }

GPUMPI_FN void gp_enqueue(int dest_world, gp_msg *m)
{
    gp_rank *r = &gp_w()->ranks[dest_world];
    m->next = 0;
    gp_lock(&r->lock);
    m->seq = r->arrived++;
    if (r->uq_tail)
        r->uq_tail->next = m;
    else
        r->uq_head = m;
    r->uq_tail = m;
    gp_unlock(&r->lock);
    gp_fetch_add(&gp_w()->arrivals[dest_world], 1);
}

GPUMPI_FN static int gp_matches(const gp_msg *m, int src_world, int tag, int ctx)
{
    return m->ctx == ctx && (src_world == MPI_ANY_SOURCE || m->src == src_world) &&
           (tag == MPI_ANY_TAG || m->tag == tag);
}

GPUMPI_FN uint32_t gp_arrived_so_far(void)
{
    gp_rank *r = gp_self();
    gp_lock(&r->lock);
    uint32_t n = r->arrived;
    gp_unlock(&r->lock);
    return n;
}

GPUMPI_FN gp_msg *gp_take_match(int src_world, int tag, int ctx, const uint32_t *before)
{
    gp_rank *r = gp_self();
    gp_lock(&r->lock);
    gp_msg *prev = 0, *m = r->uq_head;
    while (m && !(before && (int32_t)(m->seq - *before) >= 0) && !gp_matches(m, src_world, tag, ctx)) {
        prev = m;
        m = m->next;
    }
    if (m && before && (int32_t)(m->seq - *before) >= 0) m = 0; /* arrived after the caller looked */
    if (m) {
        if (prev)
            prev->next = m->next;
        else
            r->uq_head = m->next;
        if (r->uq_tail == m) r->uq_tail = prev;
    }
    gp_unlock(&r->lock);
    return m;
}

GPUMPI_FN int gp_peek_match(int src_world, int tag, int ctx, int *src, int *got_tag, size_t *bytes)
{
    gp_rank *r = gp_self();
    gp_lock(&r->lock);
    gp_msg *m = r->uq_head;
    while (m && !gp_matches(m, src_world, tag, ctx)) m = m->next;
    if (m) {
        *src = m->src;
        *got_tag = m->tag;
        *bytes = m->bytes;
    }
    gp_unlock(&r->lock);
    return m != 0;
}
