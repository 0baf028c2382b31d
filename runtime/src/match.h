/* Message matching. Each rank has an inbox: a lock-free stack senders push
 * envelopes onto with one atomic step (no lock on the message path). Only
 * the receiving rank reads it: it takes the whole stack at once, reverses it
 * into arrival order, numbers the messages and appends each to one of its
 * private unexpected-message lists, picked by source (GP_UQ_BUCKETS), where
 * it matches (source, tag, context) oldest first: a receive from one
 * source walks one list; MPI_ANY_SOURCE takes the oldest match of all
 * lists by number. A sender's pushes are ordered and its messages share a
 * list, so each sender's messages stay in order: MPI's non-overtaking
 * rule. A waiting rank polls only its inbox word (dense, so a warp of
 * waiting ranks polls few cache lines).
 *
 * All inline (runtime.h includes this file last): the send and receive
 * paths call these on every message, and a call into another file is never
 * inlined with relocatable device code (see the communicator lookups in
 * runtime.h for what such calls cost). */
#ifndef GPUMPI_MATCH_H
#define GPUMPI_MATCH_H

/* A sender pushes an envelope onto dest_world's inbox with one exchange,
 * no load first: the envelope goes in as the newest, and only then links
 * to the one it displaced, so its link reads GP_MSG_LINKING for the few
 * cycles in between (the receiver waits for it in gp_msg_older). The
 * caller has made a release fence after filling the envelope (and set
 * m->next to GP_MSG_LINKING before it). What it displaces may be a
 * landing instead (landing.h): one a receive waits at is withdrawn (the
 * receive wakes and finds the envelope), one a message has landed in is
 * kept in the envelope, older than it (GP_MSG_LANDED). */
#define GP_MSG_LINKING ((uint64_t)1)
#define GP_MSG_LANDED ((uint64_t)3)
#define GP_INBOX_LANDING 2 /* the head of an inbox that holds a landing has bit 1 set; an envelope's address never */
#define GP_INBOX_LANDED 3  /* its low two bits: a message has landed (else a receive waits there) */
GPUMPI_FN void gp_enqueue_on_landing(gp_msg *m, gp_inbox older);
GPUMPI_FN static inline void gp_enqueue(int dest_world, gp_msg *m)
{
    gp_inbox older = gp_inbox_exchange(gp_inbox_of(dest_world), (uint64_t)(uintptr_t)m, 0);
    if (older.head & GP_INBOX_LANDING)
        gp_enqueue_on_landing(m, older);
    else
        gp_store_relaxed64((uint64_t *)&m->next, older.head);
}

/* The envelope pushed before m (NULL for the first since the last drain),
 * or GP_MSG_LANDED. On the GPU the first look is a plain load: a relaxed
 * one is served by L2 and leaves L1 without the envelope's first sector,
 * so the header reads that follow would each make the trip again. It sees
 * at least GP_MSG_LINKING (stored before the sender's release), and the
 * final link or that; only while it reads GP_MSG_LINKING does it poll. */
GPUMPI_FN static inline gp_msg *gp_msg_older(gp_msg *m)
{
    uint64_t v;
    unsigned spins = 0;
#if defined(GPUMPI_CUDA)
    v = *(uint64_t *)&m->next;
    if (v != GP_MSG_LINKING) return (gp_msg *)(uintptr_t)v;
#endif
    while ((v = gp_load_relaxed64((uint64_t *)&m->next)) == GP_MSG_LINKING) gp_pause(&spins);
    return (gp_msg *)(uintptr_t)v;
}

/* The list a source's messages go to (a multiplicative hash: tree
 * collectives talk to ranks a power of two apart). */
GPUMPI_FN static inline int gp_uq_bucket(int src_world) { return (int)(((uint32_t)src_world * 0x9E3779B1u) >> 29); }

/* A private list given by its head and tail: append m (its link cleared
 * already), or take out m, whose predecessor is prev (NULL: m is first). */
GPUMPI_FN static inline void gp_uq_append(gp_msg *&head, gp_msg *&tail, gp_msg *m)
{
    if (tail)
        tail->next = m;
    else
        head = m;
    tail = m;
}
GPUMPI_FN static inline void gp_uq_unlink(gp_msg *&head, gp_msg *&tail, gp_msg *prev, gp_msg *m, uint32_t *removed)
{
    (*removed)++; /* the ANY_SOURCE search's places in the lists may be gone (gp_uq_take_any) */
    if (prev)
        prev->next = m->next;
    else
        head = m->next;
    if (tail == m) tail = prev;
}

