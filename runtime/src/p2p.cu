/* Point-to-point transport between ranks on one device.
 * Small messages are copied into one of the sender's slots (eager: the send
 * completes at once). Large ones from shared memory are copied once, by the
 * receiver, straight out of the sender's buffer (rendezvous: the send
 * completes when the copy is done). Large ones from a thread's private stack
 * are staged on the heap first, since no other thread can read them. */
#include "p2p_inline.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

/* A free slot of the sender's, or, when all are in flight, an overflow
 * envelope from the heap: a send never waits for a receiver to make room
 * (two ranks sending to each other first must not deadlock). Only with the
 * heap exhausted does it wait for a slot, and tells the watchdog so unless
 * the caller has said what it waits for. */
GPUMPI_FN static gp_msg *gp_envelope(int me, int dest_world, int tag, uint32_t *on_heap)
{
    gp_rank *r = &gp_hot.ranks[me];
    gp_msg *slots = gp_hot.slots + (size_t)me * GP_SLOTS_PER_RANK;
    unsigned spins = 0;
    int told = 0;
    for (;;) {
        for (int i = 0; i < GP_SLOTS_PER_RANK; i++) {
            uint32_t k = (gp_chip()->next_slot + (uint32_t)i) % GP_SLOTS_PER_RANK;
            if (gp_load_acquire(&slots[k].state) == GP_SLOT_FREE) {
                gp_chip()->next_slot = (uint8_t)(k + 1);
                *on_heap = 0;
                if (told) gp_block_leave();
                return &slots[k];
            }
        }
        gp_msg *m = (gp_msg *)gp_malloc(sizeof(gp_msg));
        if (m) {
            *on_heap = GP_MSG_ON_HEAP;
            if (told) gp_block_leave();
            return m;
        }
        if (!told && !r->block_fn) {
            gp_block_enter("a send (all message slots in flight, device heap full)", MPI_COMM_WORLD, dest_world, tag);
            told = 1;
        }
        gp_block_wait(&spins);
    }
}

GPUMPI_FN gp_msg *gp_send_start(const void *buf, int count, MPI_Datatype type, int dest_world, int tag, int ctx,
                                int mode)
{
    int me = gp_thread_rank();
    size_t bytes = (size_t)count * (size_t)gp_type_size(type);
    gp_regroup_sent(dest_world);
    const void *first;
    int contiguous = gp_type_contiguous(type, count, buf, &first);
    /* A payload of one or two aligned words is loaded before the look at
     * the slots: their acquire empties L1, and a load after it would be a
     * trip to L2 of its own rather than one beside theirs. */
    int words = contiguous && (bytes == 8 || bytes == 16) && ((uintptr_t)first & 7) == 0 ? (int)(bytes / 8) : 0;
    uint64_t early0 = words ? ((const uint64_t *)first)[0] : 0, early1 = words == 2 ? ((const uint64_t *)first)[1] : 0;
#if GP_HAVE_LANDING
    int landing_tried = mode & GP_SEND_LANDING_TRIED;
    mode &= ~GP_SEND_LANDING_TRIED;
    if (!landing_tried && contiguous && dest_world != me &&
        (bytes <= GP_LAND_BYTES ? gp_land_send(dest_world, tag, ctx, words ? early0 : gp_land_bytes(first, bytes), bytes)
                                : bytes <= GP_LAND_PAD_MOST && gp_land_send_pad(dest_world, tag, ctx, first, bytes))) {
        gp_count_sent(bytes);
        gp_hand_back(); /* no fence of this send's hands it back */
        return 0;
    }
#endif
    uint32_t flags;
    gp_msg *m = gp_envelope(me, dest_world, tag, &flags);
    m->src = me;
    m->tag = tag;
    m->bytes = (uint32_t)bytes;
    if (mode == GP_SEND_SYNC) flags |= GP_MSG_SENDER_WAITS;
    const void *data;
    if (bytes <= GP_EAGER_BYTES) {
        data = m->payload; /* m->data and m->staged stay unset: the receiver goes by the size */
    } else if (contiguous && gp_is_shared_memory(first) && dest_world != me && mode != GP_SEND_BUFFERED) {
        m->data = data = first; /* the receiver copies straight out of the sender's buffer */
        m->staged = 0;
        flags |= GP_MSG_SENDER_WAITS;
    } else {
        /* a stack buffer no other thread can read, a send to self that
         * must not wait for its own receive, buffered mode, or a type
         * that is packed on the way */
        m->staged = gp_malloc(bytes);
        if (!m->staged) gp_fatal("MPI_Send", MPI_ERR_NO_MEM, "no device heap left to stage %zu bytes (raise --heap)", bytes);
        m->data = data = m->staged;
    }
    if (words) {
        m->payload[0] = early0;
        if (words == 2) m->payload[1] = early1;
    } else if (data != first) {
        if (contiguous)
            gp_copy((void *)data, first, bytes);
        else
            gp_type_pack(buf, count, type, (void *)data);
    }
    m->ctx_flags = (uint32_t)ctx | flags;
    int waits = (flags & GP_MSG_SENDER_WAITS) != 0;
    gp_count_sent(bytes);
    m->state = GP_SLOT_QUEUED;
    m->next = (gp_msg *)(uintptr_t)GP_MSG_LINKING;
    gp_fence_release(); /* publishes the envelope, and this rank's reads of a slot it hands back here */
    gp_enqueue(dest_world, m);
    if (gp_flag(GP_RF_FREE_LATER)) {
        gp_store_relaxed(&gp_self()->free_later->state, GP_SLOT_FREE);
        gp_flag_set(GP_RF_FREE_LATER, 0);
    }
    return waits ? m : 0;
}

