/* The collective schedule engine (see coll.h): rounds of nonblocking sends
 * and receives made on demand, progressed without blocking, run to the end
 * by blocking collectives. */
#include "coll.h"
#include "reduce_inline.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

/* Tags carry the sequence number and the phase: a phase's messages never
 * meet another phase's, even with a source wildcard. */
GPUMPI_FN static int gp_sched_tag(uint32_t seq, int phase)
{
    return (int)(((seq & 0x1fffffffu) << 3) | (uint32_t)phase);
}

GPUMPI_FN void gp_sched_init(gp_sched *s, const char *fn, MPI_Comm comm)
{
    gp_regroup_mark(); /* a blocking collective may regroup at its end (gp_coll_run) */
    gp_memset(s, 0, offsetof(gp_sched, steps)); /* the step slots and scratch are set as they are used */
    s->fn = fn;
    s->comm = comm;
    s->lcomm = gp_comm_local_of(comm);
    s->me = gp_comm_rank(comm);
    s->n = gp_comm_size(comm);
    s->rn = s->lcomm == comm ? s->n : gp_comm_peer_size(comm);
    s->ctx = gp_ctx_coll(comm);
    s->seq = gp_comm_next_coll_seq(comm) & (GP_SEQ_PERSISTENT - 1);
    s->tag = gp_sched_tag(s->seq, 0);
}

GPUMPI_FN void gp_sched_renumber(gp_sched *s, uint32_t seq)
{
    gp_comm_return_coll_seq(s->comm);
    s->seq = seq;
    s->tag = gp_sched_tag(seq, s->phase);
}

GPUMPI_FN void gp_sched_add_phase(gp_sched *s, gp_round_fn fn)
{
    if (s->nphases == GP_SCHED_PHASES) gp_fatal(s->fn, MPI_ERR_INTERN, "too many schedule phases");
    s->phases[s->nphases++] = fn;
}

GPUMPI_FN void *gp_sched_scratch(gp_sched *s, size_t bytes)
{
    size_t want = (bytes + 15) & ~(size_t)15;
    char *base = (char *)(((uintptr_t)s->inline_buf + 15) & ~(uintptr_t)15);
    if (bytes <= GP_EAGER_BYTES && s->inline_used + want <= GP_SCHED_INLINE) {
        void *p = base + s->inline_used;
        s->inline_used += want;
        return p;
    }
    if (s->nheap == GP_SCHED_HEAP_BLOCKS) gp_fatal(s->fn, MPI_ERR_INTERN, "too many scratch blocks in one schedule");
    void *p = gp_malloc(want);
    if (!p)
        gp_fatal(s->fn, MPI_ERR_NO_MEM, "no device heap left for %zu bytes of collective scratch (raise --heap)",
                 bytes);
    s->heap[s->nheap++] = p;
    return p;
}

GPUMPI_FN void gp_sched_free(gp_sched *s)
{
    for (int i = 0; i < s->nheap; i++) gp_free(s->heap[i]);
    s->nheap = 0;
}

GPUMPI_FN static gp_step *gp_sched_step(gp_sched *s, int kind)
{
    if (s->nsteps == GP_SCHED_STEPS) gp_fatal(s->fn, MPI_ERR_INTERN, "too many messages in one schedule round");
    gp_step *st = &s->steps[s->nsteps++];
    gp_memset(st, 0, sizeof *st);
    st->kind = (uint8_t)kind;
    return st;
}

/* A step's peer as a world rank. */
GPUMPI_FN static int gp_step_world(const gp_sched *s, const gp_step *st)
{
    return gp_comm_to_world(st->local ? s->lcomm : s->comm, st->peer);
}

GPUMPI_FN static void gp_sched_send_to(gp_sched *s, int local, int peer, const void *buf, int count,
                                       MPI_Datatype type)
{
    gp_step *st = gp_sched_step(s, GP_STEP_SEND);
    st->peer = peer;
    st->local = (uint8_t)local;
    st->env = gp_send_start(buf, count, type, gp_step_world(s, st), s->tag, s->ctx, GP_SEND_STANDARD);
    st->done = st->env == 0;
}

GPUMPI_FN static void gp_sched_recv_from(gp_sched *s, int local, int peer, void *buf, int count, MPI_Datatype type,
                                         int exact)
{
    gp_step *st = gp_sched_step(s, GP_STEP_RECV);
    st->peer = peer;
    st->local = (uint8_t)local;
    st->buf = buf;
    st->count = count;
    st->type = type;
    st->exact = (uint8_t)exact;
}

