/* Nonblocking point-to-point: requests, the posted-receive queue, and the
 * Wait/Test family.
 *
 * A rank's requests live in its own table (handle = index + 1), touched
 * only by that rank. Receives are posted in order to a per-rank queue and
 * matched by the rank itself whenever it is inside MPI (gp_progress): each
 * posted receive, oldest first, takes the oldest matching message from the
 * unexpected queue, which is MPI's matching order. A send completes when
 * its envelope is queued, or for large and synchronous sends when the
 * receiver has copied the data out. */
#include "requests.h"
#include "p2p_inline.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

/* Free handles are kept on a stack (gp_rank.req_free, linked through
 * next_free): a scan of the table for a free one cost an all-pairs
 * exchange's 2n requests n^2 reads a rank. */
GPUMPI_FN int gp_req_new(int kind)
{
    gp_rank *r = gp_self();
    int h = r->req_free;
    if (h) {
        r->req_free = gp_req_at(h)->next_free;
    } else {
        if (r->nreqs == r->cap_reqs) {
            int cap = r->cap_reqs ? r->cap_reqs * 2 : 16;
            gp_req *grown = (gp_req *)gp_tables_malloc(sizeof(gp_req) * (size_t)cap);
            if (!grown) gp_fatal("MPI_Isend", MPI_ERR_NO_MEM, "no device heap left for %d requests (raise --heap)", cap);
            if (r->nreqs) gp_memcpy(grown, r->reqs, sizeof(gp_req) * (size_t)r->nreqs);
            gp_free(r->reqs);
            r->reqs = grown;
            r->cap_reqs = cap;
        }
        h = ++r->nreqs;
    }
    gp_req *q = gp_req_at(h);
    gp_memset(q, 0, sizeof *q);
    q->kind = kind;
    return h;
}

GPUMPI_FN void gp_req_release(int h)
{
    gp_req *q = gp_req_at(h);
    if (q->kind == GP_REQ_FREE) return; /* once on the stack */
    gp_free(gp_req_part(q));
    q->kind = GP_REQ_FREE;
    gp_type_release(q->type); /* held since gp_make */
    q->next_free = gp_self()->req_free;
    gp_self()->req_free = h;
}

GPUMPI_FN void gp_req_finish(int h)
{
    gp_req *q = gp_req_at(h);
    q->done = 1;
    if (q->freed) gp_req_release(h);
}

/* A pass that saw every message that had arrived, with no collective's
 * send waiting for its receiver, leaves the rank settled: until a message
 * arrives (or is drained elsewhere: gp_drain_into), or a receive or a
 * collective is posted, another pass would do nothing, and the next ones
 * cost a look at the inbox word. A rank in a wait loop (a blocking
 * collective with nonblocking ones in flight, a Test loop) calls this
 * every microsecond or so, and a full pass reads the rank's queues and
 * schedules from DRAM: at 270,336 ranks on an H100, with the others in
 * MPI_Barrier, a root handling the 450,000 messages of four nonblocking
 * gathers and scatters took over 60 s (13 s now; 4 s with the others in
 * MPI_Waitall), and nbc_basic over 400 s (36 s now). */
GPUMPI_FN void gp_progress(void)
{
    if (gp_flag(GP_RF_SETTLED) && !gp_inbox_head(&gp_hot.inbox[gp_thread_rank()])) return;
    gp_rank *r = gp_self();
    uint32_t seen = gp_arrival_mark();
    if (r->coll_head) gp_coll_progress_all();
    if (r->posted_head) gp_match_posted(r);
    gp_flag_set(GP_RF_SETTLED, r->arrived == seen && !(r->coll_head && gp_coll_sends_pending()));
}

