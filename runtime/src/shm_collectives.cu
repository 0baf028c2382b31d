/* Barrier and small allreduce over MPI_COMM_WORLD (and communicators that
 * span it in world order) through shared memory, not messages: every rank
 * is a thread of one GPU.
 *
 * Two stages. Inside a block, ranks count in with one on-chip atomic per
 * group of lanes that arrive together, and values are combined by warp
 * shuffles. Across blocks, one representative per block climbs a combining
 * tree of arrival counters in global memory (fan-in 32: 8,448 blocks are
 * three levels); the last arriver at a node carries it up, the others wait
 * on the root's release word, which the top's carrier sets: one step down
 * for every block, not one a level (270,336 ranks on an H200: barrier 8.2
 * -> 5.95 us; 32,768: 6.3 -> 5.0 us). So global memory sees a few atomics
 * and polls per block, not per rank. A value of one word takes its own way
 * through both stages (gp_shm_allreduce_word, shm_collectives.h, inline in
 * programs): no count before the shuffles, and in the tree no counts at
 * all: each node's first input polls the others' words
 * (gp_tree_climb_word).
 *
 * Sums are reproducible: every combining step, whatever the timing, pairs
 * its inputs the same way (gp_pairwise_lanes, shm_collectives.h), inside
 * warps, across the warps of a block and at every tree node. */
#include "shm_collectives.h"
#include "gpumpi/launch.h"
#include "gpumpi/shim_string.h"

GPUMPI_BLOCK_VAR gp_block_tree gp_blk;

/* Shared memory starts undefined: the kernel calls this with every thread
 * of the block before any rank runs. */
GPUMPI_FN void gp_shm_block_init(void)
{
    if (gp_block_thread() == 0) {
        gp_memset(&gp_blk, 0, sizeof gp_blk);
        gp_gate_init(&gp_blk.arrived_gate);
        gp_gate_init(&gp_blk.release_gate);
    }
}

/* Waits for *word to reach gen + 1 (on-chip: for the gate that opens with it). */
GPUMPI_FN __noinline__ void gp_collective_wait(uint32_t *word, uint64_t *gate, uint32_t gen, const char *fn)
{
    gp_coll_waiting w = gp_coll_wait_begin(fn);
    while (gate ? !gp_gate_wait(gate, gen & 1, w.passive ? 20000 : 1000) : gp_load_acquire(word) != gen + 1)
        gp_coll_wait_step(&w, gate != 0);
    gp_coll_wait_end(&w);
}

/* Waits for *t to carry tag (gp_split_put), and returns its value. */
GPUMPI_FN __noinline__ static uint64_t gp_split_wait(gp_tagged *t, uint32_t tag, const char *fn)
{
    gp_coll_waiting w = gp_coll_wait_begin(fn);
    uint64_t v;
    while (!gp_split_get(t, tag, &v)) gp_coll_wait_step(&w, 0);
    gp_coll_wait_end(&w);
    return v;
}

/* Combines the n values at `below` (GP_TREE_BYTES apart) into v of lane 0:
 * a whole warp loads one each and shuffles; a smaller group's leader does
 * the same pairing alone. */
GPUMPI_FN static __forceinline__ void gp_combine_children(gp_lanes g, char *below, int n, uint64_t *v, gp_combine_op c)
{
    if (g.size == 32) {
        if (g.me < n)
            for (int k = 0; k < c.words; k++)
                v[k] = gp_load_relaxed64((uint64_t *)(below + (size_t)g.me * GP_TREE_BYTES) + k);
        gp_pairwise_lanes(g, n, v, c);
    } else if (g.me == 0) {
        gp_pairwise_alone(below, GP_TREE_BYTES, n, c);
        gp_copy(v, below, (size_t)c.words * 8);
    }
}

/* Carries this block's value (v, in lane 0 of g) up the global tree and
 * returns with the result in v of lane 0 (a barrier: c.words = 0). gen is
 * the block's generation, which the root's release word also counts: a
 * block waits there whatever node it stopped at, and no block starts the
 * next collective's climb before every block has left this one. */