GPUMPI_FN void gp_sched_send(gp_sched *s, int peer, const void *buf, int count, MPI_Datatype type)
{
    gp_sched_send_to(s, 0, peer, buf, count, type);
}

GPUMPI_FN void gp_sched_recv(gp_sched *s, int peer, void *buf, int count, MPI_Datatype type, int exact)
{
    gp_sched_recv_from(s, 0, peer, buf, count, type, exact);
}

GPUMPI_FN void gp_sched_send_local(gp_sched *s, int peer, const void *buf, int count, MPI_Datatype type)
{
    gp_sched_send_to(s, 1, peer, buf, count, type);
}

GPUMPI_FN void gp_sched_recv_local(gp_sched *s, int peer, void *buf, int count, MPI_Datatype type, int exact)
{
    gp_sched_recv_from(s, 1, peer, buf, count, type, exact);
}

GPUMPI_FN void gp_sched_recv_any(gp_sched *s, int messages, gp_locate_fn locate)
{
    if (messages <= 0) return;
    gp_step *st = gp_sched_step(s, GP_STEP_RECV_ANY);
    st->peer = messages;
    s->locate = locate;
}

GPUMPI_FN static void gp_sched_fail(gp_sched *s, int errclass, int peer, size_t got, size_t want)
{
    if (s->err) return;
    s->err = errclass;
    s->err_peer = peer;
    s->err_got = got;
    s->err_want = want;
}

/* Copies a matched message out; a size other than the schedule's is the
 * ranks disagreeing on the collective's arguments. */
GPUMPI_FN static void gp_sched_deliver(gp_sched *s, gp_msg *m, void *buf, int count, MPI_Datatype type, int exact)
{
    int src, tag;
    size_t got, want = gp_coll_bytes(count, type);
    int rc = gp_deliver(m, buf, count, type, &src, &tag, &got);
    if (rc != MPI_SUCCESS || (exact && got != want))
        gp_sched_fail(s, MPI_ERR_TRUNCATE, gp_world_to_comm(s->comm, src), got, want);
}

GPUMPI_FN static int gp_step_poll(gp_sched *s, gp_step *st, const uint32_t *mark)
{
    switch (st->kind) {
    case GP_STEP_SEND:
        if (gp_send_done(st->env)) return 1;
        s->sends_pending = 1;
        return 0;
    case GP_STEP_RECV: {
        gp_msg *m = gp_take_match(gp_step_world(s, st), s->tag, s->ctx, mark);
        if (!m) return 0;
        gp_sched_deliver(s, m, st->buf, st->count, st->type, st->exact);
        return 1;
    }
    default: { /* GP_STEP_RECV_ANY: each source sends one message, placed by its source */
        gp_uq_walk walk = {0, 0};
        while (st->peer > 0) {
            gp_msg *m = gp_walk_take(&walk, s->tag, s->ctx, *mark);
            if (!m) return 0;
            void *buf;
            int count;
            MPI_Datatype type;
            s->locate(s, gp_world_to_comm(s->comm, m->src), &buf, &count, &type);
            gp_sched_deliver(s, m, buf, count, type, 0);
            st->peer--;
            s->progressed = 1;
        }
        return 1;
    }
    }
}

/* Makes the next round with messages (rounds of local work only run on the
 * way), or marks the schedule finished. */
GPUMPI_FN static void gp_sched_next_round(gp_sched *s)
{
    s->nsteps = 0;
    s->progressed = 1;
    while (s->phase < s->nphases) {
        int more = !s->phase_over && s->phases[s->phase](s, s->round++);
        if (!more) {
            if (s->nsteps) { /* the phase's last round, with messages: they go first */
                s->phase_over = 1;
                return;
            }
            s->phase++;
            s->round = 0;
            s->phase_over = 0;
            s->tag = gp_sched_tag(s->seq, s->phase);
            continue;
        }
        if (s->nsteps) return;
    }
    s->finished = 1;
}

GPUMPI_FN int gp_sched_progress(gp_sched *s)
{
    while (!s->finished) {
        /* one look at the inbox per pass: the round's receives are posted
         * in order, and a later one must not take a message that arrived
         * after an earlier one looked (two from one source with one tag:
         * MPI's non-overtaking rule, as gp_progress keeps for posted
         * receives) */
        uint32_t mark = gp_arrival_mark();
        int pending = 0;
        s->sends_pending = 0;
        for (int i = 0; i < s->nsteps; i++) {
            gp_step *st = &s->steps[i];
            if (st->done) continue;
            if (gp_step_poll(s, st, &mark)) {
                st->done = 1;
                s->progressed = 1;
            } else {
                pending = 1;
            }
        }
        if (pending) return 0;
        gp_sched_next_round(s);
    }
    return 1;
}

