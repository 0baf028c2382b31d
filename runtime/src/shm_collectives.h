/* The world's barrier and one-word allreduce (shm_collectives.cu): the
 * block state and the path every rank takes, inline, so that a program
 * compiled with this header takes them without a call (inline_calls.h);
 * the rare paths are out of line in shm_collectives.cu. */
#ifndef GPUMPI_SHM_COLLECTIVES_H
#define GPUMPI_SHM_COLLECTIVES_H

#include "runtime.h"
#include "reduce_inline.h"
#include "coll.h"

#define GP_WORDS (GP_TREE_BYTES / 8)

/* One block's state, in on-chip memory. Generations count the collectives
 * this block has finished; a waiter watches for gen + 1. */
typedef struct gp_block_tree {
    /* gp_gate_wait: both open once per collective, so phase = generation */
    uint64_t arrived_gate;           /* opens once every rank of the block is in */
    uint64_t release_gate;           /* opens when `release` moves on */
    uint32_t count;                  /* ranks of this block inside the current collective */
    uint32_t parts;                  /* warps that have left their partial value */
    uint32_t warp_in[32];            /* one-word allreduce: lanes of each warp in, when they came apart */
    uint32_t word_gen;               /* one-word allreduces finished (they tag the tree's words) */
    uint32_t release;                /* generation: the collective is complete */
    uint64_t part[32][GP_WORDS];     /* each warp's combined value */
    uint64_t result[GP_WORDS];
} gp_block_tree;

extern GPUMPI_BLOCK_VAR gp_block_tree gp_blk; /* shm_collectives.cu */

/* The ranks of the calling thread's block: a prefix of it, as the last
 * block may be partly empty. */
GPUMPI_FN static inline uint32_t gp_block_members(void)
{
    uint32_t width = (uint32_t)gp_block_width(), first = (uint32_t)gp_block_index() * width;
    uint32_t n = (uint32_t)gp_hot.nranks - first;
    return n < width ? n : width;
}

/* The warps of the calling thread's block that hold ranks. */
GPUMPI_FN static inline uint32_t gp_block_warps(void) { return (gp_block_members() + 31) / 32; }

/* The lanes of the calling thread's warp that are ranks (a prefix). */
GPUMPI_FN static inline int gp_warp_members(void)
{
    int n = (int)gp_block_members() - gp_block_thread() / 32 * 32;
    return n < 32 ? n : 32;
}

GPUMPI_FN static inline unsigned gp_lanes_mask(int n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1; }

/* Lanes of one warp working as a group: `mask` names them, `me` is this
 * thread's position, `size` how many there are (lanes 0..size-1 of the
 * mask's warp, or one thread alone). */
typedef struct gp_lanes {
    unsigned mask;
    int me, size, leader;
} gp_lanes;

GPUMPI_FN static inline gp_lanes gp_lanes_alone(void)
{
    gp_lanes g = {1u << gp_lane_id(), 0, 1, gp_lane_id()};
    return g;
}

/* What a combine does: count elements of basic type t in `words` 64-bit
 * words, with op. `known`: gp_reduce_known applies them, so a path that
 * knows it (a constant) has no call to reduce_ops.cu and keeps its values
 * in registers, not on the stack. */
typedef struct gp_combine_op {
    MPI_Op op;
    MPI_Datatype t;
    int words, count, known;
} gp_combine_op;

GPUMPI_FN static __forceinline__ void gp_combine_apply(gp_combine_op c, const void *in, void *inout)
{
    if (c.known)
        gp_reduce_known(c.op, c.t, in, inout, c.count);
    else
        gp_reduce_inline(c.op, c.t, in, inout, c.count);
}

/* The pairing every combine uses, for n <= 32 inputs at positions 0..n-1:
 * for off = 16, 8, 4, 2, 1, position j < off takes in position j + off.
 * This thread holds position g.me in v; lane 0 ends with the result. */
GPUMPI_FN static __forceinline__ void gp_pairwise_lanes(gp_lanes g, int n, uint64_t *v, gp_combine_op c)
{
    for (int off = 16; off >= 1; off >>= 1) {
        if (off >= n) continue;
        uint64_t in[GP_WORDS];
        for (int k = 0; k < c.words; k++) in[k] = gp_warp_down64(g.mask, v[k], off);
        if (g.me < off && g.me + off < n) gp_combine_apply(c, in, v);
    }
}

/* The same pairing done by one thread, in place on n values stride bytes apart. */
GPUMPI_FN static __forceinline__ void gp_pairwise_alone(char *vals, size_t stride, int n, gp_combine_op c)
{
    for (int off = 16; off >= 1; off >>= 1)
        for (int j = 0; j < off && j + off < n; j++)
            gp_combine_apply(c, vals + (size_t)(j + off) * stride, vals + (size_t)j * stride);
}

