/* Message matching. Each rank has an inbox: a lock-free stack senders push
 * envelopes onto with one atomic step (no lock on the message path). Only
 * the receiving rank reads it: it takes the whole stack at once, reverses it
 * into arrival order and appends it to its private unexpected-message list,
 * where it matches (source, tag, context) oldest first. A sender's pushes
 * are ordered, so each sender's messages stay in order: MPI's non-overtaking
 * rule. A waiting rank polls only its inbox word (dense, so a warp of
 * waiting ranks polls few cache lines).
 *
 * All inline (runtime.h includes this file last): the send and receive
 * paths call these on every message, and a call into another file is never
 * inlined with relocatable device code (see the communicator lookups in
 * runtime.h for what such calls cost). */
#ifndef GPUMPI_MATCH_H
#define GPUMPI_MATCH_H

/* A sender pushes an envelope onto dest_world's inbox. */
GPUMPI_FN static inline void gp_enqueue(int dest_world, gp_msg *m)
{
    uint64_t *inbox = &gp_hot.inbox[dest_world];
    uint64_t mine = (uint64_t)(uintptr_t)m;
    for (;;) {
        uint64_t head = gp_load_relaxed64(inbox);
        m->next = (gp_msg *)(uintptr_t)head;
        if (gp_cas64_release(inbox, head, mine)) return;
    }
}

/* Moves what has arrived onto the private list, in arrival order. */
GPUMPI_FN static inline void gp_drain_inbox(gp_rank *r)
{
    uint64_t *inbox = &gp_hot.inbox[gp_thread_rank()];
    if (!gp_load_relaxed64(inbox)) return;
    gp_msg *m = (gp_msg *)(uintptr_t)gp_take64_acquire(inbox, 0), *oldest = 0;
    while (m) { /* newest first: reverse */
        gp_msg *next = m->next;
        m->next = oldest;
        oldest = m;
        m = next;
    }
    for (m = oldest; m; m = m->next) {
        m->seq = r->arrived++;
        if (r->uq_tail)
            r->uq_tail->next = m;
        else
            r->uq_head = m;
        r->uq_tail = m;
    }
}

/* Waiting for a message: take a mark before looking for a match, and if none
 * was found wait on the mark: it returns once anything arrived after it. */
GPUMPI_FN static inline uint32_t gp_arrival_mark(void)
{
    gp_rank *r = gp_self();
    gp_drain_inbox(r);
    return r->arrived;
}

GPUMPI_FN static inline void gp_arrival_wait(uint32_t mark, unsigned *spins)
{
    gp_rank *r = gp_self();
    uint64_t *inbox = &gp_hot.inbox[gp_thread_rank()];
    if (r->arrived != mark) return; /* already here, not yet looked at */
    while (!gp_load_relaxed64(inbox)) gp_block_wait(spins); /* the drain's exchange acquires */
    gp_block_progress();
}

GPUMPI_FN static inline int gp_matches(const gp_msg *m, int src_world, int tag, int ctx)
{
    return m->ctx == ctx && (src_world == MPI_ANY_SOURCE || m->src == src_world) &&
           (tag == MPI_ANY_TAG || m->tag == tag);
}


/* The oldest matching message, unlinked; NULL if none. With `before` (a
 * gp_arrival_mark() value) only among the messages that arrived before it:
 * a pass over several posted receives must not let a later receive take a
 * message that arrived after an earlier one looked. */
GPUMPI_FN static inline gp_msg *gp_take_match(int src_world, int tag, int ctx, const uint32_t *before)
{
    gp_rank *r = gp_self();
    if (!before) gp_drain_inbox(r);
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
    return m;
}

/* The first match left in place (MPI_Probe): 1 and its envelope, or 0. */
GPUMPI_FN static inline int gp_peek_match(int src_world, int tag, int ctx, int *src, int *got_tag, size_t *bytes)
{
    gp_rank *r = gp_self();
    gp_drain_inbox(r);
    gp_msg *m = r->uq_head;
    while (m && !gp_matches(m, src_world, tag, ctx)) m = m->next;
    if (m) {
        *src = m->src;
        *got_tag = m->tag;
        *bytes = m->bytes;
    }
    return m != 0;
}

#endif
