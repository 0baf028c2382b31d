/* The receive's and the displacing sender's sides of a landing (landing.h). */
#include "runtime.h"

GPUMPI_FN void gp_enqueue_on_landing(gp_msg *m, gp_inbox older)
{
    if ((older.head & 3) == GP_INBOX_LANDED) { /* keep the message that landed, older than m */
        m->landed = older;
        gp_fence_release();
        gp_store_relaxed64((uint64_t *)&m->next, GP_MSG_LANDED);
    } else { /* the receive's key: it wakes to find m first */
        gp_store_relaxed64((uint64_t *)&m->next, 0);
    }
}

GPUMPI_FN int gp_land_wait(int src_world, int tag, int ctx, void *dst, size_t cap, int *got_src, int *got_tag,
                           size_t *got_bytes, gp_msg **matched, unsigned *spins)
{
    gp_rank *r = gp_self();
    gp_inbox *ib = &gp_hot.inbox[gp_thread_rank()];
    gp_inbox token = gp_land_token(src_world, tag, ctx, cap), empty = {0, 0};
    gp_hand_back(); /* a sender may be waiting for the slot */
    if (gp_inbox_cas(ib, empty, token).head) return 0; /* something arrived since the lists were searched */
    uint64_t seen;
    while ((seen = gp_inbox_head(ib)) == token.head) gp_block_wait(spins);
    gp_block_progress();
    uint32_t seq = r->arrived;
    /* A message that landed is all in the word: taken without an acquire,
     * which would empty L1 (the rank's state read after it would cost a
     * trip to L2 each). Envelopes are taken with one (an acquire exchange
     * costs less than a relaxed one and a fence after it). */
    int envelopes = (seen & 3) != GP_INBOX_LANDED;
    gp_inbox got = envelopes ? gp_inbox_take_acquire(ib) : gp_inbox_exchange(ib, 0, 0), landed = empty;
    if ((got.head & 3) == GP_INBOX_LANDED) {
        landed = got;
    } else { /* envelopes pushed onto the landing, one perhaps onto a message that had landed */
        if (!envelopes) gp_fence_acquire(); /* pushed since the look */
        gp_msg *none_head = 0, *none_tail = 0;
        gp_want want = {src_world, tag, ctx};
        gp_drain_chain(r, -1, none_head, none_tail, (gp_msg *)(uintptr_t)got.head, seq, &want, &landed, matched);
        if (!landed.head) return *matched ? 2 : 0;
    }
    size_t bytes = (landed.head >> 2) & 15;
    if (bytes == 8 && ((uintptr_t)dst & 7) == 0)
        *(uint64_t *)dst = landed.word;
    else
        for (size_t i = 0; i < bytes; i++) ((unsigned char *)dst)[i] = (unsigned char)(landed.word >> (8 * i));
    *got_src = (int)((landed.head >> 8) & 0xffffffu);
    *got_tag = (int)(uint32_t)(landed.head >> 32);
    *got_bytes = bytes;
    gp_rank_stats *st = gp_my_stats();
    if (st) {
        st->recvd++;
        st->bytes_recvd += bytes;
    }
    return 1;
}