/* A received eager slot goes back to its sender with the next release
 * fence this rank makes anyway: its next send's, or the next slot's it
 * receives. A release costs a fence (on an H100 about 0.5 us, on the
 * receive's critical path); a rank that sends after it receives (a
 * ping-pong, a halo exchange) so pays one fence per message pair, not
 * two. A slot still held back goes back before the rank waits for
 * anything (gp_hand_back): its sender may be waiting for it. */
GPUMPI_FN static void gp_free_later(gp_msg *m)
{
    gp_hand_back(); /* the slot held until now: its fence also covers the reads of m */
    gp_self()->free_later = m;
    gp_flag_set(GP_RF_FREE_LATER, 1);
}

GPUMPI_FN void gp_hand_back_now(void)
{
    gp_store_release(&gp_self()->free_later->state, GP_SLOT_FREE);
    gp_flag_set(GP_RF_FREE_LATER, 0);
}

GPUMPI_FN int gp_send_done(gp_msg *m)
{
    if (gp_load_acquire(&m->state) != GP_SLOT_RECEIVED) return 0;
    if (m->ctx_flags & GP_MSG_ON_HEAP)
        gp_free(m);
    else
        m->state = GP_SLOT_FREE; /* only now may this rank's next send take it */
    return 1;
}

GPUMPI_FN void gp_send_bytes(const void *buf, size_t bytes, int dest_world, int tag, int ctx)
{
    gp_send_typed(buf, (int)bytes, MPI_BYTE, dest_world, tag, ctx);
}

/* Waits until the receiver has taken a send that gp_send_start returned. */
GPUMPI_FN __noinline__ void gp_send_wait(gp_msg *m)
{
    unsigned spins = 0;
    while (!gp_send_done(m)) {
        /* the receiver may itself wait for one of this rank's posted
         * receives or its part of a nonblocking collective */
        if (gp_progress_wanted()) gp_progress();
        gp_block_wait(&spins);
    }
}

/* The same from MPI_Send's inline path, which has not told the watchdog. */
GPUMPI_FN __noinline__ void gp_send_wait_told(gp_msg *m, int dest, int tag)
{
    gp_block_enter("MPI_Send", MPI_COMM_WORLD, dest, tag);
    gp_send_wait(m);
    gp_block_leave();
}

GPUMPI_FN void gp_send_typed(const void *buf, int count, MPI_Datatype type, int dest_world, int tag, int ctx)
{
    gp_msg *m = gp_send_start(buf, count, type, dest_world, tag, ctx, GP_SEND_STANDARD);
    if (m) gp_send_wait(m);
}