GPUMPI_FN void gp_start(int h)
{
    gp_req *q = gp_req_at(h);
    q->active = 1;
    q->done = 0;
    q->pending = 0;
    q->err = MPI_SUCCESS;
    if (q->peer == MPI_PROC_NULL) {
        gp_set_status(&q->status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
        q->done = 1;
        return;
    }
    if (q->kind == GP_REQ_SEND) {
        q->pending = gp_send_start(q->buf, q->count, q->type, q->peer_world, q->tag, q->ctx, q->mode);
        gp_set_status(&q->status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
        q->done = !q->pending;
        if (q->pending) gp_self()->sends_waiting++;
        return;
    }
    gp_post(h);
    /* No matching pass here: it waits for the rank's next Wait, Test,
     * probe or receive, which all make one before they look (posted
     * receives keep their claim). A pass on every post cost the halo
     * exchange's six MPI_Irecv 220 us at 32,768 ranks and 5.5 ms at
     * 270,336 on an H200 (bench/halo_anatomy.c). */
}

GPUMPI_FN int gp_make(const char *fn, int kind, int mode, const void *buf, int count, MPI_Datatype type, int peer,
                      int tag, MPI_Comm comm, MPI_Request *request, int persistent)
{
    int peer_world = peer, ctx = GP_WORLD_CTX, size = gp_comm_size(MPI_COMM_WORLD);
    if (comm == MPI_COMM_WORLD)
        GP_TRY(gp_comm_check(fn, comm));
    else /* one call for what the checks and the start would look up one by one */
        GP_TRY(gp_comm_p2p(fn, comm, peer, &size, &peer_world, &ctx));
    GP_TRY(gp_type_check(comm, fn, type, count));
    GP_TRY(gp_check_peer_of(fn, comm, size, peer, kind == GP_REQ_RECV));
    GP_TRY(gp_check_tag(comm, fn, tag, kind == GP_REQ_RECV));
    if (!request) return gp_err(comm, fn, MPI_ERR_REQUEST, "the request argument is NULL");
    int h = gp_req_new(kind);
    gp_req *q = gp_req_at(h);
    q->mode = mode;
    q->buf = (void *)buf;
    q->count = count;
    q->type = type;
    gp_type_hold(type); /* a datatype freed meanwhile stays usable for this request */
    q->peer = peer;
    q->peer_world = peer_world;
    q->ctx = ctx;
    q->tag = tag;
    q->comm = comm;
    q->persistent = persistent;
    *request = h;
    if (!persistent) gp_start(h);
    return MPI_SUCCESS;
}

/* Has the request finished, as far as the last progress pass knows? */
GPUMPI_FN static int gp_finished(int h)
{
    gp_req *q = gp_req_at(h);
    if (q->kind == GP_REQ_SEND && !q->done && q->pending && gp_send_done(q->pending)) {
        q->pending = 0;
        q->done = 1;
        gp_self()->sends_waiting--;
    }
    if (q->kind == GP_REQ_PAIR && !q->done) {
        int sent = gp_finished(q->halves[0]), got = gp_finished(q->halves[1]);
        if (sent && got) {
            gp_req *recv = gp_req_at(q->halves[1]);
            q->status = recv->status;
            q->err = recv->err;
            q->done = 1;
        }
    }
    return q->done;
}

/* A finished pair's halves go with it. */
GPUMPI_FN static void gp_pair_release_halves(gp_req *q)
{
    gp_req_release(q->halves[0]);
    gp_req_release(q->halves[1]);
    gp_free(q->staged);
    q->staged = 0;
}

/* Has the request finished? Moves it along if not. */
GPUMPI_FN static int gp_poll(int h)
{
    if (gp_req_at(h)->done) return 1;
    gp_progress(); /* a send may wait for one of this rank's own receives; moves collectives along */
    return gp_finished(h);
}

/* The calls on many requests make one progress pass, then look at each:
 * a pass per request made an all-pairs exchange's MPI_Waitall over 2n
 * requests pass over all n posted receives for every request it looked
 * at, as messages kept arriving (4,096 ranks: over 150 s on an H200). */
GPUMPI_FN static void gp_progress_for(int count, MPI_Request requests[])
{
    for (int i = 0; i < count; i++)
        if (requests[i] > 0 && requests[i] <= gp_self()->nreqs && !gp_req_at(requests[i])->done) {
            gp_progress();
            return;
        }
}

GPUMPI_FN static int gp_valid(const char *fn, MPI_Request h)
{
    gp_rank *r = gp_self();
    if (h < 0 || h > r->nreqs || (h > 0 && gp_req_at(h)->kind == GP_REQ_FREE))
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST, "invalid request handle %d", h);
    return MPI_SUCCESS;
}

/* Hands a finished request back: its status, and the handle freed (or, if
 * persistent, made inactive). Truncation is fatal here, as in MPI_Recv. */
GPUMPI_FN static int gp_complete(const char *fn, MPI_Request *request, MPI_Status *status)
{
    gp_req *q = gp_req_at(*request);
    if (q->kind == GP_REQ_COLL) {
        gp_set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
        int rc = gp_coll_req_complete(q);
        if (q->persistent) {
            q->active = 0;
        } else {
            gp_req_release(*request);
            *request = MPI_REQUEST_NULL;
        }
        return rc;
    }
    if (q->kind == GP_REQ_GREQ) {
        int rc = gp_greq_hand_back(fn, *request, status);
        *request = MPI_REQUEST_NULL;
        return rc;
    }
    MPI_Status st = q->status;
    if (gp_req_part(q) && st.MPI_SOURCE != MPI_PROC_NULL) st.MPI_TAG = gp_part_tag(q);
    MPI_Comm comm = q->comm;
    int err = q->err;
    size_t cap = (size_t)q->count * (size_t)gp_type_size(q->type);
    gp_status_out(status, &st);
    if (q->kind == GP_REQ_PAIR) gp_pair_release_halves(q);
    if (q->persistent) {
        q->active = 0;
    } else {
        gp_req_release(*request);
        *request = MPI_REQUEST_NULL;
    }
    if (err == MPI_ERR_TRUNCATE)
        return gp_err(comm, fn, MPI_ERR_TRUNCATE, "message truncated (got %lld bytes, buffer %zu) from rank %d tag %d",
                      (long long)st.gp_count_bytes, cap, st.MPI_SOURCE, st.MPI_TAG);
    return err;
}

/* Null and inactive requests complete at once with an empty status. */
GPUMPI_FN static int gp_inert(MPI_Request h) { return h == MPI_REQUEST_NULL || !gp_req_at(h)->active; }

/* Waits for something to change: a message arriving, or a while. The
 * call's name and requests tell the deadlock watchdog what it waits for
 * (gp_block_enter on the first wait; the call leaves with gp_block_leave). */
typedef struct {
    uint32_t seen;
    unsigned spins;
    const char *fn;
    int count;
    MPI_Request *reqs;
    int entered;
} gp_waiter;

GPUMPI_FN static void gp_wait_begin(gp_waiter *w) { w->seen = gp_arrival_mark(); }

/* Whom an unfinished request waits for: the world rank of its source or
 * of a send's receiver, MPI_ANY_SOURCE, or GP_BLOCK_NONE (a collective). */
GPUMPI_FN static int gp_req_waits_for(gp_req *q)
{
    if (q->kind == GP_REQ_COLL) return GP_BLOCK_NONE;
    if (q->kind == GP_REQ_PAIR && gp_req_at(q->halves[1])->done) return gp_req_at(q->halves[0])->peer_world;
    return q->peer_world;
}

/* The watchdog (and the warp's regroup) sees the call's first unfinished request. */
GPUMPI_FN static void gp_wait_enter(gp_waiter *w)
{
    w->entered = 1;
    for (int i = 0; i < w->count; i++) {
        MPI_Request h = w->reqs ? w->reqs[i] : MPI_REQUEST_NULL;
        if (h == MPI_REQUEST_NULL || h < 0 || h > gp_self()->nreqs) continue;
        gp_req *q = gp_req_at(h);
        if (q->kind == GP_REQ_FREE || !q->active || q->done) continue;
        gp_block_enter(w->fn, q->comm, gp_req_waits_for(q), q->kind == GP_REQ_COLL ? GP_BLOCK_NONE : q->tag);
        return;
    }
    gp_block_enter(w->fn, MPI_COMM_WORLD, GP_BLOCK_NONE, GP_BLOCK_NONE);
}

GPUMPI_FN static void gp_wait_more(gp_waiter *w, int sends_pending)
{
    if (!w->entered) gp_wait_enter(w);
    if (sends_pending || gp_wait_must_poll())
        gp_block_wait(&w->spins); /* a receiver frees the envelope: nothing arrives here */
    else
        gp_arrival_wait(w->seen, &w->spins);
}

GPUMPI_FN static void gp_wait_end(gp_waiter *w)
{
    if (w->entered) gp_block_leave();
}

GPUMPI_FN static int gp_is_pending_send(MPI_Request h)
{
    if (h == MPI_REQUEST_NULL || gp_req_at(h)->done) return 0;
    if (gp_req_at(h)->kind == GP_REQ_COLL) return gp_coll_req_sends_pending(gp_req_at(h));
    if (gp_req_at(h)->kind == GP_REQ_PAIR) return gp_is_pending_send(gp_req_at(h)->halves[0]);
    /* a generalized request: nothing arriving here completes it either */
    return gp_req_at(h)->kind == GP_REQ_SEND || gp_req_at(h)->kind == GP_REQ_GREQ;
}

GPUMPI_FN static int gp_wait(MPI_Request *request, MPI_Status *status)
{
    GP_TRY(gp_valid("MPI_Wait", *request));
    GP_TRY(gp_part_check_wait("MPI_Wait", 1, request));
    if (gp_inert(*request)) {
        gp_set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
        return MPI_SUCCESS;
    }
    gp_waiter w = {0, 0, "MPI_Wait", 1, request, 0};
    for (;;) {
        gp_wait_begin(&w);
        if (gp_poll(*request)) break;
        gp_wait_more(&w, gp_is_pending_send(*request));
    }
    gp_wait_end(&w);
    return gp_complete("MPI_Wait", request, status);
}

GPUMPI_FN int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    gp_regroup_mark();
    return gp_regrouped(gp_wait(request, status));
}

