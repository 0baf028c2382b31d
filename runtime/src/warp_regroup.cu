/* Bringing a warp's ranks back in step after blocking MPI calls.
 *
 * A warp's 32 ranks come apart in MPI's waits (each leaves when its own
 * messages are there), and nothing in the program brings them back: a
 * loop of calls has no divergent branch of its own, so the compiler marks
 * no point to reconverge at, and each rank then runs the program's code
 * alone, a 32nd of the warp's width, until the kernel ends. (heat, 32,768
 * ranks, H200: 5 to 7 of a warp's 32 lanes ran together; a __syncwarp
 * after the halo exchange and after the sweep made the run 2.6x faster.)
 *
 * A __syncwarp after every call would deadlock: a lane may be waiting for
 * a message that a lane stopped at the __syncwarp would send only after
 * it. So a lane that ends a blocking call waits, for a bounded time, for
 * the warp's other live lanes to end the same numbered call (rounds: a
 * lane ahead opens a later one, a lane behind passes on); once all of
 * them are there (decided in one compare-and-swap, so no lane can leave
 * after), they pass a __syncwarp together. It does not wait:
 *  - for a lane that waits, directly or through other lanes still to
 *    come, for a message from one already here that sent it none since
 *    its last blocking call (a pipeline): the blocking calls say whom they
 *    wait for (gp_regroup_wants), the sends to whom in the warp they went
 *    (gp_regroup_sent);
 *  - longer than 4 times its own call took or twice its own work between
 *    calls lately (whichever is longer), within --regroup: then, if
 *    most of the warp is there and the others are elsewhere (far ahead
 *    in calls, and not waiting for a message), those lanes go on in step
 *    without them, and the others are marked away (not waited for) until
 *    they come in time for others; if not, they leave apart;
 *  - for lanes skipping regroups: a lane that left apart skips the next
 *    3, then 15, 63, ... (a pipeline, or a warp whose ranks do different
 *    things, stops trying). */
#include "runtime.h"
#include "gpumpi/launch.h"

#if defined(GPUMPI_CUDA)
/* Per warp of the block, one word: the round (the count of blocking calls
 * its lanes regroup after), whether it is decided, and the lanes in it.
 * live: the warp's lanes whose rank has not returned. */
#define GP_RG_LANES(x) ((unsigned)(x))
#define GP_RG_DECIDED (1ull << 63)
#define GP_RG_ROUND(x) ((unsigned)((x) >> 32) & 0x7fffffffu)
/* A lane this many blocking calls ahead of a round is doing something
 * else (a master serving its warp-mates), not running late. */
#define GP_RG_FAR_AHEAD 64u
#define GP_RG_WORD(round, lanes) ((unsigned long long)((round) & 0x7fffffffu) << 32 | (lanes))
typedef struct {
    unsigned long long word[32];
    unsigned live[32];
    unsigned away[32]; /* lanes skipping regroups for now: nobody waits for them */
} gp_regroup_block;
static __shared__ gp_regroup_block gp_rg;

GPUMPI_FN void gp_regroup_block_init(int nranks)
{
    int t = gp_block_thread();
    if (t < 32) {
        gp_rg.word[t] = 0;
        gp_rg.away[t] = 0;
        long long first = (long long)gp_block_index() * gp_block_width() + 32LL * t;
        long long n = (long long)nranks - first;
        int in_block = gp_block_width() - 32 * t;
        if (n > in_block) n = in_block;
        gp_rg.live[t] = n <= 0 ? 0u : n >= 32 ? ~0u : (1u << n) - 1u;
    }
}

GPUMPI_FN void gp_regroup_rank_exit(void)
{
    atomicAnd(&gp_rg.live[threadIdx.x >> 5], ~(1u << (threadIdx.x & 31)));
}

/* Joins round `round` (opening it, or replacing a round the lanes behind
 * can no longer reach); 0 when the warp's lanes are in a later round
 * already, so this one is behind and should hurry on. */