GPUMPI_FN int gp_deliver(gp_msg *m, void *buf, int count, MPI_Datatype type, int *got_src, int *got_tag,
                         size_t *got_bytes)
{
    size_t n = m->bytes, cap = (size_t)count * (size_t)gp_type_size(type);
    int rc = MPI_SUCCESS;
    if (n > cap) {
        rc = MPI_ERR_TRUNCATE;
        n = cap;
    }
    const void *first, *data = m->bytes <= GP_EAGER_BYTES ? m->payload : m->data;
    if (gp_type_contiguous(type, count, buf, &first))
        gp_copy((void *)first, data, n);
    else
        gp_type_unpack(data, n, buf, count, type);
    if (m->bytes > GP_EAGER_BYTES && m->staged) gp_free(m->staged);
    *got_src = m->src;
    *got_tag = m->tag;
    *got_bytes = m->bytes;
    gp_count_recvd(m->bytes);
    uint32_t flags = m->ctx_flags;
    if (flags & GP_MSG_SENDER_WAITS)
        gp_store_release(&m->state, GP_SLOT_RECEIVED); /* completes the sender, which frees the slot */
    else if (flags & GP_MSG_ON_HEAP)
        gp_free(m); /* nobody else looks at it again */
    else
        gp_free_later(m);
    return rc;
}

/* A blocking receive, ignoring posted receives; the source is a world rank.
 * `looked`: the caller has just drained the inbox and found no match.
 * Inline in its two callers: as a call, its frame's saves and restores
 * were on the message's path. */
GPUMPI_FN static __forceinline__ int gp_recv_typed(void *buf, int count, MPI_Datatype type, int src_world, int tag,
                                                   int ctx, int *got_src, int *got_tag, size_t *got_bytes, int looked)
{
    unsigned spins = 0;
    int full = 0;
    gp_msg *m = 0;
    const void *first;
    int land = GP_HAVE_LANDING && gp_type_contiguous(type, count, buf, &first);
    uint32_t seen = gp_self()->arrived - (looked ? 0u : 1u); /* gp_take_match's `looked` */
    for (;;) {
        if (!looked) {
            m = gp_take_match(src_world, tag, ctx, 0, full, &seen); /* drains the inbox first */
            if (m) break;
        }
        looked = 0;
        uint32_t mark = gp_self()->arrived; /* wait for anything after what was looked at */
        full = 0;
        if (gp_progress_wanted()) {
            gp_progress(); /* the sender may wait for this rank's part of a collective */
        } else if (land) { /* nothing to do but wait: wait at a landing */
            size_t cap = (size_t)count * (size_t)gp_type_size(type);
            int got = gp_land_wait(src_world, tag, ctx, (void *)first, cap, got_src, got_tag, got_bytes, &m, &spins);
            if (got == 1) /* through the pad the sender copied what fits */
                return *got_bytes > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
            if (got == 2) break;
            if (seen == mark) seen = gp_self()->arrived; /* what the landing drained, it looked at */
            continue;
        }
        if (gp_wait_must_poll())
            gp_block_wait(&spins);
        else
            full = gp_arrival_wait(mark, &spins);
    }
    return gp_deliver(m, buf, count, type, got_src, got_tag, got_bytes);
}

GPUMPI_FN int gp_recv_bytes(void *buf, size_t cap, int src_world, int tag, int ctx, int *got_src, int *got_tag,
                            size_t *got_bytes)
{
    return gp_recv_typed(buf, (int)cap, MPI_BYTE, src_world, tag, ctx, got_src, got_tag, got_bytes, 0);
}

/* MPI_Send but for its fast path (p2p_inline.h). */
GPUMPI_FN __noinline__ int gp_send_call(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                        MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Send", comm));
    GP_TRY(gp_type_check(comm, "MPI_Send", datatype, count));
    GP_TRY(gp_check_peer("MPI_Send", comm, dest, 0));
    GP_TRY(gp_check_tag(comm, "MPI_Send", tag, 0));
    if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
    int dest_world = gp_comm_to_world(comm, dest);
    /* an eager send does not wait, so the watchdog need not hear of it
     * (those stores and the leave's check cost 0.45 us a call on an H100),
     * unless --stats counts every call */
    int told = gp_hot.stats != 0;
    if (told) gp_block_enter("MPI_Send", comm, dest_world, tag);
    gp_msg *m = gp_send_start(buf, count, datatype, dest_world, tag, gp_ctx_p2p(comm), GP_SEND_STANDARD);
    if (m) {
        if (!told) gp_block_enter("MPI_Send", comm, dest_world, tag);
        told = 1;
        gp_send_wait(m);
    }
    if (told) gp_block_leave();
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return gp_send_inline(buf, count, datatype, dest, tag, comm);
}

