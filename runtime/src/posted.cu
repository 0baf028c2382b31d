/* The posted-receive queue: nonblocking receives waiting for a message,
 * matched by the rank itself whenever it is inside MPI (gp_progress).
 *
 * Receives are kept in the order posted (a doubly linked list of request
 * handles) and, once they have looked through the unexpected messages,
 * also in an index by source (a list for each of some sources, one more for
 * MPI_ANY_SOURCE), each in post order. A matching pass:
 *  1. offers each message that arrived since the last pass to the indexed
 *     receives: it goes to the earliest posted one that matches (the first
 *     match in its source's list or in the wildcard list, whichever was
 *     posted first);
 *  2. then lets each receive posted since (in post order) take the oldest
 *     unexpected message that matches, and indexes it if there is none;
 *     when many were posted since, it indexes them all and offers every
 *     unexpected message instead (a receive walking its source's list for
 *     each of thousands of new receives made that step the whole cost of
 *     an all-pairs exchange on the GPU, where the first pass meets most
 *     messages already there).
 * That is MPI's order for the sequence "earlier receives posted, messages
 * arrive, later receives posted": a message goes to the earliest posted
 * receive that matches, a receive takes the oldest message that matches,
 * and messages from one sender stay in order (one unexpected list holds a
 * sender's messages, taken in arrival order). Messages from different
 * senders need no order among themselves, so each unexpected list is
 * offered in turn.
 * A pass costs the new messages and the new receives, not every posted
 * receive against every unexpected message: with every rank posting a
 * receive from each of 4,096 others (bench/allpairs.c) that product was
 * the whole of the time. The index grows with the receives in it, so its
 * lists stay a few receives long. */
#include "requests.h"
#include "gpumpi/shim_stdlib.h"

#define GP_PQ_MIN_SHIFT 26 /* 64 lists at first */
/* New receives from which a pass indexes them all and offers every unexpected message. */
#define GP_PQ_MANY_NEW 16

/* Lists by source (a power of two of them) and one of MPI_ANY_SOURCE
 * receives, each a head and a tail, after the header. */
typedef struct gp_posted_index {
    int buckets, shift, indexed; /* lists (2^(32 - shift)); receives in them */
    int any_head, any_tail;
    int lists[]; /* head of list b at 2b, its tail at 2b + 1 */
} gp_posted_index;

GPUMPI_FN static int *gp_pq_list(gp_posted_index *x, int src_world)
{
    if (src_world == MPI_ANY_SOURCE) return &x->any_head;
    uint32_t b = ((uint32_t)src_world * 0x9E3779B1u) >> x->shift;
    return &x->lists[2 * b];
}

GPUMPI_FN static gp_posted_index *gp_pq_new_index(int shift)
{
    int buckets = 1 << (32 - shift);
    gp_posted_index *x = (gp_posted_index *)gp_tables_calloc(1, sizeof(gp_posted_index) + sizeof(int) * 2 * (size_t)buckets);
    if (!x) gp_fatal("MPI_Irecv", MPI_ERR_NO_MEM, "no device heap left for the posted-receive index (raise --heap)");
    x->buckets = buckets;
    x->shift = shift;
    return x;
}

GPUMPI_FN static gp_posted_index *gp_pq_index(gp_rank *r)
{
    if (!r->posted_index) r->posted_index = gp_pq_new_index(GP_PQ_MIN_SHIFT);
    return (gp_posted_index *)r->posted_index;
}

/* The two lists a posted receive is on, each doubly linked by handle. */
enum { GP_PQ_POSTED, GP_PQ_SAME };

GPUMPI_FN static void gp_pq_append(int *head, int *tail, int h, int list)
{
    gp_req_at(h)->link[list].next = 0;
    gp_req_at(h)->link[list].prev = *tail;
    if (*tail)
        gp_req_at(*tail)->link[list].next = h;
    else
        *head = h;
    *tail = h;
}

GPUMPI_FN static void gp_pq_unlink(int *head, int *tail, int h, int list)
{
    int next = gp_req_at(h)->link[list].next, prev = gp_req_at(h)->link[list].prev;
    if (prev)
        gp_req_at(prev)->link[list].next = next;
    else
        *head = next;
    if (next)
        gp_req_at(next)->link[list].prev = prev;
    else
        *tail = prev;
}

GPUMPI_FN void gp_post(int h)
{
    gp_rank *r = gp_self();
    gp_req *q = gp_req_at(h);
    q->post_no = r->posts++;
    q->indexed = 0;
    gp_pq_append(&r->posted_head, &r->posted_tail, h, GP_PQ_POSTED);
    if (!r->posted_new) r->posted_new = h; /* the first not yet matched against the unexpected messages */
    gp_flag_set(GP_RF_POSTED, 1);
    gp_flag_set(GP_RF_SETTLED, 0);
}