GPUMPI_FN static __forceinline__ void gp_tree_climb(gp_lanes g, uint32_t gen, uint64_t *v, gp_combine_op c)
{
    int words = c.words;
    gp_tree *tr = &gp_w()->tree;
    uint32_t idx = (uint32_t)gp_block_index();
    uint32_t *done = &tr->release[tr->levels ? tr->node_base[tr->levels - 1] : 0]; /* the root's */
    int top = 1;
    for (int level = 0; level < tr->levels; level++) {
        uint32_t node = idx >> GP_TREE_FANIN_BITS, first = node << GP_TREE_FANIN_BITS;
        uint32_t members = gp_tree_members(tr, level, first);
        uint32_t at = tr->node_base[level] + node;
        char *below = tr->values + ((size_t)tr->value_base[level] + first) * GP_TREE_BYTES;
        uint32_t old = 0;
        if (g.me == 0) {
            if (words) gp_copy(below + (size_t)(idx - first) * GP_TREE_BYTES, v, (size_t)words * 8);
            old = gp_fetch_add(&tr->counts[at], 1); /* publishes our value, acquires the others' */
        }
        old = (uint32_t)gp_warp_shfl64(g.mask, old, g.leader);
        if (old != members - 1) { /* someone else carries this node up */
            gp_collective_wait(done, 0, gen, words ? "MPI_Allreduce" : "MPI_Barrier");
            top = 0;
            break;
        }
        if (g.me == 0) tr->counts[at] = 0; /* published by our count above and the root's release */
        if (words) gp_combine_children(g, below, (int)members, v, c);
        idx = node;
    }
    if (g.me != 0) return;
    if (words) {
        if (top) gp_copy(tr->result, v, (size_t)words * 8);
        else gp_copy(v, tr->result, (size_t)words * 8); /* after the acquire of our release */
    }
    if (top && tr->levels) gp_store_release(done, gen + 1);
}

/* The inputs of one node of the one-word tree (at `in`, `members` of
 * them; this rank's group is the first), combined into v of g's lane 0.
 * A whole warp polls them, one a lane, with plain loads; a smaller
 * group's leader waits for each in turn and pairs them in the block's
 * part slots (free until the release). */
GPUMPI_FN static __forceinline__ void gp_node_gather(gp_lanes g, gp_tagged *in, uint32_t members, uint32_t tag,
                                                     uint64_t *v, gp_combine_op c)
{
    if (g.size == 32) {
        uint64_t x = *v; /* lane 0: the first input, its own */
        int have = g.me == 0 || g.me >= (int)members;
        gp_coll_waiting w = gp_coll_wait_begin("MPI_Allreduce");
        for (;;) {
            if (!have) have = gp_split_get(&in[g.me], tag, &x);
            if (gp_warp_all(g.mask, have)) break;
            gp_coll_wait_step(&w, 0);
        }
        gp_coll_wait_end(&w);
        *v = x;
        gp_pairwise_lanes(g, (int)members, v, c);
    } else if (g.me == 0) {
        gp_blk.part[0][0] = *v;
        for (uint32_t j = 1; j < members; j++) gp_blk.part[j][0] = gp_split_wait(&in[j], tag, "MPI_Allreduce");
        gp_pairwise_alone((char *)gp_blk.part, sizeof gp_blk.part[0], (int)members, c);
        *v = gp_blk.part[0][0];
    }
}

/* gp_tree_climb for one word, without counts: each node's first input
 * carries it up. It polls the node's other inputs (gp_node_gather), each
 * put there with the collective's number (gp_split_put): one trip per
 * level for the last input's value, where a count and then a read of the
 * inputs were two. Every other input puts its value and waits for the
 * result, which the root's carrier puts in one word (the top level's
 * input) that all of them poll with plain loads: one step down, not one a
 * level. Lane 0 of g ends with the result; k is the number of one-word
 * allreduces finished. A word is written again only in the next
 * collective, which no rank starts before every rank has read this one's. */
