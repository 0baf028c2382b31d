/* MPI_Bcast and MPI_Reduce of up to GP_TREE_BYTES over the world (and
 * communicators that span it in world order), through global memory, not
 * messages, and without making every rank wait for every other: a
 * broadcast's root leaves as soon as it has published, a reduction's
 * non-roots as soon as they have left their value, as under MPICH's
 * messages. (Through the general schedule, 8 bytes over 270,336 ranks
 * took 3.4 ms a broadcast and 4.6 ms a reduction on an H200.)
 *
 * Call k (every rank counts its calls here: collectives on communicators
 * that all span the world come in one order on every rank) takes slot
 * k % GP_ROOTED_SLOTS of a ring (world.h: gp_rooted), so a fast rank may
 * be that many calls ahead of the slowest. Ranks count in up a tree over
 * the ranks (fan-in 32, so a warp's ranks are one node's inputs and count
 * in with one atomic when they come together); a node's last arrival
 * carries it up, and the top's carrier ends the call for the slot:
 * - broadcast: the root writes the data into the slot and its tag; the
 *   others wait for the tag, copy, and count in; the top marks the slot
 *   used, which frees it for call k + GP_ROOTED_SLOTS;
 * - reduction: each rank leaves its value at its input, and each node's
 *   carrier combines its inputs in a fixed pairing (gp_pairwise_*, so the
 *   result's bits do not depend on who came last); the top writes the
 *   result into the slot and its tag, and the root, once it has read it,
 *   marks the slot used.
 * A rank takes slot s for a new call only once it is used (everyone is
 * through with the previous call there). */
#include "shm_collectives.h"

GPUMPI_FN static inline gp_rooted_slot *gp_rooted_slot_of(uint64_t k)
{
    return &gp_w()->rooted.slots[k % GP_ROOTED_SLOTS];
}

GPUMPI_FN static inline uint32_t gp_rooted_use(uint64_t k) { return (uint32_t)(k / GP_ROOTED_SLOTS); }

/* Waits for *word == want. Every rank may wait here at once, all on one
 * word: sleeps grow to 1 us between looks, so the polls do not crowd L2. */
GPUMPI_FN __noinline__ static void gp_rooted_wait(uint32_t *word, uint32_t want, const char *fn)
{
    gp_coll_waiting w = gp_coll_wait_begin(fn);
    unsigned spins = 0;
    while (gp_load_acquire(word) != want) {
        gp_pause_upto(&spins, 1000);
        spins++;
        gp_coll_wait_step(&w, 1);
    }
    gp_coll_wait_end(&w);
}

GPUMPI_FN static __forceinline__ void gp_rooted_wait_for(uint32_t *word, uint32_t want, const char *fn)
{
    if (gp_load_acquire(word) != want) gp_rooted_wait(word, want, fn);
}

/* Call k's slot, once everyone is through with its previous call. */
GPUMPI_FN static __forceinline__ gp_rooted_slot *gp_rooted_take(uint64_t k, const char *fn)
{
    gp_rooted_slot *slot = gp_rooted_slot_of(k);
    gp_rooted_wait_for(&slot->uses, gp_rooted_use(k), fn);
    return slot;
}

/* Combines the n inputs at `in` (word w of input j at in[w * plane + j])
 * into v of g's first lane, in the pairing of every tree here: a whole
 * warp loads one input a lane and shuffles; a smaller group's leader loads
 * them all at once and pairs them on its stack (one word each), or in
 * place (pairing in place, each step a trip to L2 after the last, made a
 * node 31 trips: an 8-byte MPI_Reduce over 270,336 ranks 305 us). */
GPUMPI_FN static void gp_rooted_combine(gp_lanes g, uint64_t *in, size_t plane, int n, uint64_t *v, gp_combine_op c)
{
    if (g.size == 32) {
        if (g.me < n)
            for (int w = 0; w < c.words; w++) v[w] = gp_load_relaxed64(in + (size_t)w * plane + g.me);
        gp_pairwise_lanes(g, n, v, c);
        return;
    }
    if (g.me != 0) return;
    if (c.words == 1) {
        uint64_t x[GP_TREE_FANIN];
        for (int j = 0; j < n; j++) x[j] = gp_load_relaxed64(in + j);
        gp_pairwise_alone((char *)x, sizeof x[0], n, c);
        v[0] = x[0];
        return;
    }
    for (int off = 16; off >= 1; off >>= 1)
        for (int j = 0; j < off && j + off < n; j++) {
            uint64_t a[GP_WORDS], b[GP_WORDS];
            for (int w = 0; w < c.words; w++) {
                a[w] = gp_load_relaxed64(in + (size_t)w * plane + j + off);
                b[w] = gp_load_relaxed64(in + (size_t)w * plane + j);
            }
            gp_combine_apply(c, a, b);
            for (int w = 0; w < c.words; w++) in[(size_t)w * plane + j] = b[w];
        }
    for (int w = 0; w < c.words; w++) v[w] = gp_load_relaxed64(in + (size_t)w * plane);
}

