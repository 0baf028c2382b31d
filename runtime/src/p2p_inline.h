/* MPI_Send and MPI_Recv of up to 8 bytes between world ranks: the paths
 * that take a landing (landing.h), inline, so that a program compiled
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

/* A message of up to 8 bytes to a world rank tries the landing with no
 * call on the way (a function that keeps values across a call saves and
 * restores registers, a few hundred cycles: MPI_Comm_rank took 0.32 us a
 * call for that alone), and goes straight to gp_send_start if it did not
 * land. Everything else goes to gp_send_call. */
GPUMPI_FN static __forceinline__ int gp_send_inline(const void *buf, int count, MPI_Datatype datatype, int dest,
                                                    int tag, MPI_Comm comm)
{
#if GP_HAVE_LANDING
    int size = gp_basic_type_size(datatype);
    if (comm == MPI_COMM_WORLD && gp_flag(GP_RF_INIT) && size && (unsigned)count <= GP_LAND_BYTES / (unsigned)size &&
        (unsigned)dest < (unsigned)gp_hot.nranks && dest != gp_thread_rank() && tag >= 0 && !gp_hot.stats &&
        !gp_flag(GP_RF_FREE_LATER)) {
        size_t bytes = (size_t)count * (size_t)size;
        if (gp_land_send(dest, tag, GP_WORLD_CTX, gp_land_bytes(buf, bytes), bytes))
            return MPI_SUCCESS;
        /* eager: complete once queued (no wait, so the watchdog need not hear of it) */
        gp_msg *m = gp_send_start(buf, count, datatype, dest, tag, GP_WORLD_CTX, GP_SEND_STANDARD | GP_SEND_LANDING_TRIED);
        if (m) gp_send_wait(m);
        return MPI_SUCCESS;
    }
#endif
    return gp_send_call(buf, count, datatype, dest, tag, comm);
}

/* A receive of up to 8 bytes of a basic type from one world rank, with
 * nothing queued from it and nothing else to do (no receive posted, no
 * nonblocking collective): publishes its landing and polls it. A message
 * that lands is taken here; anything else (an envelope came, the wait
 * lasts long enough that the watchdog should hear of it, or the landing
 * could not be published) goes on in the library, which knows the
 * landing is up (gp_recv_landing) or starts afresh (gp_recv_call). The
 * landing holds no more than the buffer, so nothing is truncated here. */
GPUMPI_FN static __forceinline__ int gp_recv_inline(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                                    MPI_Comm comm, MPI_Status *status)
{
#if GP_HAVE_LANDING
    int size = gp_basic_type_size(datatype);
    if (comm == MPI_COMM_WORLD && gp_flag(GP_RF_INIT) && size && (unsigned)count <= GP_LAND_BYTES / (unsigned)size &&
        (unsigned)source < (unsigned)gp_hot.nranks && tag >= 0 && !gp_hot.stats &&
        !gp_flag(GP_RF_POSTED | GP_RF_COLL | GP_RF_FREE_LATER) && !gp_self()->uq_head[gp_uq_bucket(source)]) {
        gp_inbox *ib = &gp_hot.inbox[gp_thread_rank()];
        gp_inbox token = gp_land_token(source, tag, GP_WORLD_CTX, (size_t)count * (size_t)size), none = {0, 0};
        if (!gp_land_publish(ib, token)) /* something came: the library drains it at once */
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
        gp_set_status(status, got_src, got_tag, got_bytes);
        return MPI_SUCCESS;
    }
#endif
    return gp_recv_call(buf, count, datatype, source, tag, comm, status, 0);
}

#endif