GPUMPI_FN static inline int gp_matches(const gp_msg *m, int src_world, int tag, int ctx)
{
    return gp_msg_ctx(m) == ctx && (src_world == MPI_ANY_SOURCE || m->src == src_world) &&
           (tag == MPI_ANY_TAG || m->tag == tag);
}

/* What a receive waiting at a landing looks for (landing.h). */
typedef struct gp_want {
    int src_world, tag, ctx;
} gp_want;

/* Moves the envelopes taken from the inbox, newest first from m, onto the
 * private lists in arrival order, numbering them from seq. List `mine`
 * (or none, -1) is the caller's, in head/tail: the inbox's acquire empties
 * L1, so private state read after it costs a trip to L2 or DRAM each, and
 * what the caller loaded before stays in registers. Only a receive
 * waiting at a landing (landing.h) passes `want`: a message that landed
 * before these (the oldest's link is GP_MSG_LANDED) goes to *landed, and
 * the oldest of them that matches `want` to *matched instead of a list
 * (the lists held no match when it began to wait). */
GPUMPI_FN static inline void gp_drain_chain(gp_rank *r, int mine, gp_msg *&head, gp_msg *&tail, gp_msg *m,
                                            uint32_t seq, const gp_want *want = 0, gp_inbox *landed = 0,
                                            gp_msg **matched = 0)
{
    gp_msg *oldest = 0;
    gp_flag_set(GP_RF_SETTLED, 0); /* a progress pass has something new to look at (requests.cu) */
    while (m) { /* newest first: reverse */
        gp_msg *next = gp_msg_older(m);
        if ((uint64_t)(uintptr_t)next == GP_MSG_LANDED) {
            /* the sender stored m->landed after its push (it learns the
             * landed word from it), so the inbox's acquire does not cover
             * it: only the link, stored after a release fence, does */
            gp_fence_acquire();
            *landed = m->landed;
            next = 0;
        }
        m->next = oldest;
        oldest = m;
        m = next;
    }
    for (m = oldest; m;) {
        gp_msg *next = m->next;
        int b = gp_uq_bucket(m->src);
        m->seq = seq++;
        m->next = 0;
        if (want && !*matched && !landed->head && gp_matches(m, want->src_world, want->tag, want->ctx))
            *matched = m;
        else if (b == mine)
            gp_uq_append(head, tail, m);
        else
            gp_uq_append(r->uq_head[b], r->uq_tail[b], m);
        m = next;
    }
    r->arrived = seq;
}

/* Moves what has arrived onto the private lists (gp_drain_chain). `full`:
 * the caller has just seen the inbox hold something (a wait for arrivals),
 * so the look that spares an empty inbox the exchange would be a wasted
 * trip. */
GPUMPI_FN static inline void gp_drain_into(gp_rank *r, int mine, gp_msg *&head, gp_msg *&tail, int full = 0)
{
    gp_inbox *inbox = &gp_hot.inbox[gp_thread_rank()];
    uint32_t seq = r->arrived;
    if (!full && !gp_inbox_head(inbox)) return;
    gp_msg *m = (gp_msg *)(uintptr_t)gp_inbox_take_acquire(inbox).head;
    gp_drain_chain(r, mine, head, tail, m, seq); /* no landing outside a landing's wait */
}

GPUMPI_FN static inline void gp_drain_inbox(gp_rank *r)
{
    gp_msg *none_head = 0, *none_tail = 0;
    gp_drain_into(r, -1, none_head, none_tail);
}

/* Waiting for a message: take a mark before looking for a match, and if none
 * was found wait on the mark: it returns once anything arrived after it. */
GPUMPI_FN static inline uint32_t gp_arrival_mark(void)
{
    gp_rank *r = gp_self();
    gp_drain_inbox(r);
    return r->arrived;
}