GPUMPI_FN static __forceinline__ void gp_tree_climb_word(gp_lanes g, uint32_t k, uint64_t *v, gp_combine_op c)
{
    gp_tree *tr = &gp_w()->tree;
    uint32_t idx = (uint32_t)gp_block_index(), tag = k + 1;
    gp_tagged *result = tr->word_in + tr->value_base[tr->levels];
    for (int level = 0; level < tr->levels; level++) {
        uint32_t first = idx & ~(uint32_t)(GP_TREE_FANIN - 1);
        gp_tagged *in = tr->word_in + tr->value_base[level] + first;
        if (idx != first) { /* the node's first input carries it */
            if (g.me == 0) {
                gp_split_put(&in[idx - first], *v, tag);
                *v = gp_split_wait(result, tag, "MPI_Allreduce");
            }
            return;
        }
        gp_node_gather(g, in, gp_tree_members(tr, level, first), tag, v, c);
        idx >>= GP_TREE_FANIN_BITS;
    }
    if (g.me == 0 && tr->levels) gp_split_put(result, *v, tag);
}

/* Ends the collective for the block: the result (if any) where every rank
 * of the block reads it, then the release. */
GPUMPI_FN static void gp_block_publish(uint32_t gen, const uint64_t *v, int words)
{
    for (int k = 0; k < words; k++) gp_blk.result[k] = v[k];
    gp_block_store_release(&gp_blk.release, gen + 1);
    gp_gate_open(&gp_blk.release_gate);
}

/* The block's last arriver carries it up the tree and opens its gate: out
 * of line, so that the others' path stays small. */
GPUMPI_FN __noinline__ void gp_shm_barrier_climb(uint32_t gen)
{
    gp_blk.count = 0;
    gp_gate_open(&gp_blk.arrived_gate); /* nobody waits, but its phases count every collective */
    gp_combine_op none = {MPI_OP_NULL, MPI_BYTE, 0, 0, 0};
    gp_tree_climb(gp_lanes_alone(), gen, 0, none);
    gp_block_publish(gen, 0, 0);
}

/* The allreduce of a value of more than one word, in steps. Every rank of
 * the block arrives (so none of them is waiting on anything outside this
 * call) before any lane waits on another in a shuffle. Then warps combine,
 * each warp's lane 0 leaves its part, warp 0 combines the parts and climbs
 * (gp_shm_allreduce_top), the others wait for the release and read the
 * result. One word takes a shorter way (gp_shm_allreduce_word below) on
 * the same block state, so either may follow the other. */
GPUMPI_FN static __forceinline__ uint32_t gp_allreduce_arrive(void)
{
    uint32_t gen = gp_block_load_acquire(&gp_blk.release);
    if (gp_block_take_ticket(&gp_blk.count) == gp_block_members() - 1) {
        gp_blk.count = 0;
        gp_gate_open(&gp_blk.arrived_gate);
    } else {
        gp_gate_pass(&gp_blk.arrived_gate, gen, "MPI_Allreduce");
    }
    return gen;
}

/* Warp 0: the other warps are all here, so nothing outside waits on us.
 * One lane watches the count of parts: the others could miss it, as it is
 * reset before the release. Lane 0 ends with the result published. */
GPUMPI_FN static __forceinline__ void gp_allreduce_top_body(uint64_t *v, gp_combine_op c, uint32_t gen)
{
    int lane = gp_block_thread(), in_warp = gp_warp_members(), warps = (int)gp_block_warps();
    gp_lanes g = {gp_lanes_mask(in_warp), lane, in_warp, 0};
    if (gp_warp_width() == 1) g = gp_lanes_alone();
    unsigned spins = 0;
    if (lane == 0)
        while (gp_block_load_acquire(&gp_blk.parts) != (uint32_t)warps) gp_pause_upto(&spins, 64);
    gp_warp_converge(g.mask);
    if (lane < warps)
        for (int k = 0; k < c.words; k++) v[k] = gp_blk.part[lane][k];
    gp_pairwise_lanes(g, warps, v, c);
    gp_tree_climb(g, gen, v, c);
    if (lane == 0) {
        gp_blk.parts = 0;
        gp_block_publish(gen, v, c.words);
    } else {
        gp_gate_pass(&gp_blk.release_gate, gen, "MPI_Allreduce");
    }
}

