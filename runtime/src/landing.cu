/* The displacing sender's side of a landing, and the bounce buffer
 * (landing.h). */
#include "runtime.h"
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN __noinline__ void *gp_land_make_bounce(void)
{
    void *b = gp_malloc_quiet(GP_LAND_PAD_MOST); /* none: no pad for this rank, and no word to the user */
    return gp_self()->land_bounce = b ? b : GP_LAND_NO_BOUNCE;
}

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

/* A send of GP_LAND_BYTES+1 .. GP_LAND_PAD_MOST bytes at src: a
 * compare-and-swap that expects the landing, with a pad, of a receive from
 * this rank with this tag claims it (else one that takes the message all
 * the same, any source or tag, is claimed with a second). The claim
 * leaves the message's size in the inbox; the copy goes into the pad's
 * buffer, at most its capacity (the receiver reports a truncation), and
 * the pad's count releases it. 1 when it landed. */
GPUMPI_FN __noinline__ int gp_land_send_pad(int dest_world, int tag, int ctx, const void *src, size_t bytes)
{
    if (gp_hot.proc_stride && dest_world / gp_hot.proc_ranks != gp_hot.proc) return 0; /* its buffer is another process's */
    int me = gp_thread_rank();
    gp_inbox *ib = gp_inbox_of(dest_world);
    gp_inbox guess = {gp_land_key(GP_INBOX_LANDING, GP_LAND_PAD, me, tag), (uint64_t)(uint32_t)ctx},
             landed = {gp_land_key(GP_INBOX_LANDED, GP_LAND_PAD, me, tag), (uint64_t)bytes};
    gp_inbox was = gp_inbox_cas(ib, guess, landed);
    if (was.head != guess.head || was.word != guess.word) {
        if (!gp_land_wants(was, me, tag, ctx) || ((was.head >> 2) & 15) != GP_LAND_PAD) return 0;
        gp_inbox again = gp_inbox_cas(ib, was, landed);
        if (again.head != was.head || again.word != was.word) return 0;
    }
    gp_fence_acquire(); /* the pad, written before the landing was published */
    gp_rank *r = gp_rank_of(dest_world);
    size_t cap = r->land_cap;
    gp_copy(r->land_buf, src, bytes < cap ? bytes : cap);
    gp_fetch_add(&r->land_done, 1); /* acquire-release: the copy before it */
    return 1;
}

GPUMPI_FN __noinline__ size_t gp_land_pad_take(gp_inbox landed, void *dst)
{
    gp_rank *r = gp_self();
    uint16_t want = ++r->land_seen;
    const void *pad = r->land_buf; /* read before the acquire, which empties L1 */
    size_t cap = r->land_cap, bytes = (size_t)landed.word;
    unsigned spins = 0;
    while ((uint16_t)gp_load_acquire(&r->land_done) != want) gp_pause(&spins);
    if (pad != dst) gp_copy(dst, pad, bytes < cap ? bytes : cap);
    return bytes;
}