/* 1 when it has seen the inbox hold something (for gp_drain_into's `full`). */
GPUMPI_FN static inline int gp_arrival_wait(uint32_t mark, unsigned *spins)
{
    gp_rank *r = gp_self();
    gp_inbox *inbox = &gp_hot.inbox[gp_thread_rank()];
    if (r->arrived != mark) return 0; /* already here, not yet looked at */
    while (!gp_inbox_head(inbox)) gp_block_wait(spins); /* the drain's exchange acquires */
    gp_block_progress();
    return 1;
}


/* In the list from head, the first message matching (src_world, tag,
 * ctx) that is older than `before` (if given) and than *older_than (if
 * given); *prev is the one before it. */
GPUMPI_FN static inline gp_msg *gp_uq_find(gp_msg *head, int src_world, int tag, int ctx, const uint32_t *before,
                                          const gp_msg *older_than, gp_msg **prev)
{
    gp_msg *p = 0;
    for (gp_msg *m = head; m; p = m, m = m->next) {
        if (before && (int32_t)(m->seq - *before) >= 0) return 0; /* arrived after the caller looked */
        if (older_than && (int32_t)(m->seq - older_than->seq) >= 0) return 0;
        if (gp_matches(m, src_world, tag, ctx)) {
            *prev = p;
            return m;
        }
    }
    return 0;
}

/* The oldest matching message (left in place), its list and predecessor. */
GPUMPI_FN static inline gp_msg *gp_uq_oldest(gp_rank *r, int src_world, int tag, int ctx, const uint32_t *before,
                                            int *bucket, gp_msg **prev)
{
    if (src_world != MPI_ANY_SOURCE) {
        *bucket = gp_uq_bucket(src_world);
        return gp_uq_find(r->uq_head[*bucket], src_world, tag, ctx, before, 0, prev);
    }
    gp_msg *best = 0;
    for (int b = 0; b < GP_UQ_BUCKETS; b++) {
        gp_msg *p, *m = gp_uq_find(r->uq_head[b], src_world, tag, ctx, before, best, &p);
        if (m) {
            best = m;
            *bucket = b;
            *prev = p;
        }
    }
    return best;
}

/* MPI_ANY_SOURCE's oldest match of (tag, ctx), unlinked; NULL if none.
 * Each list is walked on from where the last search for the same tag and
 * context left it, while nothing has been taken out of the lists since
 * but by that search: what it passed over matches no better now, and new
 * messages only ever join the lists' ends. Walked from each head instead,
 * a run of ANY_SOURCE receives walked past every older message of
 * another tag each time (conformance's p2p_small: rank 0's fan-in behind
 * 1,260 round-robin messages took 6 s at 512 ranks on the threads
 * backend, against 0.01 s for the fan-in alone). Out of line: the
 * one-source receive's path stays as small as it was. */
GPUMPI_FN static __noinline__ gp_msg *gp_uq_take_any(gp_rank *r, int tag, int ctx)
{
    int hinted = r->uq_hint_removed == r->uq_removed && r->uq_hint_tag == tag && r->uq_hint_ctx == ctx;
    gp_msg *best = 0, *best_prev = 0;
    int best_b = 0;
    for (int b = 0; b < GP_UQ_BUCKETS; b++) {
        gp_msg *hint = hinted ? r->uq_hint[b] : 0, *p = hint, *m = p ? p->next : r->uq_head[b];
        for (; m; p = m, m = m->next) {
            if (best && (int32_t)(m->seq - best->seq) >= 0) { /* no older match in this list */
                m = 0;
                break;
            }
            if (gp_matches(m, MPI_ANY_SOURCE, tag, ctx)) break;
        }
        /* it and all before it: no match. Stored only when it moved: a
         * run of ANY_SOURCE receives that match at the lists' heads
         * (bench/fanin: rank 0 takes a message every 10 us) stores none */
        if (!hinted || p != hint) r->uq_hint[b] = p;
        if (m) best = m, best_prev = p, best_b = b;
    }
    if (!hinted) {
        r->uq_hint_tag = tag;
        r->uq_hint_ctx = ctx;
    }
    if (best) gp_uq_unlink(r->uq_head[best_b], r->uq_tail[best_b], best_prev, best, &r->uq_removed);
    r->uq_hint_removed = r->uq_removed; /* its own take leaves best_prev in place, the hint there */
    return best;
}