GPUMPI_FN int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    GP_TRY(gp_valid("MPI_Test", *request));
    if (gp_inert(*request)) {
        *flag = 1;
        gp_set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
        return MPI_SUCCESS;
    }
    *flag = gp_poll(*request);
    return *flag ? gp_complete("MPI_Test", request, status) : MPI_SUCCESS;
}

/* Are all the requests finished (inert ones count)? *from of them, a
 * prefix, were at an earlier look, and are not looked at again: each look
 * goes as far as the first unfinished one. Looking at every request on
 * every look (they come to an end one by one as messages arrive) made an
 * all-pairs exchange's MPI_Waitall over 2n requests cost n^2 request
 * reads a rank (1,024 ranks: 2.5 s on an H200). */
GPUMPI_FN static int gp_all_done(int count, MPI_Request requests[], int *from)
{
    while (*from < count && (gp_inert(requests[*from]) || gp_req_at(requests[*from])->done)) (*from)++;
    if (*from == count) return 1;
    gp_progress(); /* once, for all of them */
    while (*from < count && (gp_inert(requests[*from]) || gp_finished(requests[*from]))) (*from)++;
    return *from == count;
}

/* Sends of this rank's that wait for their receivers: a wait must then
 * poll, as nothing arriving here tells it they are done. The whole rank's,
 * not only the call's: a few more polls, and no look at every request. */
