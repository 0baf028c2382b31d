/* The posted-receive queue: nonblocking receives waiting for a message,
 * matched by the rank itself whenever it is inside MPI (gp_progress).
 *
 * Receives are kept in the order posted (a doubly linked list of request
 * handles) and, once they have looked through the unexpected messages,
 * also in an index by source (GP_PQ_BUCKETS lists, one more for
 * MPI_ANY_SOURCE), each in post order. A matching pass:
 *  1. offers each message that arrived since the last pass to the indexed
 *     receives: it goes to the earliest posted one that matches (the first
 *     match in its source's list or in the wildcard list, whichever was
 *     posted first);
 *  2. then lets each receive posted since (in post order) take the oldest
 *     unexpected message that matches, and indexes it if there is none.
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
 * the whole of the time. */
#include "requests.h"
#include "gpumpi/shim_stdlib.h"

#define GP_PQ_BUCKETS 64
#define GP_PQ_ANY GP_PQ_BUCKETS /* the list of MPI_ANY_SOURCE receives */

typedef struct gp_posted_index {
    int head[GP_PQ_BUCKETS + 1], tail[GP_PQ_BUCKETS + 1];
} gp_posted_index;

GPUMPI_FN static int gp_pq_bucket(int src_world)
{
    return src_world == MPI_ANY_SOURCE ? GP_PQ_ANY : (int)(((uint32_t)src_world * 0x9E3779B1u) >> 26);
}

GPUMPI_FN static gp_posted_index *gp_pq_index(gp_rank *r)
{
    if (!r->posted_index) {
        r->posted_index = gp_calloc(1, sizeof(gp_posted_index));
        if (!r->posted_index)
            gp_fatal("MPI_Irecv", MPI_ERR_NO_MEM, "no device heap left for the posted-receive index (raise --heap)");
    }
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
        int b = gp_pq_bucket(q->src_world);
        gp_pq_unlink(&x->head[b], &x->tail[b], h, GP_PQ_SAME);
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
    gp_set_status(&q->status, gp_world_to_comm(q->comm, got_src), got_tag, rc, got);
    gp_unpost(h);
    gp_req_finish(h);
}

/* The first receive in list `h` (post order) that message m matches. */
GPUMPI_FN static int gp_pq_first(int h, const gp_msg *m)
{
    for (; h; h = gp_req_at(h)->link[GP_PQ_SAME].next) {
        const gp_req *q = gp_req_at(h);
        if (gp_matches(m, q->src_world, q->tag, q->ctx)) return h;
    }
    return 0;
}

/* Step 1: each message of bucket b that arrived in [from, before) goes to
 * the earliest posted indexed receive it matches, if any. */
GPUMPI_FN static void gp_pq_offer_arrivals(gp_rank *r, int b, uint32_t from, uint32_t before)
{
    gp_posted_index *x = (gp_posted_index *)r->posted_index;
    gp_msg *prev = 0;
    for (gp_msg *m = r->uq_head[b]; m;) {
        gp_msg *next = m->next;
        if ((int32_t)(m->seq - before) >= 0) return;
        int h = 0;
        if ((int32_t)(m->seq - from) >= 0) {
            int hs = gp_pq_first(x->head[gp_pq_bucket(m->src)], m);
            int ha = gp_pq_first(x->head[GP_PQ_ANY], m);
            h = !ha || (hs && (int32_t)(gp_req_at(hs)->post_no - gp_req_at(ha)->post_no) < 0) ? hs : ha;
        }
        if (h) {
            gp_uq_unlink(r->uq_head[b], r->uq_tail[b], prev, m);
            gp_pq_complete(h, m);
        } else {
            prev = m;
        }
        m = next;
    }
}

GPUMPI_FN void gp_match_posted(gp_rank *r)
{
    uint32_t before = gp_arrival_mark(); /* this pass sees only what is here now */
    if (r->posted_index && r->posted_head != r->posted_new)
        for (int b = 0; b < GP_UQ_BUCKETS; b++) gp_pq_offer_arrivals(r, b, r->posted_seen, before);
    r->posted_seen = before;
    for (int h = r->posted_new; h;) {
        gp_req *q = gp_req_at(h);
        int next = q->link[GP_PQ_POSTED].next;
        gp_msg *m = gp_take_match(q->src_world, q->tag, q->ctx, &before);
        if (m) {
            gp_pq_complete(h, m);
        } else {
            gp_posted_index *x = gp_pq_index(r);
            int b = gp_pq_bucket(q->src_world);
            gp_pq_append(&x->head[b], &x->tail[b], h, GP_PQ_SAME);
            q->indexed = 1;
        }
        h = next;
    }
    r->posted_new = 0;
}