/* Counts this rank in for call k with its value v (c.words of them; none
 * for a broadcast's count) and carries every node it completes up the
 * tree, with the lanes that came in with it (a whole warp loads a node's
 * inputs together). Returns 1 in the one rank that completes the top,
 * with the combined value in v. */
GPUMPI_FN __noinline__ static int gp_rooted_climb(uint64_t k, uint64_t *v, gp_combine_op c)
{
    gp_rooted *rt = &gp_w()->rooted;
    const gp_tree *sh = &rt->shape;
    uint32_t s = (uint32_t)(k % GP_ROOTED_SLOTS), idx = (uint32_t)gp_thread_rank();
    uint32_t *counts = rt->counts + (size_t)s * (sh->nodes + 1);
    size_t plane = sh->all_inputs;
    uint64_t *vals = rt->values + (size_t)s * GP_WORDS * plane;
    /* the lanes here in the same call and the same node count in together;
     * a warp's lanes may be in different calls (a loop's), or nodes
     * (blocks that are not whole warps) */
    unsigned mask = gp_warp_match64(gp_warp_here(), k << 32 | idx >> GP_TREE_FANIN_BITS);
    int lane = gp_lane_id();
    gp_lanes g = {mask, gp_popc(mask & ((1u << lane) - 1u)), gp_popc(mask), gp_lowest_bit(mask)};
    for (int level = 0; level < sh->levels; level++) {
        uint32_t node = idx >> GP_TREE_FANIN_BITS, first = node << GP_TREE_FANIN_BITS;
        uint32_t members = gp_tree_members(sh, level, first);
        uint64_t *in = vals + sh->value_base[level];
        /* at level 0 each lane is an input; above, the group carries one */
        uint32_t inputs = level == 0 ? (uint32_t)g.size : 1;
        if (level == 0 || g.me == 0)
            for (int w = 0; w < c.words; w++) in[(size_t)w * plane + idx] = v[w];
        gp_warp_converge(g.mask); /* the group's values before its count */
        uint32_t *count = &counts[sh->node_base[level] + node], old = 0;
        if (g.me == 0) old = gp_fetch_add(count, inputs); /* publishes ours, acquires the others' */
        old = (uint32_t)gp_warp_shfl64(g.mask, old, g.leader);
        if (old + inputs != members) return 0; /* a later arrival carries the node */
        gp_warp_converge(g.mask); /* the leader's acquire, for every lane */
        if (g.me == 0) *count = 0; /* published by the release steps above */
        if (c.words) gp_rooted_combine(g, in + first, plane, (int)members, v, c);
        idx = node;
    }
    if (g.me != 0) return 0;
    return 1;
}

GPUMPI_FN int gp_shm_bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    size_t bytes = gp_coll_bytes(count, t);
    if (bytes == 0 || bytes > GP_TREE_BYTES || !gp_comm_spans_world(comm)) return 0;
    uint64_t k = gp_self()->rooted_calls++;
    char *direct = gp_coll_contiguous(buf, count, t);
    gp_rooted_slot *slot;
    if (gp_thread_rank() == root) {
        slot = gp_rooted_take(k, "MPI_Bcast");
        if (direct)
            gp_copy(slot->data, direct, bytes);
        else
            gp_type_pack(buf, count, t, slot->data);
        gp_store_release(&slot->tag, (uint32_t)(k + 1));
    } else {
        slot = gp_rooted_slot_of(k);
        gp_rooted_wait_for(&slot->tag, (uint32_t)(k + 1), "MPI_Bcast");
        if (direct)
            gp_copy(direct, slot->data, bytes);
        else
            gp_type_unpack(slot->data, bytes, buf, count, t);
    }
    gp_combine_op none = {MPI_OP_NULL, MPI_BYTE, 0, 0, 0};
    if (gp_rooted_climb(k, 0, none)) gp_store_release(&slot->uses, gp_rooted_use(k) + 1);
    return 1;
}

GPUMPI_FN int gp_shm_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                            MPI_Comm comm)
{
    uint64_t v[GP_WORDS];
    gp_combine_op c;
    if (!gp_shm_operand(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, t, op, comm, v, &c)) return 0;
    uint64_t k = gp_self()->rooted_calls++;
    gp_rooted_slot *slot = gp_rooted_take(k, "MPI_Reduce");
    if (gp_rooted_climb(k, v, c)) {
        for (int w = 0; w < c.words; w++) slot->data[w] = v[w];
        gp_store_release(&slot->tag, (uint32_t)(k + 1));
    }
    if (gp_thread_rank() != root) return 1;
    gp_rooted_wait_for(&slot->tag, (uint32_t)(k + 1), "MPI_Reduce");
    for (int w = 0; w < c.words; w++) v[w] = slot->data[w];
    gp_shm_result(v, recvbuf, count, t);
    gp_store_release(&slot->uses, gp_rooted_use(k) + 1);
    return 1;
}