GPUMPI_FN static int gp_sends_waiting(void) { return gp_self()->sends_waiting != 0; }

GPUMPI_FN static int gp_check_all(const char *fn, int count, MPI_Request requests[])
{
    for (int i = 0; i < count; i++) GP_TRY(gp_valid(fn, requests[i]));
    return MPI_SUCCESS;
}

GPUMPI_FN static MPI_Status *gp_nth(MPI_Status statuses[], int i) { return statuses ? &statuses[i] : 0; }

/* Did any of these finished requests end in an error? (A collective's
 * error shows only when it completes; a generalized request's is its
 * query callback's, asked here for the call about to complete it.) */
GPUMPI_FN static int gp_any_failed(int n, const MPI_Request requests[], const int *indices)
{
    int failed = 0;
    for (int k = 0; k < n; k++) {
        MPI_Request h = requests[indices ? indices[k] : k];
        if (gp_inert(h) || gp_req_at(h)->kind == GP_REQ_COLL) continue;
        if (gp_req_at(h)->kind == GP_REQ_GREQ) gp_greq_query(h);
        failed |= gp_req_at(h)->err != MPI_SUCCESS;
    }
    return failed;
}

/* Completes finished request i into status s: with MPI_ERR_IN_STATUS
 * (*rc) every status gets its MPI_ERROR, else none does (MPI-3.1 3.2.5). */