/* Out of line: only warp 0 comes here. */
GPUMPI_FN __noinline__ static void gp_shm_allreduce_top(uint64_t *v, gp_combine_op c, uint32_t gen)
{
    gp_allreduce_top_body(v, c, gen);
}

GPUMPI_FN static __forceinline__ void gp_shm_allreduce_run(uint64_t *v, gp_combine_op c)
{
    uint32_t gen = gp_allreduce_arrive();
    int thread = gp_block_thread(), lane = thread % 32, warp = thread / 32, in_warp = gp_warp_members();
    gp_lanes g = {gp_lanes_mask(in_warp), lane, in_warp, 0};
    if (gp_warp_width() == 1) g = gp_lanes_alone();
    gp_pairwise_lanes(g, in_warp, v, c);
    if (lane == 0) {
        for (int k = 0; k < c.words; k++) gp_blk.part[warp][k] = v[k];
        gp_block_fetch_add(&gp_blk.parts, 1);
    }
    if (warp != 0)
        gp_gate_pass(&gp_blk.release_gate, gen, "MPI_Allreduce");
    else
        gp_shm_allreduce_top(v, c, gen);
    for (int k = 0; k < c.words; k++) v[k] = gp_blk.result[k];
    gp_warp_converge(gp_lanes_mask(in_warp));
}

/* A value of one word needs no arrival gate. A warp whose lanes all came
 * in together (the usual case: every collective here lets its warps out
 * converged) combines by shuffles at once: none of its lanes can be
 * waiting on anything outside the call. Lanes that came in apart each
 * leave their operand in their gp_rank, and the group that completes the
 * warp combines them alone, in the same pairing (gp_allreduce_word_apart).
 * Either way one lane leaves the warp's part, and the warp that leaves the
 * block's last part carries the block up the tree: every other rank
 * sleeps once, at the release gate. (The gate before the shuffles cost a
 * second sleep, and the block waited for warp 0 to wake and see the
 * parts.) Only the carrier and lanes that came apart call out of line:
 * every rank that calls a function that big pays its register saves on
 * the stack (MPI_Allreduce over 270,336 ranks: 53 against 20 us). */
GPUMPI_FN static __forceinline__ uint64_t gp_allreduce_word_carry_body(uint64_t v, gp_combine_op c, uint32_t gen,
                                                                        gp_lanes g)
{
    int warps = (int)gp_block_warps();
    gp_warp_converge(g.mask); /* the carrier's acquire of the parts, for every lane */
    if (g.me == 0) {
        gp_blk.parts = 0;
        gp_gate_open(&gp_blk.arrived_gate); /* nobody waits, but its phases count every collective */
    }
    gp_combine_children(g, (char *)gp_blk.part, warps, &v, c);
    uint32_t k = gp_blk.word_gen;
    gp_tree_climb_word(g, k, &v, c);
    if (g.me == 0) {
        gp_blk.word_gen = k + 1;
        gp_block_publish(gen, &v, 1);
        return v;
    }
    gp_gate_pass(&gp_blk.release_gate, gen, "MPI_Allreduce");
    return gp_blk.result[0];
}
/* Any word; and one element of a type gp_reduce_known applies, whose
 * combine, a constant, keeps the carrier's values in registers. */
