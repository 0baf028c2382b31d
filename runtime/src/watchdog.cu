/* The device half of the deadlock watchdog and of --stats. A blocking MPI
 * call says what it waits for (gp_block_enter: plain stores to the rank's
 * own state). Only when the wait has gone on for a while (1 ms) does the
 * rank copy
 * that into its record in host-visible memory, and only then does leaving
 * cost a store there: quick waits never touch it. The launcher reads the
 * records (launcher/watchdog.c). */
#include "runtime.h"

#define GP_BLOCK_PUBLISH_NS 1000000ull /* 1 ms */

GPUMPI_FN static void gp_block_copy_fn(gp_block_rec *rec, const char *fn)
{
    int i = 0;
    for (; fn[i] && i < (int)sizeof rec->fn - 1; i++) rec->fn[i] = fn[i];
    rec->fn[i] = 0;
}

/* A rank with nonblocking collectives in flight is described by the oldest
 * one's round (it is what a deadlock is usually about), refreshed while
 * the wait lasts since rounds move on. */
GPUMPI_FN static int gp_block_describe_coll(gp_rank *me, gp_block_rec *rec)
{
    MPI_Comm comm;
    int peer;
    const char *fn = me->block_fn ? me->block_fn : "an MPI call";
    uint64_t before = me->block_shown;
    if (!gp_coll_describe_wait(fn, &me->block_shown, rec->fn, sizeof rec->fn, &comm, &peer)) return 0;
    if (me->block_shown != before) {
        rec->comm = comm;
        rec->peer = peer;
        rec->tag = GP_BLOCK_NONE;
    }
    return 1;
}

GPUMPI_FN static void gp_block_publish(gp_rank *me)
{
    gp_block_rec *rec = &gp_w()->block_recs[gp_thread_rank()];
    int published = gp_flag(GP_RF_PUBLISHED);
    if (!published) me->block_shown = 0; /* a new wait: the record is written afresh */
    int coll = me->coll_head && gp_block_describe_coll(me, rec);
    if (published) {
        rec->progress++; /* waited long again after a change: something moved */
        return;
    }
    if (!coll) {
        gp_block_copy_fn(rec, me->block_fn ? me->block_fn : "an MPI call");
        rec->comm = me->block_comm;
        rec->peer = me->block_fn ? me->block_peer : GP_BLOCK_NONE;
        rec->tag = me->block_fn ? me->block_tag : GP_BLOCK_NONE;
    }
    rec->progress++;
    gp_fence();
    gp_sys_store_release64((uint64_t *)&rec->state, ((uint64_t)rec->progress << 32) | GP_REC_BLOCKED);
    gp_flag_set(GP_RF_PUBLISHED, 1);
}

/* Published once the wait has lasted GP_BLOCK_PUBLISH_NS, whatever the
 * pauses (a collective's waits sleep only 256 ns: counting pauses alone,
 * 270,000 ranks in a slow barrier would all write to host memory).
 * gp_block_wait_upto (runtime.h) calls this every GP_BLOCK_SPINS pauses. */
GPUMPI_FN void gp_block_check(unsigned spins)
{
    if (!gp_w()->block_recs) return;
    gp_rank *me = gp_self();
    if (gp_flag(GP_RF_PUBLISHED)) {
        if (spins == GP_BLOCK_SPINS)
            gp_block_publish(me);
        else if (me->coll_head)
            gp_block_describe_coll(me, &gp_w()->block_recs[gp_thread_rank()]); /* rounds move on */
        return;
    }
    uint64_t now = gp_clock_ns();
    if (!me->block_t0)
        me->block_t0 = now; /* a wait that began 256 pauses ago */
    else if (now - me->block_t0 >= GP_BLOCK_PUBLISH_NS)
        gp_block_publish(me);
}

GPUMPI_FN void gp_block_progress_now(void) { gp_w()->block_recs[gp_thread_rank()].progress++; }

GPUMPI_FN void gp_block_unpublish(gp_rank *me)
{
    gp_block_rec *rec = &gp_w()->block_recs[gp_thread_rank()];
    rec->progress++;
    gp_sys_store_release64((uint64_t *)&rec->state, ((uint64_t)rec->progress << 32) | GP_REC_RUNNING);
    gp_flag_set(GP_RF_PUBLISHED, 0);
}