GPUMPI_FN static void gp_complete_into(const char *fn, MPI_Request *request, MPI_Status *s, int *rc)
{
    int e = MPI_SUCCESS;
    if (gp_inert(*request))
        gp_set_status(s, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
    else
        e = gp_complete(fn, request, s);
    if (e != MPI_SUCCESS) *rc = MPI_ERR_IN_STATUS;
    if (s && *rc == MPI_ERR_IN_STATUS) s->MPI_ERROR = e;
}

GPUMPI_FN static int gp_complete_all(const char *fn, int count, MPI_Request requests[], MPI_Status statuses[])
{
    int rc = gp_any_failed(count, requests, 0) ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
    for (int i = 0; i < count; i++) gp_complete_into(fn, &requests[i], gp_nth(statuses, i), &rc);
    return rc;
}

GPUMPI_FN static int gp_waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    GP_TRY(gp_check_all("MPI_Waitall", count, requests));
    GP_TRY(gp_part_check_wait("MPI_Waitall", count, requests));
    gp_waiter w = {0, 0, "MPI_Waitall", count, requests, 0};
    int from = 0, entered_at = 0;
    for (;;) {
        gp_wait_begin(&w);
        if (gp_all_done(count, requests, &from)) break;
        if (w.entered && from != entered_at) /* the first unfinished request moved on: whom it waits for now */
            gp_regroup_wants(gp_req_waits_for(gp_req_at(requests[from])));
        entered_at = from;
        gp_wait_more(&w, gp_sends_waiting());
    }
    gp_wait_end(&w);
    return gp_complete_all("MPI_Waitall", count, requests, statuses);
}

GPUMPI_FN int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    gp_regroup_mark();
    return gp_regrouped(gp_waitall(count, requests, statuses));
}

GPUMPI_FN int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    GP_TRY(gp_check_all("MPI_Testall", count, requests));
    int from = 0;
    *flag = gp_all_done(count, requests, &from);
    return *flag ? gp_complete_all("MPI_Testall", count, requests, statuses) : MPI_SUCCESS;
}

GPUMPI_FN static int gp_first_done(const char *fn, int count, MPI_Request requests[], int *sends_pending)
{
    int active = 0;
    *sends_pending = 0;
    for (int i = 0; i < count; i++) GP_TRY(gp_valid(fn, requests[i]));
    gp_progress_for(count, requests);
    for (int i = 0; i < count; i++) {
        if (gp_inert(requests[i])) continue;
        active = 1;
        if (gp_finished(requests[i])) return i;
        *sends_pending |= gp_is_pending_send(requests[i]);
    }
    return active ? -1 : MPI_UNDEFINED;
}

GPUMPI_FN int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    GP_TRY(gp_check_all("MPI_Waitany", count, requests));
    GP_TRY(gp_part_check_wait("MPI_Waitany", count, requests));
    gp_waiter w = {0, 0, "MPI_Waitany", count, requests, 0};
    for (;;) {
        gp_wait_begin(&w);
        int sends, i = gp_first_done("MPI_Waitany", count, requests, &sends);
        if (i != -1) gp_wait_end(&w);
        if (i == MPI_UNDEFINED) {
            *index = MPI_UNDEFINED;
            gp_set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
            return MPI_SUCCESS;
        }
        if (i >= 0) {
            *index = i;
            return gp_complete("MPI_Waitany", &requests[i], status);
        }
        gp_wait_more(&w, sends);
    }
}

GPUMPI_FN int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    int sends, i = gp_first_done("MPI_Testany", count, requests, &sends);
    *flag = i != -1;
    *index = i >= 0 ? i : MPI_UNDEFINED;
    if (i == MPI_UNDEFINED) gp_set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
    return i >= 0 ? gp_complete("MPI_Testany", &requests[i], status) : MPI_SUCCESS;
}

GPUMPI_FN static int gp_some(const char *fn, int incount, MPI_Request requests[], int *outcount, int indices[],
                             MPI_Status statuses[], int *sends_pending)
{
    int active = 0, n = 0, rc = MPI_SUCCESS;
    *sends_pending = 0;
    for (int i = 0; i < incount; i++) GP_TRY(gp_valid(fn, requests[i]));
    gp_progress_for(incount, requests);
    for (int i = 0; i < incount; i++) {
        if (gp_inert(requests[i])) continue;
        active = 1;
        if (gp_finished(requests[i]))
            indices[n++] = i;
        else
            *sends_pending |= gp_is_pending_send(requests[i]);
    }
    if (gp_any_failed(n, requests, indices)) rc = MPI_ERR_IN_STATUS;
    for (int k = 0; k < n; k++) gp_complete_into(fn, &requests[indices[k]], gp_nth(statuses, k), &rc);
    *outcount = active ? n : MPI_UNDEFINED;
    return rc;
}