/* The oldest matching message, unlinked; NULL if none. With `before` (a
 * gp_arrival_mark() value) only among the messages that arrived before it:
 * a pass over several posted receives must not let a later receive take a
 * message that arrived after an earlier one looked. `full` as for
 * gp_drain_into (a receive from one source only). `looked` (a receive
 * from one source that waits, looking again and again): in, r->arrived
 * when it last looked, finding no match; out, r->arrived now. While no
 * other message has arrived since, only the new ones are looked at: a
 * receive that waits while thousands of other messages arrive would
 * otherwise walk its whole list at each arrival (p2p_small at 2 x 65,536
 * ranks over two GPUs, every envelope across NVLink: minutes). */
GPUMPI_FN static inline gp_msg *gp_take_match(int src_world, int tag, int ctx, const uint32_t *before, int full = 0,
                                              uint32_t *looked = 0)
{
    gp_rank *r = gp_self();
    int b;
    gp_msg *prev = 0, *m;
    if (!before && src_world != MPI_ANY_SOURCE) { /* one list, kept in registers across the drain */
        b = gp_uq_bucket(src_world);
        gp_msg *head = r->uq_head[b], *tail = r->uq_tail[b];
        int old_seen = looked && *looked == r->arrived; /* every message on the list was looked at */
        gp_msg *last_seen = tail;
        gp_drain_into(r, b, head, tail, full);
        gp_msg *from = old_seen && last_seen ? last_seen->next : head;
        m = gp_uq_find(from, src_world, tag, ctx, 0, 0, &prev);
        if (m && !prev && from != head) prev = last_seen;
        if (m) gp_uq_unlink(head, tail, prev, m, &r->uq_removed);
        r->uq_head[b] = head;
        r->uq_tail[b] = tail;
        if (looked) *looked = r->arrived;
        return m;
    }
    if (!before) { /* MPI_ANY_SOURCE */
        gp_drain_inbox(r);
        return gp_uq_take_any(r, tag, ctx);
    }
    m = gp_uq_oldest(r, src_world, tag, ctx, before, &b, &prev);
    if (m) gp_uq_unlink(r->uq_head[b], r->uq_tail[b], prev, m, &r->uq_removed);
    return m;
}

/* A pass over the unexpected messages that takes out each match of (any
 * source, tag, ctx) as it comes to it: for a caller that wants one message
 * from each of many sources and places each by its source, so their order
 * does not matter (a linear collective's root). One pass finds them all;
 * taking the oldest each time (gp_take_match) walks past every later
 * message once per message, which is quadratic when ranks run instances
 * ahead of the root (20 back-to-back gathervs over 4,096 ranks: minutes).
 * Start with a zeroed walk; only messages that arrived before `before`. */
typedef struct gp_uq_walk {
    int bucket;
    gp_msg *prev; /* the last message passed over in the bucket, NULL: start at its head */
} gp_uq_walk;
GPUMPI_FN static inline gp_msg *gp_walk_take(gp_uq_walk *w, int tag, int ctx, uint32_t before)
{
    gp_rank *r = gp_self();
    for (; w->bucket < GP_UQ_BUCKETS; w->bucket++, w->prev = 0) {
        for (gp_msg *m = w->prev ? w->prev->next : r->uq_head[w->bucket]; m; w->prev = m, m = m->next) {
            if ((int32_t)(m->seq - before) >= 0) break; /* arrived after the caller looked */
            if (gp_matches(m, MPI_ANY_SOURCE, tag, ctx)) {
                gp_uq_unlink(r->uq_head[w->bucket], r->uq_tail[w->bucket], w->prev, m, &r->uq_removed);
                return m;
            }
        }
    }
    return 0;
}

/* The first match left in place (MPI_Probe): 1 and its envelope, or 0. */
GPUMPI_FN static inline int gp_peek_match(int src_world, int tag, int ctx, int *src, int *got_tag, size_t *bytes)
{
    gp_rank *r = gp_self();
    gp_drain_inbox(r);
    int b;
    gp_msg *prev, *m = gp_uq_oldest(r, src_world, tag, ctx, 0, &b, &prev);
    if (m) {
        *src = m->src;
        *got_tag = m->tag;
        *bytes = m->bytes;
    }
    return m != 0;
}

#endif