GPUMPI_FN static int gp_regroup_join(unsigned long long *word, unsigned round, unsigned bit)
{
    for (;;) {
        unsigned long long cur = *(volatile unsigned long long *)word;
        if (cur & GP_RG_DECIDED) { /* lanes leaving a round together: it is reset at once */
            __nanosleep(32);
            continue;
        }
        unsigned lanes = GP_RG_LANES(cur), ahead = (round - GP_RG_ROUND(cur)) & 0x7fffffffu;
        unsigned long long want;
        if (lanes && !ahead)
            want = cur | bit;
        else if (!lanes || ahead < 0x40000000u)
            want = GP_RG_WORD(round, bit);
        else
            return 0;
        if (atomicCAS(word, cur, want) == cur) return 1;
    }
}

/* The rank waits for its warp again after skipping some regroups. */
GPUMPI_FN void gp_regroup_back(void)
{
    atomicAnd(&gp_rg.away[threadIdx.x >> 5], ~(1u << (threadIdx.x & 31)));
}

GPUMPI_FN __noinline__ void gp_warp_regroup_slow(void)
{
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5, bit = 1u << lane;
    gp_rank_chip *c = gp_chip();
    unsigned round = c->regroup_calls;
    volatile unsigned *vlive = &gp_rg.live[w], *vaway = &gp_rg.away[w];
    unsigned need = (*vlive & ~*vaway) | bit; /* the lanes to wait for: not those skipping */
    if ((__activemask() & need) == need) return; /* in step with them already */
    unsigned long long *word = &gp_rg.word[w];
    if (*vaway & bit) {
        /* the others went on without this lane and do not wait for it:
         * it joins them only if they are waiting in its round now (else
         * it would wait for lanes gone ahead: heat at 4,096 ranks, a lane
         * once late lost a step at every regroup after, 0.25 -> 1.35 s) */
        unsigned long long cur = *(volatile unsigned long long *)word;
        if ((cur & GP_RG_DECIDED) || !GP_RG_LANES(cur) || GP_RG_ROUND(cur) != (round & 0x7fffffffu) ||
            atomicCAS(word, cur, cur | bit) != cur)
            return;
    } else if (!gp_regroup_join(word, round, bit)) {
        return;
    }
    gp_rank_stats *st = gp_my_stats();
    uint64_t since = st ? gp_clock_ns() : 0;
    /* wait at most 4 times as long as the call took, within limits: a
     * wait worth making is of the order of the call's own (lanes that
     * waited long for messages ended far apart); lanes that can never
     * come (one waits for a message this lane sends only later) are not
     * waited for much longer than the call itself */
    long long t0 = clock64(), budget = 4LL * (uint32_t)((uint32_t)t0 - c->regroup_t0);
    /* ... or twice its longest recent work between calls, whichever is
     * longer: a call that found its messages there is short, while the
     * lanes still in theirs wait for a warp behind by up to a step's work;
     * and lanes once apart arrive a lane's work apart (each ran its share
     * alone). Budgets of the call alone never brought a warp back: heat's
     * sendrecv halo at 4,096 ranks lost every warp within 20 steps and ran
     * each rank's sweep alone, 3.9 s against 0.23 (H200, session 31) */
    long long work = 2LL << c->regroup_work;
    budget = budget > work ? budget : work;
    long long most = gp_hot.regroup_cycles, least = most / 400;
    budget = budget < least ? least : budget > most ? most : budget;
    unsigned seen = 0;
    for (;;) {
        unsigned long long cur = *(volatile unsigned long long *)word;
        if (GP_RG_ROUND(cur) != (round & 0x7fffffffu) || !(GP_RG_LANES(cur) & bit)) {
            if (st) st->regroup_ns += gp_clock_ns() - since;
            return; /* a lane ahead opened a later round: meet there */
        }
        unsigned lanes = GP_RG_LANES(cur);
        if (lanes & ~seen) { /* lanes still coming: the wait is worth it */
            seen |= lanes;
            t0 = clock64();
        }
        if (cur & GP_RG_DECIDED) {
            __syncwarp(lanes);
            if ((int)lane == __ffs(lanes) - 1) {
                *word = 0;
                /* lanes marked away that came in time for others are
                 * waited for again (a lane alone here came for nobody) */
                if ((lanes & (lanes - 1)) && (*vaway & lanes)) atomicAnd(&gp_rg.away[w], ~lanes);
            }
            __syncwarp(lanes);
            if (c->regroup_fails) c->regroup_fails--;
            if (st) {
                st->regroups++;
                st->regroup_ns += gp_clock_ns() - since;
            }
            return;
        }
        unsigned live = *vlive & ~*vaway;
        if ((lanes & live) == live) { /* all here: nobody may leave now */
            atomicCAS(word, cur, cur | GP_RG_DECIDED);
            continue;
        }
        /* a lane still to come that waits for a message from one of those
         * here that has sent it none since its last blocking call will
         * not come until they go on (a pipeline: each rank waits for the
         * one before it) */
        unsigned stuck = 0, first = (unsigned)gp_thread_rank() - lane; /* the warp's lane 0 */
        for (unsigned missing = live & ~lanes; missing && !stuck; missing &= missing - 1) {
            /* follow whom it waits for, through lanes still to come */
            unsigned x = (unsigned)__ffs(missing) - 1;
            for (int hops = 0; hops < 32; hops++) {
                unsigned at = (unsigned)*(volatile int32_t *)&(c - lane + x)->regroup_wants - first;
                if (at >= 32 || !(live >> at & 1)) break; /* outside the warp, or nobody in particular */
                if (lanes >> at & 1) {
                    stuck = !(*(volatile uint32_t *)&(c - lane + at)->regroup_sent >> x & 1);
                    break;
                }
                x = at;
            }
        }
        int late = !stuck && clock64() - t0 > budget;
        unsigned coming = 0; /* lanes to come that are not far ahead in calls, or wait for a message */
        if (late)
            for (unsigned missing = live & ~lanes; missing; missing &= missing - 1) {
                const gp_rank_chip *x = c - lane + (__ffs(missing) - 1);
                if ((int32_t)(*(volatile uint32_t *)&x->regroup_calls - round) < (int32_t)GP_RG_FAR_AHEAD ||
                    *(volatile int32_t *)&x->regroup_wants >= 0)
                    coming = 1;
            }
        if (late && !coming && __popc(lanes) > __popc(live & ~lanes)) {
            /* most of the warp is here and the lanes still to come are
             * elsewhere in the program (a task farm's master among its
             * workers, thousands of calls ahead): those here go on in step
             * without them, and nobody waits for them again until they
             * come in time for others. Left apart, the workers ran as 31
             * paths beside the master's, which got a 32nd of its warp's
             * turns: taskfarm, 4,096 ranks, 4.2 s against 0.79 s with
             * the master's warp idle (H200). Lanes merely late (a halo
             * exchange's wait, a round or two behind or ahead) are
             * waited for again after the skips below: leaving them out
             * split heat's warps further and further, 4,096 ranks 0.25
             * -> 1.1-3.7 s in some runs. */
            atomicOr(&gp_rg.away[w], live & ~lanes);
            if (st) st->regroup_misses++;
            continue;
        }
        if (stuck || late) { /* the few here leave, and skip some regroups */
            if (atomicCAS(word, cur, cur & ~(unsigned long long)bit) != cur) continue;
            if (c->regroup_fails < 7) c->regroup_fails++;
            c->regroup_skip = (uint16_t)((1u << (2 * c->regroup_fails)) - 1);
            if (c->regroup_skip) atomicOr(&gp_rg.away[w], bit);
            if (st) {
                if (stuck) st->regroup_cut++;
                else st->regroup_misses++;
                st->regroup_ns += gp_clock_ns() - since;
            }
            return;
        }
        __nanosleep(128);
    }
}
#else
void gp_regroup_block_init(int nranks) { (void)nranks; }
void gp_regroup_rank_exit(void) {}
void gp_warp_regroup_slow(void) {}
void gp_regroup_back(void) {}
#endif