GPUMPI_FN int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    GP_TRY(gp_check_all("MPI_Waitsome", incount, requests));
    GP_TRY(gp_part_check_wait("MPI_Waitsome", incount, requests));
    gp_waiter w = {0, 0, "MPI_Waitsome", incount, requests, 0};
    for (;;) {
        gp_wait_begin(&w);
        int sends, rc = gp_some("MPI_Waitsome", incount, requests, outcount, indices, statuses, &sends);
        if (*outcount != 0) {
            gp_wait_end(&w);
            return rc;
        }
        gp_wait_more(&w, sends);
    }
}

GPUMPI_FN int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    int sends;
    return gp_some("MPI_Testsome", incount, requests, outcount, indices, statuses, &sends);
}

GPUMPI_FN int MPI_Request_free(MPI_Request *request)
{
    GP_TRY(gp_valid("MPI_Request_free", *request));
    if (*request == MPI_REQUEST_NULL) return gp_err(MPI_COMM_WORLD, "MPI_Request_free", MPI_ERR_REQUEST, "MPI_REQUEST_NULL");
    gp_req *q = gp_req_at(*request);
    if (q->kind == GP_REQ_COLL && q->persistent) { /* MPI-4.0 6.13: only an inactive one */
        if (q->active)
            return gp_err(q->comm, "MPI_Request_free", MPI_ERR_REQUEST,
                          "request %d is an active persistent collective's (complete it with MPI_Wait or MPI_Test "
                          "first)",
                          *request);
        gp_coll_persistent_free(q);
        gp_req_release(*request);
        *request = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    if (gp_req_part(q) && q->active) /* MPI-4.0 4.2.2 */
        return gp_err(q->comm, "MPI_Request_free", MPI_ERR_REQUEST,
                      "request %d is an active partitioned %s (complete it with MPI_Wait or MPI_Test first)",
                      *request, q->kind == GP_REQ_SEND ? "send" : "receive");
    if (q->kind == GP_REQ_PAIR && q->active && !q->done) {
        /* each half as if freed by itself (the send finishes first: it may read the staged copy) */
        MPI_Request send = q->halves[0], recv = q->halves[1];
        MPI_Request_free(&send);
        MPI_Request_free(&recv);
        gp_free(q->staged);
        gp_req_release(*request);
        *request = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    if (q->kind == GP_REQ_PAIR) gp_pair_release_halves(q);
    if (q->kind == GP_REQ_GREQ) {
        MPI_Request h = *request;
        *request = MPI_REQUEST_NULL;
        return gp_greq_free(h);
    }
    if (q->kind == GP_REQ_COLL) /* MPI-3.1 5.12 */
        return gp_err(q->comm, "MPI_Request_free", MPI_ERR_REQUEST,
                      "request %d is a nonblocking collective's, which may not be freed (complete it with "
                      "MPI_Wait or MPI_Test)",
                      *request);
    if (!q->active || gp_poll(*request))
        gp_req_release(*request);
    else if (q->kind == GP_REQ_SEND) {
        unsigned spins = 0; /* the envelope must come back before the request goes */
        gp_hand_back();
        while (!gp_poll(*request)) gp_pause(&spins);
        gp_req_release(*request);
    } else {
        q->freed = 1; /* released when a message completes it */
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Cancel(MPI_Request *request)
{
    GP_TRY(gp_valid("MPI_Cancel", *request));
    if (*request == MPI_REQUEST_NULL) return gp_err(MPI_COMM_WORLD, "MPI_Cancel", MPI_ERR_REQUEST, "MPI_REQUEST_NULL");
    gp_req *q = gp_req_at(*request);
    if (q->kind == GP_REQ_COLL) /* MPI-3.1 5.12 */
        return gp_err(q->comm, "MPI_Cancel", MPI_ERR_REQUEST,
                      "request %d is a nonblocking collective's, which cannot be cancelled", *request);
    if (q->kind == GP_REQ_PAIR) { /* its receive: the pair then ends with the send, cancelled */
        MPI_Request recv = q->halves[1];
        return MPI_Cancel(&recv);
    }
    if (q->kind == GP_REQ_GREQ) return gp_greq_cancel(*request);
    if (gp_req_part(q) && q->active) /* MPI-4.0 4.2.2 */
        return gp_err(q->comm, "MPI_Cancel", MPI_ERR_REQUEST,
                      "request %d is an active partitioned %s, which cannot be cancelled", *request,
                      q->kind == GP_REQ_SEND ? "send" : "receive");
    gp_progress();
    /* only a receive that has not matched can be cancelled; a send goes on
     * (MPI lets a cancel fail), and Test_cancelled then says so */
    if (q->kind == GP_REQ_RECV && q->active && !q->done) {
        gp_unpost(*request);
        gp_set_status(&q->status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
        q->status.gp_cancelled = 1;
        q->done = 1;
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    if (!status || !flag)
        return gp_err(MPI_COMM_WORLD, "MPI_Test_cancelled", MPI_ERR_ARG, "the status or flag argument is NULL");
    *flag = status->gp_cancelled;
    return MPI_SUCCESS;
}

/* MPI_Test without completing: the request stays as it is. */
GPUMPI_FN int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    GP_TRY(gp_valid("MPI_Request_get_status", request));
    if (!flag) return gp_err(MPI_COMM_WORLD, "MPI_Request_get_status", MPI_ERR_ARG, "the flag argument is NULL");
    if (gp_inert(request)) {
        /* the standard's empty status, error field and all (MPICH's too;
         * MPICH's rqstatus checks it): no communication gives an error
         * here, unlike the calls of 3.2.5 that leave MPI_ERROR alone */
        *flag = 1;
        gp_set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
        if (status) status->MPI_ERROR = MPI_SUCCESS;
        return MPI_SUCCESS;
    }
    *flag = gp_poll(request);
    if (*flag) {
        gp_req *q = gp_req_at(request);
        if (q->kind == GP_REQ_GREQ) return gp_greq_get_status(request, status);
        if (q->kind == GP_REQ_COLL)
            gp_set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
        else
            gp_status_out(status, &q->status);
        if (status && gp_req_part(q) && status->MPI_SOURCE != MPI_PROC_NULL) status->MPI_TAG = gp_part_tag(q);
    }
    return MPI_SUCCESS;
}

/* ---- the calls that make requests ---------------------------------------- */

GPUMPI_FN int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request)
{
    return gp_make("MPI_Isend", GP_REQ_SEND, GP_SEND_STANDARD, buf, count, datatype, dest, tag, comm, request, 0);
}

GPUMPI_FN int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
    return gp_make("MPI_Issend", GP_REQ_SEND, GP_SEND_SYNC, buf, count, datatype, dest, tag, comm, request, 0);
}

GPUMPI_FN int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
    return gp_make("MPI_Irsend", GP_REQ_SEND, GP_SEND_STANDARD, buf, count, datatype, dest, tag, comm, request, 0);
}

GPUMPI_FN int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
    return gp_make("MPI_Ibsend", GP_REQ_SEND, GP_SEND_BUFFERED, buf, count, datatype, dest, tag, comm, request, 0);
}

GPUMPI_FN int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                        MPI_Request *request)
{
    return gp_make("MPI_Irecv", GP_REQ_RECV, 0, buf, count, datatype, source, tag, comm, request, 0);
}