/* The end of a receive: its status, and a truncation reported. */
GPUMPI_FN __noinline__ int gp_recv_end(MPI_Comm comm, MPI_Status *status, int got_src, int got_tag, size_t got, int rc,
                                 int count, MPI_Datatype datatype)
{
    gp_set_status(status, gp_world_to_comm(comm, got_src), got_tag, got);
    if (rc == MPI_ERR_TRUNCATE)
        return gp_err(comm, "MPI_Recv", rc, "message truncated (got %zu bytes, buffer %zu) from rank %d tag %d", got,
                      (size_t)count * (size_t)gp_type_size(datatype), gp_world_to_comm(comm, got_src), got_tag);
    return rc;
}

/* MPI_Recv from its inline path (p2p_inline.h), which published a landing
 * that no message has taken yet (got: nothing), or took from the inbox an
 * envelope pushed onto a message that had landed (got: what it took).
 * The wait goes on here, where the watchdog hears of it. */
GPUMPI_FN __noinline__ int gp_recv_landing(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                           MPI_Status *status, gp_inbox got)
{
    gp_block_enter("MPI_Recv", MPI_COMM_WORLD, source, tag);
    uint64_t seen = GP_INBOX_LANDED; /* what the inline path saw, when it took something */
    size_t cap = (size_t)count * (size_t)gp_type_size(datatype);
    if (!got.head) {
        uint64_t token = gp_land_token(source, tag, GP_WORLD_CTX, gp_land_pad_for(buf, cap), cap).head;
        unsigned spins = 0;
        got = gp_land_await(&gp_hot.inbox[gp_thread_rank()], token, &spins, &seen);
    }
    int got_src, got_tag, rc = MPI_SUCCESS;
    size_t bytes;
    gp_msg *m = 0;
    int how = gp_land_finish(got, seen, source, tag, GP_WORLD_CTX, buf, &got_src, &got_tag, &bytes, &m);
    if (how == 1 && bytes > cap)
        rc = MPI_ERR_TRUNCATE; /* through the pad the sender copied what fits */
    else if (how == 2)
        rc = gp_deliver(m, buf, count, datatype, &got_src, &got_tag, &bytes);
    else if (how == 0)
        rc = gp_recv_typed(buf, count, datatype, source, tag, GP_WORLD_CTX, &got_src, &got_tag, &bytes, 0);
    gp_block_leave();
    return gp_recv_end(MPI_COMM_WORLD, status, got_src, got_tag, bytes, rc, count, datatype);
}

/* A blocking receive brings its warp back in step, as MPI_Wait does: the
 * ranks of a task farm each waiting for their next task, left apart, ran
 * their tasks one lane after another. Every call counts (rounds are by
 * count), whether it waited or not. */
GPUMPI_FN int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                       MPI_Status *status)
{
    gp_regroup_mark();
    return gp_regrouped(gp_recv_inline(buf, count, datatype, source, tag, comm, status));
}

/* MPI_Recv but for its inline path. `full`: that path has just seen the
 * inbox hold something (gp_drain_into). */
GPUMPI_FN __noinline__ int gp_recv_call(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                        MPI_Comm comm, MPI_Status *status, int full)
{
    GP_TRY(gp_comm_check("MPI_Recv", comm));
    GP_TRY(gp_type_check(comm, "MPI_Recv", datatype, count));
    GP_TRY(gp_check_peer("MPI_Recv", comm, source, 1));
    GP_TRY(gp_check_tag(comm, "MPI_Recv", tag, 1));
    if (source == MPI_PROC_NULL) {
        gp_set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
        return MPI_SUCCESS;
    }
    if (gp_flag(GP_RF_POSTED)) { /* receives posted earlier match first */
        MPI_Request r;
        MPI_Irecv(buf, count, datatype, source, tag, comm, &r);
        return MPI_Wait(&r, status);
    }
    int src = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : gp_comm_to_world(comm, source);
    int got_src, got_tag;
    size_t got;
    /* the watchdog hears of the receive only if it has to wait (or
     * --stats counts every call), as for MPI_Send */
    int told = gp_hot.stats != 0, ctx = gp_ctx_p2p(comm), rc;
    if (told) gp_block_enter("MPI_Recv", comm, src, tag);
    gp_msg *m = gp_take_match(src, tag, ctx, 0, full);
    if (m) {
        rc = gp_deliver(m, buf, count, datatype, &got_src, &got_tag, &got);
    } else {
        if (!told) gp_block_enter("MPI_Recv", comm, src, tag);
        told = 1;
        rc = gp_recv_typed(buf, count, datatype, src, tag, ctx, &got_src, &got_tag, &got, 1);
    }
    if (told) gp_block_leave();
    return gp_recv_end(comm, status, got_src, got_tag, got, rc, count, datatype);
}