/* Waiting in a collective, keeping this rank's receives and nonblocking
 * collectives moving: a peer that has not arrived yet may be waiting in a
 * synchronous send for one of them, or in a wait for this rank's part of
 * a collective. The watchdog hears of the wait (as `fn` on
 * MPI_COMM_WORLD) only once it has lasted GP_BLOCK_SPINS pauses, unless
 * --stats times every call: telling it at every call (even with
 * gp_block_enter/leave inline) made a barrier 1.28 -> 1.40 us at 4 ranks
 * and 54 -> 213 us at 270,336 on an H100. At a gate a rank sleeps until
 * it opens, or for a while if it has something to keep moving; global
 * words (one waiter per block) are polled with sleeps of 32 ns: a few
 * hundred pollers cost L2 nothing, and sleeps of up to 256 ns cost every
 * level of the tree's way down (270,336 ranks on an H100: barrier 7.44 ->
 * 7.11 us, 8-byte allreduce 11.76 -> 11.24). */
typedef struct gp_coll_waiting {
    unsigned spins;
    int told, passive;
    const char *fn;
} gp_coll_waiting;

GPUMPI_FN static __forceinline__ gp_coll_waiting gp_coll_wait_begin(const char *fn)
{
    gp_coll_waiting w = {0, gp_hot.stats != 0, !gp_progress_wanted(), fn};
    gp_hand_back();
    if (w.told) gp_block_enter(fn, MPI_COMM_WORLD, GP_BLOCK_NONE, GP_BLOCK_NONE);
    return w;
}

/* After a look that found it not yet done; at a gate the look slept. */
GPUMPI_FN static __forceinline__ void gp_coll_wait_step(gp_coll_waiting *w, int at_gate)
{
    /* a rank with no receive posted and no nonblocking collective in
     * flight has nothing to keep moving */
    if (!w->passive) gp_progress();
    if (at_gate)
        w->spins++;
    else
        gp_pause_upto(&w->spins, 32);
    if (w->spins % GP_BLOCK_SPINS == 0) {
        if (!w->told) gp_block_enter(w->fn, MPI_COMM_WORLD, GP_BLOCK_NONE, GP_BLOCK_NONE);
        w->told = 1;
        gp_block_check(w->spins);
    }
}

GPUMPI_FN static __forceinline__ void gp_coll_wait_end(gp_coll_waiting *w)
{
    if (w->told) gp_block_leave();
}

/* Inputs of the node at `level` whose first input is `first`. */
GPUMPI_FN static inline uint32_t gp_tree_members(const gp_tree *tr, int level, uint32_t first)
{
    uint32_t left = tr->inputs[level] - first;
    return left < GP_TREE_FANIN ? left : GP_TREE_FANIN;
}

/* A reduction's operand for a tree, and its result back (shm_collectives.cu). */
GPUMPI_FN int gp_shm_operand(const void *in, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, uint64_t *v,
                             gp_combine_op *c);
GPUMPI_FN void gp_shm_result(const uint64_t *v, void *out, int count, MPI_Datatype t);

/* Out of line in shm_collectives.cu: the rare paths (a long wait, the
 * block's carrier, lanes that came in apart). */
GPUMPI_FN __noinline__ void gp_collective_wait(uint32_t *word, uint64_t *gate, uint32_t gen, const char *fn);
GPUMPI_FN __noinline__ void gp_shm_barrier_climb(uint32_t gen);
GPUMPI_FN __noinline__ uint64_t gp_allreduce_word_carry(uint64_t v, gp_combine_op c, uint32_t gen, gp_lanes g);
GPUMPI_FN __noinline__ uint64_t gp_allreduce_word_carry_known(uint64_t v, MPI_Datatype t, MPI_Op op, uint32_t gen,
                                                              gp_lanes g);
GPUMPI_FN __noinline__ uint64_t gp_allreduce_word_apart(uint64_t v, gp_combine_op c, uint32_t gen, unsigned here);

/* Whether a waiting rank may wait inline, without the out-of-line wait's
 * progress and watchdog calls: no --stats, and nothing to keep moving (no
 * receive posted, no nonblocking collective in flight, no received slot
 * held back). */
GPUMPI_FN static __forceinline__ int gp_wait_inline_ok(void)
{
    return !gp_hot.stats && !gp_flag(GP_RF_POSTED | GP_RF_COLL | GP_RF_FREE_LATER);
}

/* A wait at a gate, inline: a rank with nothing to keep moving and no
 * --stats sleeps at the gate a few times, and only if it is still shut
 * calls gp_collective_wait. At 2,048 ranks per SM every word of stack a
 * rank touches per call costs, and a call's register saves are such
 * words: measured with the barrier's structure alone
 * (bench/primitives/tree_barrier.cu, 270,336 threads, H100), 0 words
 * 11.2 us per barrier, 16 words 15.0, 32 words 22.8, 64 words 60.5. The
 * long sleep costs no latency: a sleeping rank wakes when the gate opens
 * (MPI_Barrier over 270,336 ranks: 31 us sleeping up to 20 us at a time,
 * 42 us up to 4 us, 46 us up to 1 us). */