GPUMPI_FN int gp_sched_run(gp_sched *s)
{
    unsigned spins = 0;
    int entered = 0;
    for (;;) {
        uint32_t mark = gp_arrival_mark();
        s->progressed = 0;
        if (gp_sched_progress(s)) break;
        gp_progress(); /* a peer's send may be waiting on one of this rank's posted receives */
        if (s->progressed) spins = 0;
        if (!entered) {
            gp_block_enter(s->fn, s->comm, GP_BLOCK_NONE, GP_BLOCK_NONE);
            entered = 1;
        }
        if (s->sends_pending || gp_wait_must_poll())
            gp_block_wait(&spins); /* the receiver's copy does not count as an arrival here */
        else
            gp_arrival_wait(mark, &spins);
    }
    if (entered) gp_block_leave();
    return s->err;
}

GPUMPI_FN int gp_coll_finish(gp_sched *s)
{
    gp_sched_free(s);
    if (!s->err) return MPI_SUCCESS;
    if (s->err == MPI_ERR_TRUNCATE)
        return gp_err(s->comm, s->fn, s->err,
                      "ranks disagree on the amount of data: got %zu bytes from rank %d where %zu were expected",
                      s->err_got, s->err_peer, s->err_want);
    if (s->err == MPI_ERR_OP)
        return gp_err(s->comm, s->fn, s->err, "the operation is not defined for the datatype");
    return gp_err(s->comm, s->fn, s->err, "collective failed");
}

GPUMPI_FN int gp_coll_run(gp_sched *s)
{
    gp_sched_run(s);
    /* a root's collective ends far apart on its ranks (leaves at once, the
     * root last): holding its leaves back for their warp delays the next
     * call's tree (MPI_Gather of 8 bytes over 32,768 ranks, H100: 2.1 ->
     * 5.0 ms a call) */
    int rooted = s->rooted;
    int rc = gp_coll_finish(s);
    return rooted ? rc : gp_regrouped(rc);
}

/* ---- local steps ----------------------------------------------------------- */

GPUMPI_FN size_t gp_coll_bytes(int count, MPI_Datatype type) { return (size_t)count * (size_t)gp_type_size(type); }

GPUMPI_FN void gp_coll_set_bufs(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype)
{
    gp_coll_args *a = &s->a;
    a->sbuf = sbuf;
    a->scount = scount;
    a->stype = stype;
    a->rbuf = rbuf;
    a->rcount = rcount;
    a->rtype = rtype;
}

GPUMPI_FN char *gp_coll_at(const void *buf, long index, int count, MPI_Datatype type)
{
    return (char *)buf + index * (long)count * (long)gp_type_extent(type);
}

GPUMPI_FN char *gp_coll_contiguous(const void *buf, int count, MPI_Datatype type)
{
    const void *first;
    return gp_type_contiguous(type, count, buf, &first) ? (char *)first : 0;
}

GPUMPI_FN void gp_coll_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount,
                            MPI_Datatype rtype)
{
    size_t bytes = gp_coll_bytes(scount, stype), cap = gp_coll_bytes(rcount, rtype);
    if (bytes > cap) bytes = cap;
    if (bytes == 0) return;
    char *from = gp_coll_contiguous(src, scount, stype), *to = gp_coll_contiguous(dst, rcount, rtype);
    if (from && to) {
        if (from != to) gp_memmove(to, from, bytes);
    } else if (to) {
        gp_type_pack(src, scount, stype, to);
    } else if (from) {
        gp_type_unpack(from, bytes, dst, rcount, rtype);
    } else {
        void *tmp = gp_malloc(bytes);
        if (!tmp) gp_fatal("MPI collective", MPI_ERR_NO_MEM, "no device heap left for %zu bytes (raise --heap)", bytes);
        gp_type_pack(src, scount, stype, tmp);
        gp_type_unpack(tmp, bytes, dst, rcount, rtype);
        gp_free(tmp);
    }
}

GPUMPI_FN void gp_sched_reduce(gp_sched *s, const void *in, void *inout, int count, MPI_Datatype type, MPI_Op op)
{
    int rc = gp_reduce_inline(op, type, in, inout, count);
    if (rc != MPI_SUCCESS) gp_sched_fail(s, rc, s->me, 0, 0);
}
