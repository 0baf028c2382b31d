/* MPI_Send and MPI_Recv of up to 8 bytes between world ranks, and of up
 * to GP_LAND_PAD_MOST through a pad: the paths that take a landing
 * (landing.h), inline, so that a program compiled
 * with them (inline_calls.h) reaches the message with no call; the
 * library's MPI_Send and MPI_Recv (p2p.cu) are the rest. */
#ifndef GPUMPI_P2P_INLINE_H
#define GPUMPI_P2P_INLINE_H

#include "runtime.h"

/* Out of line in p2p.cu. */
GPUMPI_FN __noinline__ int gp_send_call(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                        MPI_Comm comm);
GPUMPI_FN __noinline__ void gp_send_wait(gp_msg *m);
GPUMPI_FN __noinline__ int gp_recv_landing(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                           MPI_Status *status, gp_inbox got);
GPUMPI_FN __noinline__ int gp_recv_call(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                        MPI_Comm comm, MPI_Status *status, int full);
GPUMPI_FN __noinline__ void gp_send_wait_told(gp_msg *m, int dest, int tag);
GPUMPI_FN __noinline__ int gp_recv_end(MPI_Comm comm, MPI_Status *status, int got_src, int got_tag, size_t got,
                                       int rc, int count, MPI_Datatype datatype);

/* A message of up to GP_LAND_PAD_MOST bytes to a world rank tries the
 * landing with no call on the way (a function that keeps values across a
 * call saves and restores registers, a few hundred cycles: MPI_Comm_rank
 * took 0.32 us a call for that alone), and goes straight to gp_send_start
 * if it did not land. Everything else goes to gp_send_call. */
GPUMPI_FN static __forceinline__ int gp_send_inline(const void *buf, int count, MPI_Datatype datatype, int dest,
                                                    int tag, MPI_Comm comm)
{
#if GP_HAVE_LANDING
    int size = gp_basic_type_size(datatype);
    if (comm == MPI_COMM_WORLD && gp_flag(GP_RF_INIT) && size && (unsigned)count <= GP_LAND_PAD_MOST / (unsigned)size &&
        (unsigned)dest < (unsigned)gp_hot.nranks && dest != gp_thread_rank() && tag >= 0 && !gp_hot.stats) {
        size_t bytes = (size_t)count * (size_t)size;
        if (bytes <= GP_LAND_BYTES ? gp_land_send(dest, tag, GP_WORLD_CTX, gp_land_bytes(buf, bytes), bytes)
                                   : gp_land_send_pad(dest, tag, GP_WORLD_CTX, buf, bytes)) {
            gp_hand_back(); /* a received slot held back: no fence of this send's hands it back */
            return MPI_SUCCESS;
        }
        /* eager: complete once queued (no wait, so the watchdog need not hear of it) */
        gp_msg *m = gp_send_start(buf, count, datatype, dest, tag, GP_WORLD_CTX, GP_SEND_STANDARD | GP_SEND_LANDING_TRIED);
        if (m) gp_send_wait_told(m, dest, tag); /* above GP_EAGER_BYTES: the receiver copies, the watchdog hears */
        return MPI_SUCCESS;
    }
#endif
    return gp_send_call(buf, count, datatype, dest, tag, comm);
}

/* A receive of a basic type from one world rank, with
 * nothing queued from it and nothing else to do (no receive posted, no
 * nonblocking collective): publishes its landing and polls it. A message
 * that lands is taken here; anything else (an envelope came, the wait
 * lasts long enough that the watchdog should hear of it, or the landing
 * could not be published) goes on in the library, which knows the
 * landing is up (gp_recv_landing) or starts afresh (gp_recv_call). A word
 * that lands holds no more than the buffer; a message through the pad
 * may be larger (the sender copied what fits): the truncation error. */
GPUMPI_FN static __forceinline__ int gp_recv_inline(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                                    MPI_Comm comm, MPI_Status *status)
{
#if GP_HAVE_LANDING
    int size = gp_basic_type_size(datatype);
    size_t cap = (size_t)(unsigned)count * (size_t)size;
    if (comm == MPI_COMM_WORLD && gp_flag(GP_RF_INIT) && size && count >= 0 &&
        (unsigned)source < (unsigned)gp_hot.nranks && tag >= 0 && !gp_hot.stats &&
        !gp_flag(GP_RF_POSTED | GP_RF_COLL | GP_RF_FREE_LATER) && !gp_self()->uq_head[gp_uq_bucket(source)]) {
        gp_inbox *ib = &gp_hot.inbox[gp_thread_rank()];
        void *pad = gp_land_pad_for(buf, cap); /* more than a word, with no pad, lands only in a word: a short message */
        gp_inbox token = gp_land_token(source, tag, GP_WORLD_CTX, pad, cap), none = {0, 0};
        if (!gp_land_publish(ib, token, pad, cap)) /* something came: the library drains it at once */
            return gp_recv_call(buf, count, datatype, source, tag, comm, status, 1);
        unsigned spins = 0;
        uint64_t seen;
        while ((seen = gp_inbox_head(ib)) == token.head) {
            if (spins == GP_BLOCK_SPINS) return gp_recv_landing(buf, count, datatype, source, tag, status, none);
            gp_pause(&spins);
        }
        if ((seen & 3) != GP_INBOX_LANDED) return gp_recv_landing(buf, count, datatype, source, tag, status, none);
        gp_inbox got = gp_land_take(ib, seen);
        if ((got.head & 3) != GP_INBOX_LANDED) /* an envelope pushed onto it since the look */
            return gp_recv_landing(buf, count, datatype, source, tag, status, got);
        int got_src, got_tag;
        size_t got_bytes;
        gp_land_deliver(got, buf, &got_src, &got_tag, &got_bytes);
        if (got_bytes > cap)
            return gp_recv_end(MPI_COMM_WORLD, status, got_src, got_tag, got_bytes, MPI_ERR_TRUNCATE, count, datatype);
        gp_set_status(status, got_src, got_tag, got_bytes);
        return MPI_SUCCESS;
    }
#endif
    return gp_recv_call(buf, count, datatype, source, tag, comm, status, 0);
}

#endif