GPUMPI_FN int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                            MPI_Request *request)
{
    return gp_make("MPI_Send_init", GP_REQ_SEND, GP_SEND_STANDARD, buf, count, datatype, dest, tag, comm, request, 1);
}

GPUMPI_FN int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request)
{
    return gp_make("MPI_Ssend_init", GP_REQ_SEND, GP_SEND_SYNC, buf, count, datatype, dest, tag, comm, request, 1);
}

GPUMPI_FN int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request)
{
    return gp_make("MPI_Bsend_init", GP_REQ_SEND, GP_SEND_BUFFERED, buf, count, datatype, dest, tag, comm, request, 1);
}

/* Ready mode: a matching receive is posted, so a standard send is the same. */
GPUMPI_FN int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request)
{
    return gp_make("MPI_Rsend_init", GP_REQ_SEND, GP_SEND_STANDARD, buf, count, datatype, dest, tag, comm, request, 1);
}

GPUMPI_FN int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                            MPI_Request *request)
{
    return gp_make("MPI_Recv_init", GP_REQ_RECV, 0, buf, count, datatype, source, tag, comm, request, 1);
}

GPUMPI_FN int MPI_Start(MPI_Request *request)
{
    GP_TRY(gp_valid("MPI_Start", *request));
    if (*request == MPI_REQUEST_NULL || !gp_req_at(*request)->persistent)
        return gp_err(MPI_COMM_WORLD, "MPI_Start", MPI_ERR_REQUEST, "request %d is not an inactive persistent request", *request);
    if (gp_req_at(*request)->active) /* the request's communicator's error handler decides */
        return gp_err(gp_req_at(*request)->comm, "MPI_Start", MPI_ERR_REQUEST,
                      "request %d is active (start it again once MPI_Wait or MPI_Test has completed it)", *request);
    if (gp_req_at(*request)->kind == GP_REQ_COLL) return gp_coll_persistent_start(*request);
    if (gp_req_part(gp_req_at(*request))) return gp_part_start(*request);
    gp_start(*request);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Startall(int count, MPI_Request requests[])
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        int e = MPI_Start(&requests[i]);
        if (rc == MPI_SUCCESS) rc = e;
    }
    return rc;
}

