/* Landing: a receive that has to wait, with nothing else to do meanwhile,
 * publishes what it waits for in its inbox word, and a sender of a small
 * message that matches puts the message there, bytes and all, with one
 * compare-and-swap: no slot, envelope, fence, drain or hand-back (the
 * 8-byte ping-pong's path). The landing replaces an empty inbox, and any
 * envelope pushed meanwhile withdraws it, so a message lands only when the
 * receiver has taken everything sent before it: MPI's non-overtaking rule.
 *
 * The inbox (gp_inbox) then holds, in head's low bits:
 *   GP_INBOX_LANDING: a waiting receive's key. head: capacity (0-8 bytes,
 *     or GP_LAND_PAD) << 2 | any source << 6 | any tag << 7 | source << 8 |
 *     tag << 32; word: its context.
 *   GP_INBOX_LANDED: a message. head: bytes (0-8, or GP_LAND_PAD) << 2 |
 *     source << 8 | tag << 32; word: the bytes (with GP_LAND_PAD: their
 *     count).
 * A receive into more than a word publishes a pad (gp_rank.land_buf,
 * land_cap) with its landing: a sender of up to GP_LAND_PAD_MOST bytes
 * that claims the landing copies the message into it and counts the
 * pad's land_done; the receiver waits for that count. The pad is the
 * receive's buffer when other ranks can write it, else the rank's bounce
 * buffer in the shared heap (private memory), which the receiver copies
 * from, as it would from an envelope. Only a sender on the receiver's GPU
 * (its launcher process): the buffer's address is the receiver's
 * process's. Sources are world ranks (24 bits). Inline (runtime.h
 * includes it after match.h): every small send looks. */
#ifndef GPUMPI_LANDING_H
#define GPUMPI_LANDING_H

#define GP_LAND_BYTES 8
#define GP_LAND_PAD 15          /* the size nibble of a landing with a pad, and of a message that came through one */
#define GP_LAND_PAD_MOST 4096u  /* the most bytes a sender copies into a pad: more go the usual way */

GPUMPI_FN static inline uint64_t gp_land_key(uint64_t kind, size_t bytes, int src_world, int tag)
{
    return kind | (uint64_t)bytes << 2 | ((uint64_t)(uint32_t)src_world & 0xffffffu) << 8 | (uint64_t)(uint32_t)tag << 32;
}

/* The bounce buffer, GP_LAND_PAD_MOST bytes of the shared heap, made at
 * the first receive into private memory that waits (landing.cu);
 * GP_LAND_NO_BOUNCE when the heap had none. */
#define GP_LAND_NO_BOUNCE ((void *)1)
GPUMPI_FN void *gp_land_make_bounce(void);

/* The pad a receive into dst (contiguous, cap bytes) waits with: dst when
 * other ranks can write it, else the bounce buffer; NULL for a word or
 * less (it lands in the inbox), or with no bounce buffer. */
GPUMPI_FN static inline void *gp_land_pad_for(void *dst, size_t cap)
{
    if (cap <= GP_LAND_BYTES) return 0;
    if (gp_is_shared_memory(dst)) return dst;
    void *b = gp_self()->land_bounce;
    if (!b) b = gp_land_make_bounce();
    return b == GP_LAND_NO_BOUNCE ? 0 : b;
}

/* Where the receive from (src_world, tag, ctx) into cap bytes, with the
 * pad gp_land_pad_for gave (or NULL), waits. */
GPUMPI_FN static inline gp_inbox gp_land_token(int src_world, int tag, int ctx, const void *pad, size_t cap)
{
    uint64_t any = (src_world == MPI_ANY_SOURCE ? 1u << 6 : 0) | (tag == MPI_ANY_TAG ? 1u << 7 : 0);
    size_t nibble = pad ? GP_LAND_PAD : cap < GP_LAND_BYTES ? cap : GP_LAND_BYTES;
    gp_inbox t = {gp_land_key(GP_INBOX_LANDING, nibble,
                              src_world == MPI_ANY_SOURCE ? 0 : src_world, tag == MPI_ANY_TAG ? 0 : tag) | any,
                  (uint64_t)(uint32_t)ctx};
    return t;
}

/* The first `bytes` (at most 8) bytes at p, as the low bytes of a word. */
GPUMPI_FN static inline uint64_t gp_land_bytes(const void *p, size_t bytes)
{
    if (bytes == 8 && ((uintptr_t)p & 7) == 0) return *(const uint64_t *)p;
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; i++) v |= (uint64_t)((const unsigned char *)p)[i] << (8 * i);
    return v;
}