GPUMPI_FN __noinline__ uint64_t gp_allreduce_word_carry(uint64_t v, gp_combine_op c, uint32_t gen, gp_lanes g)
{
    return gp_allreduce_word_carry_body(v, c, gen, g);
}
GPUMPI_FN __noinline__ uint64_t gp_allreduce_word_carry_known(uint64_t v, MPI_Datatype t, MPI_Op op, uint32_t gen,
                                                              gp_lanes g)
{
    gp_combine_op c = {op, t, 1, 1, 1};
    return gp_allreduce_word_carry_body(v, c, gen, g);
}

GPUMPI_FN __noinline__ uint64_t gp_allreduce_word_apart(uint64_t v, gp_combine_op c, uint32_t gen, unsigned here)
{
    int lane = gp_lane_id(), in_warp = gp_warp_members();
    gp_rank *first = gp_self() - lane;
    uint32_t *in = &gp_blk.warp_in[gp_block_thread() / 32];
    gp_self()->coll_word = v;
    gp_warp_converge(here); /* the group's operands before its count */
    if (gp_block_take_ticket(in) == (uint32_t)in_warp - 1) { /* the warp's last: combine it */
        *in = 0;
        gp_pairwise_alone((char *)&first->coll_word, sizeof(gp_rank), in_warp, c);
        if (gp_allreduce_leave_part(first->coll_word, gp_lanes_alone()))
            return gp_allreduce_word_carry_any(first->coll_word, c, gen, gp_lanes_alone());
    }
    gp_gate_pass(&gp_blk.release_gate, gen, "MPI_Allreduce");
    return gp_blk.result[0];
}

/* Whether a reduction takes a tree must not depend on how a rank describes
 * its data (the standard lets ranks use different types of the same
 * signature), so it goes by the basic type and the byte count; data of a
 * derived type is packed on the way in and unpacked on the way out. 1 if
 * it takes one: its words are then in v, its combine in c. */
GPUMPI_FN int gp_shm_operand(const void *in, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, uint64_t *v,
                             gp_combine_op *c)
{
    MPI_Datatype basic = gp_type_basic(t);
    if (op < MPI_MAX || op > MPI_BXOR || basic == MPI_DATATYPE_NULL || !gp_comm_spans_world(comm)) return 0;
    size_t bytes = (size_t)count * (size_t)gp_type_size(t);
    int esize = gp_type_size(basic);
    if (bytes == 0 || bytes > GP_TREE_BYTES || esize <= 0) return 0;
    if (t == basic) /* the common case, without a call into types_pack.cu */
        gp_copy(v, in, bytes);
    else
        gp_type_pack(in, count, t, v);
    gp_combine_op made = {op, basic, (int)((bytes + 7) / 8), (int)(bytes / (size_t)esize), gp_reduce_is_known(op, basic)};
    *c = made;
    return 1;
}

GPUMPI_FN void gp_shm_result(const uint64_t *v, void *out, int count, MPI_Datatype t)
{
    if (t == gp_type_basic(t))
        gp_copy(out, v, (size_t)count * (size_t)gp_type_size(t));
    else
        gp_type_unpack(v, (size_t)count * (size_t)gp_type_size(t), out, count, t);
}

/* Allreduce synchronises anyway, so it takes the block tree (MPI_Bcast
 * and MPI_Reduce, where a root or a leaf may leave before the others
 * arrive, as programs written for MPICH expect, take shm_rooted.cu's). */
GPUMPI_FN int gp_shm_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm)
{
    uint64_t v[GP_WORDS];
    gp_combine_op c;
    if (!gp_shm_operand(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, t, op, comm, v, &c)) return 0;
    if (c.words == 1)
        v[0] = gp_shm_allreduce_word(v[0], c);
    else
        gp_shm_allreduce_run(v, c);
    gp_shm_result(v, recvbuf, count, t);
    return 1;
}

GPUMPI_FN int MPI_Barrier(MPI_Comm comm) { return gp_barrier_inline(comm); }

GPUMPI_FN int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm)
{
    return gp_allreduce_inline(sendbuf, recvbuf, count, datatype, op, comm);
}