GPUMPI_FN static __forceinline__ void gp_gate_pass(uint64_t *gate, uint32_t gen, const char *fn)
{
    if (gp_wait_inline_ok())
        for (int i = 0; i < 4; i++)
            if (gp_gate_wait(gate, gen & 1, 20000)) return;
    gp_collective_wait(0, gate, gen, fn);
}

/* MPI_Barrier lives here, not with the other barriers in
 * coll_barrier_bcast.cu: over the world its path is the on-chip one, in
 * one function whose only calls are the rare ones (the block's climber,
 * a long wait), so a rank's stack sees that function's register saves and
 * nothing more. Every collective here ends with every rank of the world
 * inside it, so the lanes of a warp can wait for each other on the way
 * out: what follows the call then runs converged, not lane by lane (at
 * full occupancy that is the difference between 1 and 32 ranks per
 * instruction). */
GPUMPI_FN static __forceinline__ int gp_barrier_inline(MPI_Comm comm)
{
    if (comm != MPI_COMM_WORLD || !gp_flag(GP_RF_INIT)) return gp_barrier_call(0, comm);
    uint32_t gen = gp_block_load_acquire(&gp_blk.release);
    if (gp_block_take_ticket(&gp_blk.count) == gp_block_members() - 1)
        gp_shm_barrier_climb(gen);
    else
        gp_gate_pass(&gp_blk.release_gate, gen, "MPI_Barrier");
    gp_warp_converge(gp_lanes_mask(gp_warp_members()));
    return MPI_SUCCESS;
}

/* Leaves the warp's part (in v of g's first lane); 1 if it was the
 * block's last, and the lanes of g are to carry the block up. */
GPUMPI_FN static __forceinline__ int gp_allreduce_leave_part(uint64_t v, gp_lanes g)
{
    uint32_t old = 0;
    if (g.me == 0) {
        gp_blk.part[gp_block_thread() / 32][0] = v;
        old = gp_block_fetch_add(&gp_blk.parts, 1);
    }
    old = (uint32_t)gp_warp_shfl64(g.mask, old, g.leader);
    return old == gp_block_warps() - 1;
}

GPUMPI_FN static __forceinline__ uint64_t gp_allreduce_word_carry_any(uint64_t v, gp_combine_op c, uint32_t gen,
                                                                      gp_lanes g)
{
    if (c.known && c.count == 1) return gp_allreduce_word_carry_known(v, c.t, c.op, gen, g);
    return gp_allreduce_word_carry(v, c, gen, g);
}

GPUMPI_FN static __forceinline__ uint64_t gp_shm_allreduce_word(uint64_t v, gp_combine_op c)
{
    uint32_t gen = gp_block_load_acquire(&gp_blk.release);
    int in_warp = gp_warp_members();
    unsigned here = gp_warp_here();
    if (here == gp_lanes_mask(in_warp)) {
        gp_lanes g = {here, gp_lane_id(), in_warp, 0};
        if (gp_warp_width() == 1) g = gp_lanes_alone();
        gp_pairwise_lanes(g, in_warp, &v, c);
        if (gp_allreduce_leave_part(v, g)) {
            v = gp_allreduce_word_carry_any(v, c, gen, g);
        } else {
            gp_gate_pass(&gp_blk.release_gate, gen, "MPI_Allreduce");
            v = gp_blk.result[0];
        }
    } else {
        v = gp_allreduce_word_apart(v, c, gen, here);
    }
    gp_warp_converge(gp_lanes_mask(in_warp));
    return v;
}

/* MPI_Allreduce lives here for the reason MPI_Barrier does: one element of
 * double, float, int or long with MAX, MIN, SUM or PROD over the world
 * (arguments that need no check) goes on-chip without a call; anything
 * else to gp_allreduce_call (coll_reduce.cu), which checks and may still
 * come to gp_shm_allreduce. */
GPUMPI_FN static __forceinline__ int gp_allreduce_inline(const void *sendbuf, void *recvbuf, int count,
                                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (comm != MPI_COMM_WORLD || count != 1 || !gp_reduce_is_known(op, datatype) || recvbuf == MPI_IN_PLACE ||
        sendbuf == recvbuf)
        return gp_allreduce_call(0, sendbuf, recvbuf, count, datatype, op, comm);
    if (!gp_flag(GP_RF_INIT)) return gp_check_world("MPI_Allreduce"); /* no pointers: inline_calls.h */
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    int wide = datatype == MPI_DOUBLE || datatype == MPI_LONG;
    uint64_t v = wide ? *(const uint64_t *)in : *(const uint32_t *)in;
    gp_combine_op c = {op, datatype, 1, 1, 1};
    v = gp_shm_allreduce_word(v, c);
    if (wide)
        *(uint64_t *)recvbuf = v;
    else
        *(uint32_t *)recvbuf = (uint32_t)v;
    return MPI_SUCCESS;
}

#endif