GPUMPI_FN void gp_unpost(int h)
{
    gp_rank *r = gp_self();
    gp_req *q = gp_req_at(h);
    if (q->indexed) {
        gp_posted_index *x = (gp_posted_index *)r->posted_index;
        int *list = gp_pq_list(x, q->peer_world);
        gp_pq_unlink(&list[0], &list[1], h, GP_PQ_SAME);
        x->indexed--;
        q->indexed = 0;
    }
    if (r->posted_new == h) r->posted_new = q->link[GP_PQ_POSTED].next;
    gp_pq_unlink(&r->posted_head, &r->posted_tail, h, GP_PQ_POSTED);
    gp_flag_set(GP_RF_POSTED, r->posted_head != 0);
}

/* Message m goes into receive h, which is done. */
GPUMPI_FN static void gp_pq_complete(int h, gp_msg *m)
{
    gp_req *q = gp_req_at(h);
    int got_src, got_tag;
    size_t got;
    int rc = gp_deliver(m, q->buf, q->count, q->type, &got_src, &got_tag, &got);
    /* the source as the receive named it, else looked up */
    gp_set_status(&q->status, q->peer != MPI_ANY_SOURCE ? q->peer : gp_world_to_comm(q->comm, got_src), got_tag, got);
    q->err = rc;
    gp_unpost(h);
    gp_req_finish(h);
}

/* The first receive in list `h` (post order) that message m matches. */
GPUMPI_FN static int gp_pq_first(int h, const gp_msg *m)
{
    for (; h; h = gp_req_at(h)->link[GP_PQ_SAME].next) {
        const gp_req *q = gp_req_at(h);
        if (gp_matches(m, q->peer_world, q->tag, q->ctx)) return h;
    }
    return 0;
}

/* Step 1: each message of bucket b that arrived in [from, before) goes to
 * the earliest posted indexed receive it matches, if any. */
GPUMPI_FN static void gp_pq_offer_arrivals(gp_rank *r, int b, uint32_t from, uint32_t before)
{
    gp_posted_index *x = (gp_posted_index *)r->posted_index;
    if (!x || !x->indexed) return;
    gp_msg *prev = 0;
    for (gp_msg *m = r->uq_head[b]; m;) {
        gp_msg *next = m->next;
        if ((int32_t)(m->seq - before) >= 0) return;
        int h = 0;
        if ((int32_t)(m->seq - from) >= 0) {
            int hs = gp_pq_first(*gp_pq_list(x, m->src), m);
            int ha = gp_pq_first(x->any_head, m);
            h = !ha || (hs && (int32_t)(gp_req_at(hs)->post_no - gp_req_at(ha)->post_no) < 0) ? hs : ha;
        }
        if (h) {
            gp_uq_unlink(r->uq_head[b], r->uq_tail[b], prev, m, &r->uq_removed);
            gp_pq_complete(h, m);
        } else {
            prev = m;
        }
        m = next;
    }
}

/* Receive h joins the index, at the end of its list (post order: it is
 * the newest there). With four receives a list on average the index
 * doubles, taking its receives over in post order. */
GPUMPI_FN static void gp_pq_add(gp_rank *r, int h)
{
    gp_posted_index *x = gp_pq_index(r);
    if (x->indexed >= 4 * x->buckets) {
        gp_posted_index *y = gp_pq_new_index(x->shift - 1);
        y->any_head = x->any_head;
        y->any_tail = x->any_tail;
        y->indexed = x->indexed;
        for (int k = r->posted_head; k; k = gp_req_at(k)->link[GP_PQ_POSTED].next) {
            gp_req *q = gp_req_at(k);
            if (!q->indexed || q->peer_world == MPI_ANY_SOURCE) continue;
            int *list = gp_pq_list(y, q->peer_world);
            gp_pq_append(&list[0], &list[1], k, GP_PQ_SAME);
        }
        gp_free(x);
        r->posted_index = x = y;
    }
    int *list = gp_pq_list(x, gp_req_at(h)->peer_world);
    gp_pq_append(&list[0], &list[1], h, GP_PQ_SAME);
    x->indexed++;
    gp_req_at(h)->indexed = 1;
}

GPUMPI_FN void gp_match_posted(gp_rank *r)
{
    uint32_t before = gp_arrival_mark(); /* this pass sees only what is here now */
    uint32_t from = r->posted_seen;
    int fresh = 0;
    for (int h = r->posted_new; h && fresh < GP_PQ_MANY_NEW; h = gp_req_at(h)->link[GP_PQ_POSTED].next) fresh++;
    if (fresh >= GP_PQ_MANY_NEW) { /* index them all, then offer every message */
        for (int h = r->posted_new; h; h = gp_req_at(h)->link[GP_PQ_POSTED].next) gp_pq_add(r, h);
        r->posted_new = 0;
        from = before - 0x80000000u; /* older than any message still here */
    }
    if (r->posted_head != r->posted_new)
        for (int b = 0; b < GP_UQ_BUCKETS; b++) gp_pq_offer_arrivals(r, b, from, before);
    r->posted_seen = before;
    for (int h = r->posted_new; h;) {
        gp_req *q = gp_req_at(h);
        int next = q->link[GP_PQ_POSTED].next;
        gp_msg *m = gp_take_match(q->peer_world, q->tag, q->ctx, &before);
        if (m)
            gp_pq_complete(h, m);
        else
            gp_pq_add(r, h);
        h = next;
    }
    r->posted_new = 0;
}