/* ---- blocking calls built on requests ------------------------------------ */

GPUMPI_FN int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    gp_make("MPI_Ssend", GP_REQ_SEND, GP_SEND_SYNC, buf, count, datatype, dest, tag, comm, &r, 0);
    return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

GPUMPI_FN int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return MPI_Send(buf, count, datatype, dest, tag, comm); /* a matching receive is posted: the same */
}

GPUMPI_FN int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    gp_make("MPI_Bsend", GP_REQ_SEND, GP_SEND_BUFFERED, buf, count, datatype, dest, tag, comm, &r, 0);
    return MPI_Wait(&r, MPI_STATUS_IGNORE); /* buffered: already complete */
}

/* Buffered sends copy into the device heap, so the attached buffer only
 * has to be remembered for MPI_Buffer_detach. */
GPUMPI_FN int MPI_Buffer_attach(void *buffer, int size)
{
    gp_rank *r = gp_self();
    if (r->bsend_buf) return gp_err(MPI_COMM_WORLD, "MPI_Buffer_attach", MPI_ERR_BUFFER, "a buffer is already attached");
    r->bsend_buf = buffer;
    r->bsend_size = size;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Buffer_detach(void *buffer_addr, int *size)
{
    gp_rank *r = gp_self();
    *(void **)buffer_addr = r->bsend_buf;
    *size = r->bsend_size;
    r->bsend_buf = 0;
    r->bsend_size = 0;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                           MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r;
    gp_make("MPI_Sendrecv", GP_REQ_SEND, GP_SEND_STANDARD, sendbuf, sendcount, sendtype, dest, sendtag, comm, &r, 0);
    int rc = gp_recv_inline(recvbuf, recvcount, recvtype, source, recvtag, comm, status); /* MPI_Wait regroups */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
}

/* ---- probes ---------------------------------------------------------------- */

GPUMPI_FN int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    GP_TRY(gp_comm_check("MPI_Iprobe", comm));
    GP_TRY(gp_check_peer("MPI_Iprobe", comm, source, 1));
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        gp_set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
        return MPI_SUCCESS;
    }
    gp_progress(); /* receives posted earlier have the first claim */
    int src = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : gp_comm_to_world(comm, source);
    int got_src, got_tag;
    size_t bytes;
    *flag = gp_peek_match(src, tag, gp_ctx_p2p(comm), &got_src, &got_tag, &bytes);
    if (*flag) gp_set_status(status, gp_world_to_comm(comm, got_src), got_tag, bytes);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    gp_waiter w = {0, 0, "MPI_Probe", 0, 0, 0};
    gp_regroup_mark(); /* as MPI_Recv */
    for (;;) {
        gp_wait_begin(&w);
        int flag;
        MPI_Iprobe(source, tag, comm, &flag, status);
        if (!flag && !w.entered) {
            w.entered = 1;
            gp_block_enter("MPI_Probe", comm, source == MPI_ANY_SOURCE || source == MPI_PROC_NULL ? source : gp_comm_to_world(comm, source), tag);
        }
        if (flag) {
            gp_wait_end(&w);
            return gp_regrouped(MPI_SUCCESS);
        }
        gp_wait_more(&w, 0);
    }
}