/* The other way: the first `bytes` bytes of word into dst. */
GPUMPI_FN static inline void gp_land_put_bytes(void *dst, uint64_t word, size_t bytes)
{
    if (bytes == 8 && ((uintptr_t)dst & 7) == 0)
        *(uint64_t *)dst = word;
    else
        for (size_t i = 0; i < bytes; i++) ((unsigned char *)dst)[i] = (unsigned char)(word >> (8 * i));
}

/* Whether v, what an inbox was seen to hold, is a landing whose receive
 * takes a message from world rank me with this tag and context. */
GPUMPI_FN static inline int gp_land_wants(gp_inbox v, int me, int tag, int ctx)
{
    return (v.head & 3) == GP_INBOX_LANDING && v.word == (uint64_t)(uint32_t)ctx &&
           ((v.head & (1u << 6)) || ((v.head >> 8) & 0xffffffu) == (uint64_t)(uint32_t)me) &&
           ((v.head & (1u << 7)) || (uint32_t)(v.head >> 32) == (uint32_t)tag);
}

/* Lands `bytes` (at most GP_LAND_BYTES) bytes, `payload` (gp_land_bytes),
 * from this rank at dest_world if a receive that matches waits there (`v`:
 * what its inbox was seen to hold): 1 when it did (the send is complete),
 * 0 when the message has to go the usual way. A receive with a pad takes
 * the word all the same. */
GPUMPI_FN static inline int gp_land_try(int dest_world, int tag, int ctx, gp_inbox v, uint64_t payload,
                                        size_t bytes)
{
    int me = gp_thread_rank();
    if (!gp_land_wants(v, me, tag, ctx)) return 0;
    if (bytes > ((v.head >> 2) & 15)) return 0; /* the receive's buffer is smaller: it reports the truncation */
    gp_inbox landed = {gp_land_key(GP_INBOX_LANDED, bytes, me, tag), payload};
    gp_inbox was = gp_inbox_cas(gp_inbox_of(dest_world), v, landed);
    return was.head == v.head && was.word == v.word;
}

/* A send's look at the receiver's inbox: no look first, but a
 * compare-and-swap that expects the landing of a receive from this rank
 * with this tag into a buffer of this size (the usual one), which lands
 * the message in one trip to L2, not two. If the inbox held anything else
 * the swap returns it, and gp_land_try sees whether the receive there
 * takes the message all the same (any source, any tag, a larger buffer). */
GPUMPI_FN static inline int gp_land_send(int dest_world, int tag, int ctx, uint64_t payload, size_t bytes)
{
    int me = gp_thread_rank();
    gp_inbox guess = gp_land_token(me, tag, ctx, 0, bytes), landed = {gp_land_key(GP_INBOX_LANDED, bytes, me, tag), payload};
    gp_inbox was = gp_inbox_cas(gp_inbox_of(dest_world), guess, landed);
    if (was.head == guess.head && was.word == guess.word) return 1;
    return gp_land_try(dest_world, tag, ctx, was, payload, bytes);
}

/* The same for bytes GP_LAND_BYTES+1 .. GP_LAND_PAD_MOST at src, into a
 * landing with a pad (landing.cu: out of line, to keep what MPI_Send
 * inlines in a program small; inline, 64 bytes took 3.9 us a half round
 * trip against 4.1, session 28). 1 when it landed. */
GPUMPI_FN __noinline__ int gp_land_send_pad(int dest_world, int tag, int ctx, const void *src, size_t bytes);

/* The receiver's side of a message through its pad: waits for the
 * sender's count, copies from the bounce buffer if that was the pad;
 * the message's size (landing.cu). */
GPUMPI_FN __noinline__ size_t gp_land_pad_take(gp_inbox landed, void *dst);

/* The receive's side, in steps: publish what it waits for (0 when
 * something arrived since the lists were searched: look again), wait
 * while the inbox shows it, then take what came. A program's MPI_Recv
 * takes these steps inline (p2p_inline.h), the library's in gp_land_wait. */
GPUMPI_FN static __forceinline__ int gp_land_publish(gp_inbox *ib, gp_inbox token, void *pad, size_t cap)
{
    gp_inbox empty = {0, 0};
    gp_hand_back(); /* a sender may be waiting for the slot */
    if (pad) {
        gp_rank *r = gp_self();
        uint16_t c = (uint16_t)(cap < GP_LAND_PAD_MOST ? cap : GP_LAND_PAD_MOST); /* no sender copies more */
        if (r->land_buf != pad || r->land_cap != c) { /* the same pad as last time is published already */
            r->land_buf = pad;
            r->land_cap = c;
            gp_fence_release(); /* the pad before the landing: its sender reads it */
        }
    }
    return !gp_inbox_cas(ib, empty, token).head;
}

/* What replaced the landing (seen: the inbox's head after it), taken. A
 * message that landed is all in the word: taken without an acquire, which
 * would empty L1 (the rank's state read after it would cost a trip to L2
 * each). Envelopes are taken with one (an acquire exchange costs less than
 * a relaxed one and a fence after it). */
GPUMPI_FN static __forceinline__ gp_inbox gp_land_take(gp_inbox *ib, uint64_t seen)
{
    return (seen & 3) != GP_INBOX_LANDED ? gp_inbox_take_acquire(ib) : gp_inbox_exchange(ib, 0, 0);
}

/* The message that landed (`landed`, GP_INBOX_LANDED) into dst; its
 * source, tag and size out. One in the word (0-8 bytes) fits dst; one
 * through the pad (gp_land_pad_take) may be larger, the caller's
 * truncation to report. */
GPUMPI_FN static __forceinline__ void gp_land_deliver(gp_inbox landed, void *dst, int *got_src, int *got_tag,
                                                      size_t *got_bytes)
{
    size_t bytes = (landed.head >> 2) & 15;
    if (bytes == GP_LAND_PAD)
        bytes = gp_land_pad_take(landed, dst);
    else
        gp_land_put_bytes(dst, landed.word, bytes);
    *got_src = (int)((landed.head >> 8) & 0xffffffu);
    *got_tag = (int)(uint32_t)(landed.head >> 32);
    *got_bytes = bytes;
}

/* After the take (got; seen: the head the wait saw): 1 when a message
 * landed (delivered as gp_land_deliver says); 2 when an envelope that
 * matches came instead (*matched: deliver it); 0 when something else
 * arrived first or meanwhile (it is on the lists now: look again). */
GPUMPI_FN static __forceinline__ int gp_land_finish(gp_inbox got, uint64_t seen, int src_world, int tag, int ctx,
                                                    void *dst, int *got_src, int *got_tag, size_t *got_bytes,
                                                    gp_msg **matched)
{
    gp_rank *r = gp_self();
    gp_block_progress();
    uint32_t seq = r->arrived;
    gp_inbox landed = {0, 0};
    if ((got.head & 3) == GP_INBOX_LANDED) {
        landed = got;
    } else { /* envelopes pushed onto the landing, one perhaps onto a message that had landed */
        if ((seen & 3) == GP_INBOX_LANDED) gp_fence_acquire(); /* pushed since the look */
        gp_msg *none_head = 0, *none_tail = 0;
        gp_want want = {src_world, tag, ctx};
        gp_drain_chain(r, -1, none_head, none_tail, (gp_msg *)(uintptr_t)got.head, seq, &want, &landed, matched);
        if (!landed.head) return *matched ? 2 : 0;
    }
    gp_land_deliver(landed, dst, got_src, got_tag, got_bytes);
    gp_count_recvd(*got_bytes);
    return 1;
}

/* The library's wait at a landing that is up (token: its head), and the
 * take: what came, and in *seen the head the wait saw. */
GPUMPI_FN static __forceinline__ gp_inbox gp_land_await(gp_inbox *ib, uint64_t token, unsigned *spins, uint64_t *seen)
{
    while ((*seen = gp_inbox_head(ib)) == token) gp_block_wait(spins);
    return gp_land_take(ib, *seen);
}

/* The steps above, for the library's receives: publish, wait, take,
 * finish (1, 2 or 0 as gp_land_finish says; 0 also when the landing
 * could not be published). Inline in the receive: as a call, its frame's
 * saves and restores were on the message's path. */
GPUMPI_FN static __forceinline__ int gp_land_wait(int src_world, int tag, int ctx, void *dst, size_t cap, int *got_src, int *got_tag,
                                                  size_t *got_bytes, gp_msg **matched, unsigned *spins)
{
    gp_inbox *ib = &gp_hot.inbox[gp_thread_rank()];
    void *pad = gp_land_pad_for(dst, cap);
    gp_inbox token = gp_land_token(src_world, tag, ctx, pad, cap);
    if (!gp_land_publish(ib, token, pad, cap)) return 0;
    uint64_t seen;
    gp_inbox got = gp_land_await(ib, token.head, spins, &seen);
    return gp_land_finish(got, seen, src_world, tag, ctx, dst, got_src, got_tag, got_bytes, matched);
}

#endif
