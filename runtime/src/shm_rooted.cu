/* MPI_Bcast, MPI_Reduce, MPI_Gather and MPI_Scatter of up to GP_TREE_BYTES
 * (a rank) over the world (and communicators that span it in world
 * order), through global memory, not messages, and without making every
 * rank wait for every other: a
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
 * carries it up, and the top's carrier ends the call for the slot
 * (the path every rank takes is inline: shm_rooted.h):
 * - broadcast: the root writes the data into the slot and its tag; the
 *   others wait for the tag, copy, and count in; the top marks the slot
 *   used, which frees it for call k + GP_ROOTED_SLOTS;
 * - reduction: each rank leaves its value at its input, and each node's
 *   carrier combines its inputs in a fixed pairing (gp_pairwise_*, so the
 *   result's bits do not depend on who came last); the top writes the
 *   result into the slot and its tag, and the root, once it has read it,
 *   marks the slot used;
 * - gather and scatter: the root says where its buffer is, and the
 *   others put or take their parts there (or through the inputs) and
 *   count in (below, at gp_shm_gather).
 * A rank takes slot s for a new call only once it is used (everyone is
 * through with the previous call there). */
#include "shm_rooted.h"

/* Waits for *word == want (a slot's tag or uses), which every rank may be
 * waiting on at once: sleeps grow to 1 us between looks, and past a
 * millisecond to an eighth of the time waited so far (at most half a
 * millisecond), so a long wait comes back at most an eighth late. With
 * 1 us throughout, the ranks of a task farm that had finished and waited
 * in its closing MPI_Bcast for the master kept that one word's L2 slice
 * busy, and the master, still handing out tasks, slowed: taskfarm over
 * 270,336 ranks 3.27 -> 4.16 s (H200; with 32 us past a millisecond 3.76). */
GPUMPI_FN __noinline__ void gp_rooted_wait(uint32_t *word, uint32_t want, const char *fn)
{
    gp_coll_waiting w = gp_coll_wait_begin(fn);
    unsigned spins = 0;
    uint64_t t0 = 0;
    while (gp_load_acquire(word) != want) {
        if (spins < 1024) {
            gp_pause_upto(&spins, 1000);
        } else {
            uint64_t now = gp_clock_ns();
            if (!t0) t0 = now;
            uint64_t nap = (now - t0) / 8;
            nap = nap < 2000 ? 2000 : nap > 500000 ? 500000 : nap;
            for (uint64_t slept = 0; slept < nap; slept += 2000) gp_pause_upto(&spins, 2000);
        }
        spins++;
        gp_coll_wait_step(&w, 1);
    }
    gp_coll_wait_end(&w);
}

/* Combines the n inputs at `in` (word w of input j at in[w * plane + j])
 * into v of g's first lane, in the pairing of every tree here: a whole
 * warp loads one input a lane and shuffles; a smaller group's leader loads
 * them all at once and pairs them on its stack (one word each), or in
 * place (pairing in place, each step a trip to L2 after the last, made a
 * node 31 trips: an 8-byte MPI_Reduce over 270,336 ranks 305 us). */
GPUMPI_FN static __forceinline__ void gp_rooted_combine(gp_lanes g, uint64_t *in, size_t plane, int n, uint64_t *v,
                                                      gp_combine_op c, int whole)
{
    if (whole || g.size == 32) {
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

/* The group (mask) that completed its node at level 0 of call k's tree
 * (gp_rooted_arrive) carries it on: combines the node's inputs (c.words words each; none
 * for a broadcast's count), and every node above it completes, with the
 * lanes that came in with it (a whole warp loads a node's inputs
 * together). The one that completes the top ends the call for the slot,
 * as `end` says: GP_END_USED, a broadcast's, marks the slot used;
 * GP_END_RESULT, a reduction's, writes the result into the slot and its
 * tag; GP_END_DONE, a gather's or scatter's, tells the root that every
 * rank has counted in. */
GPUMPI_FN static __forceinline__ void gp_rooted_carry_body(uint64_t k, unsigned mask, gp_combine_op c, int whole,
                                                         int end)
{
    const gp_tree *sh = &gp_w()->rooted.shape;
    uint32_t s = (uint32_t)(k % GP_ROOTED_SLOTS), idx = (uint32_t)gp_thread_rank() >> GP_TREE_FANIN_BITS;
    size_t plane = gp_hot.rooted_plane;
    uint64_t *vals = gp_hot.rooted_values + (size_t)s * GP_WORDS * plane, v[GP_WORDS];
    gp_lanes g = {mask, gp_popc(mask & ((1u << gp_lane_id()) - 1u)), gp_popc(mask), gp_lowest_bit(mask)};
    gp_warp_converge(g.mask); /* the leader's acquire, for every lane */
    uint32_t first0 = idx << GP_TREE_FANIN_BITS; /* the node's first input (level 0: a rank) */
    int members0 = (int)gp_tree_members(sh, 0, first0);
    /* a node whose lanes came together left its count at 0 (gp_rooted_arrive) */
    if (g.me == 0 && g.size != members0) *gp_rooted_count(idx, k) = 0; /* published by the release steps above */
    if (c.words) gp_rooted_combine(g, vals + first0, plane, members0, v, c, whole);
    for (int level = 1; level < sh->levels; level++) {
        uint32_t node = idx >> GP_TREE_FANIN_BITS, first = node << GP_TREE_FANIN_BITS;
        uint32_t members = gp_tree_members(sh, level, first);
        uint64_t *in = vals + sh->value_base[level];
        if (g.me == 0)
            for (int w = 0; w < c.words; w++) in[(size_t)w * plane + idx] = v[w];
        uint32_t *count = gp_rooted_count((size_t)sh->node_base[level] + node, k), old = 0;
        if (g.me == 0) old = gp_fetch_add(count, 1); /* publishes ours, acquires the others' */
        old = (uint32_t)gp_warp_shfl64(g.mask, old, g.leader);
        if (old + 1 != members) return; /* a later arrival carries the node */
        gp_warp_converge(g.mask); /* the leader's acquire, for every lane */
        if (g.me == 0) *count = 0;
        if (c.words) gp_rooted_combine(g, in + first, plane, (int)members, v, c, whole);
        idx = node;
    }
    if (g.me != 0) return;
    gp_rooted_slot *slot = gp_rooted_slot_of(k);
    if (end == GP_END_RESULT) {
        for (int w = 0; w < c.words; w++) slot->data[w] = v[w];
        gp_store_release(&slot->tag, (uint32_t)(k + 1));
    } else if (end == GP_END_DONE) {
        gp_store_release(&slot->done, (uint32_t)(k + 1));
    } else {
        gp_store_release(&slot->uses, gp_rooted_freed(k));
    }
}

/* The carrier for any combine and any group; and two whose combine is a
 * constant, so that the carrier's frame holds only what they use: a
 * broadcast's count (none), and one element of a type gp_reduce_known
 * applies carried by a whole warp (no lone leader's array of inputs).
 * With the general one alone (a 1,320-byte frame, 1,104 bytes of spill
 * stores) every warp paid its saves and spills on every call. */
GPUMPI_FN __noinline__ void gp_rooted_carry(uint64_t k, unsigned mask, gp_combine_op c)
{
    gp_rooted_carry_body(k, mask, c, 0, GP_END_RESULT);
}

GPUMPI_FN __noinline__ void gp_rooted_carry_count(uint64_t k, unsigned mask, int end)
{
    gp_combine_op none = {MPI_OP_NULL, MPI_BYTE, 0, 0, 0};
    gp_rooted_carry_body(k, mask, none, 0, end);
}

GPUMPI_FN __noinline__ void gp_rooted_carry_known(uint64_t k, MPI_Datatype t, MPI_Op op)
{
    gp_combine_op c = {op, t, 1, 1, 1};
    gp_rooted_carry_body(k, 0xffffffffu, c, 1, GP_END_RESULT);
}

/* The general cases: up to GP_TREE_BYTES of any type, on any
 * communicator that spans the world in world order. */
GPUMPI_FN int gp_shm_bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    size_t bytes = gp_coll_bytes(count, t);
    if (bytes == 0 || bytes > GP_TREE_BYTES || !gp_comm_spans_world(comm)) return 0;
    int me_root = gp_thread_rank() == root;
    uint64_t k = gp_rooted_begin(me_root, "MPI_Bcast");
    gp_rooted_slot *slot = gp_rooted_slot_of(k);
    char *direct = gp_coll_contiguous(buf, count, t);
    if (me_root) {
        if (direct)
            gp_copy(slot->data, direct, bytes);
        else
            gp_type_pack(buf, count, t, slot->data);
        gp_store_release(&slot->tag, (uint32_t)(k + 1));
    } else {
        gp_rooted_wait_for(&slot->tag, (uint32_t)(k + 1), "MPI_Bcast");
        if (direct)
            gp_copy(direct, slot->data, bytes);
        else
            gp_type_unpack(slot->data, bytes, buf, count, t);
    }
    gp_combine_op none = {MPI_OP_NULL, MPI_BYTE, 0, 0, 0};
    gp_rooted_arrive(k, none, GP_END_USED);
    return 1;
}

GPUMPI_FN int gp_shm_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                            MPI_Comm comm)
{
    uint64_t v[GP_WORDS];
    gp_combine_op c;
    if (!gp_shm_operand(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, t, op, comm, v, &c)) return 0;
    uint64_t k = gp_rooted_begin(1, "MPI_Reduce");
    gp_rooted_reduce(k, v, c, root);
    if (gp_thread_rank() == root) gp_shm_result(v, recvbuf, count, t);
    return 1;
}

/* MPI_Gather and MPI_Scatter of up to GP_TREE_BYTES a rank, on
 * communicators that span the world in world order, without messages.
 * The root says in the call's slot where its buffer is, and every rank
 * waits for that, as for a broadcast's data:
 * - a buffer every rank reaches (global memory), contiguous: each rank
 *   puts its part in (gather) or takes it (scatter) itself, and counts
 *   in; the root returns once every rank has (the slot's `done`);
 * - a buffer only the root reaches (its private memory) or of another
 *   layout: the parts go through the tree's inputs of the slot (a rank's
 *   words where a reduction leaves its value), which the root copies out
 *   once every rank has counted in (gather), or in before it tells where
 *   they are (scatter).
 * (8 bytes a rank over 270,336 ranks on an H200: through the general
 * schedule 18.7 ms a gather and 11.0 ms a scatter; with the root copying
 * every part through the inputs 12.0 / 18.0 ms.) */

/* The root's buffer of count elements of t a rank, for every rank, as one
 * run of bytes (its first), or 0 when it is not one. */
GPUMPI_FN static char *gp_rooted_root_run(const void *buf, int count, MPI_Datatype t)
{
    long long all = (long long)count * gp_hot.nranks;
    return all <= 0x7fffffff ? gp_coll_contiguous(buf, (int)all, t) : 0;
}

/* The root's side of the inputs' way: `out` 1 copies the n parts from the
 * slot's inputs into buf (count elements of t a rank), 0 copies them from
 * buf into the inputs; `skip` is a rank whose part stays where it is
 * (MPI_IN_PLACE), or -1. */
GPUMPI_FN static void gp_rooted_parts(uint64_t k, int out, char *buf, int count, MPI_Datatype t, size_t bytes,
                                      int skip)
{
    int n = gp_hot.nranks, words = (int)((bytes + 7) / 8);
    uint64_t *b = (uint64_t *)gp_rooted_root_run(buf, count, t);
    if (b && bytes % 8 == 0) { /* whole words: a plane at a time */
        for (int w = 0; w < words; w++) {
            uint64_t *in = gp_rooted_input_of(k, w, 0);
            for (int r = 0; r < n; r++) {
                if (r == skip) continue;
                if (out)
                    b[(size_t)r * (size_t)words + (size_t)w] = in[r];
                else
                    in[r] = b[(size_t)r * (size_t)words + (size_t)w];
            }
        }
        return;
    }
    size_t stride = (size_t)count * gp_type_extent(t);
    for (int r = 0; r < n; r++) {
        if (r == skip) continue;
        uint64_t v[GP_WORDS];
        if (out) {
            for (int w = 0; w < words; w++) v[w] = *gp_rooted_input_of(k, w, r);
            gp_coll_copy(v, (int)bytes, MPI_BYTE, buf + (size_t)r * stride, count, t);
        } else {
            gp_coll_copy(buf + (size_t)r * stride, count, t, v, (int)bytes, MPI_BYTE);
            for (int w = 0; w < words; w++) *gp_rooted_input_of(k, w, r) = v[w];
        }
    }
}

/* The root's buffer as every rank may use it (the parts back to back), or
 * 0 when the parts go through the inputs. */
GPUMPI_FN static char *gp_rooted_shared_buffer(const void *buf, int count, MPI_Datatype t)
{
    char *p = gp_rooted_root_run(buf, count, t);
    return p && gp_is_shared_memory(p) ? p : 0;
}

/* Where call k's buffer at the root is (count elements of t a rank; 0:
 * the inputs): the root says it, having filled the inputs from the buffer
 * first if they are the way and it scatters; every other rank waits to
 * hear it. */
GPUMPI_FN static char *gp_rooted_meet(uint64_t k, int me_root, const void *buf, int count, MPI_Datatype t, size_t bytes,
                                      int scatter, const char *fn)
{
    gp_rooted_slot *slot = gp_rooted_slot_of(k);
    if (!me_root) {
        gp_rooted_wait_for(&slot->tag, (uint32_t)(k + 1), fn);
        return (char *)(uintptr_t)slot->data[0];
    }
    char *shared = gp_rooted_shared_buffer(buf, count, t);
    if (!shared && scatter) gp_rooted_parts(k, 0, (char *)buf, count, t, bytes, gp_thread_rank());
    slot->data[0] = (uint64_t)(uintptr_t)shared;
    gp_store_release(&slot->tag, (uint32_t)(k + 1));
    return shared;
}

/* The bytes of one rank's part of a gather or scatter, as this rank's
 * count and type say, or 0 when the call is not for the tree. */
GPUMPI_FN static size_t gp_rooted_part_bytes(int count, MPI_Datatype t, MPI_Comm comm)
{
    size_t bytes = gp_coll_bytes(count, t);
    return bytes == 0 || bytes > GP_TREE_BYTES || !gp_comm_spans_world(comm) ? 0 : bytes;
}

/* Call k's root, once every rank has counted in: the slot. */
GPUMPI_FN static gp_rooted_slot *gp_rooted_all_in(uint64_t k, const char *fn)
{
    gp_rooted_slot *slot = gp_rooted_slot_of(k);
    gp_rooted_wait_for(&slot->done, (uint32_t)(k + 1), fn);
    return slot;
}

GPUMPI_FN int gp_shm_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int me = gp_thread_rank(), me_root = me == root, in_place = me_root && sendbuf == MPI_IN_PLACE;
    size_t bytes = me_root ? gp_rooted_part_bytes(recvcount, recvtype, comm)
                           : gp_rooted_part_bytes(sendcount, sendtype, comm);
    if (!bytes) return 0;
    uint64_t k = gp_rooted_begin(me_root, "MPI_Gather");
    char *shared = gp_rooted_meet(k, me_root, recvbuf, recvcount, recvtype, bytes, 0, "MPI_Gather");
    if (!in_place && shared) {
        gp_coll_copy(sendbuf, sendcount, sendtype, shared + (size_t)me * bytes, (int)bytes, MPI_BYTE);
    } else if (!in_place) {
        uint64_t v[GP_WORDS];
        gp_coll_copy(sendbuf, sendcount, sendtype, v, (int)bytes, MPI_BYTE);
        for (int w = 0; w < (int)((bytes + 7) / 8); w++) *gp_rooted_input(k, w) = v[w];
    }
    gp_combine_op none = {MPI_OP_NULL, MPI_BYTE, 0, 0, 0};
    gp_rooted_arrive(k, none, GP_END_DONE);
    if (!me_root) return 1;
    gp_rooted_slot *slot = gp_rooted_all_in(k, "MPI_Gather");
    if (!shared) gp_rooted_parts(k, 1, (char *)recvbuf, recvcount, recvtype, bytes, in_place ? me : -1);
    gp_store_release(&slot->uses, gp_rooted_freed(k));
    return 1;
}

GPUMPI_FN int gp_shm_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int me = gp_thread_rank(), me_root = me == root, in_place = me_root && recvbuf == MPI_IN_PLACE;
    size_t bytes = me_root ? gp_rooted_part_bytes(sendcount, sendtype, comm)
                           : gp_rooted_part_bytes(recvcount, recvtype, comm);
    if (!bytes) return 0;
    uint64_t k = gp_rooted_begin(me_root, "MPI_Scatter");
    char *shared = gp_rooted_meet(k, me_root, sendbuf, sendcount, sendtype, bytes, 1, "MPI_Scatter");
    if (me_root) {
        if (!in_place)
            gp_coll_copy((const char *)sendbuf + (size_t)me * (size_t)sendcount * gp_type_extent(sendtype), sendcount,
                         sendtype, recvbuf, recvcount, recvtype);
    } else if (shared) {
        gp_coll_copy(shared + (size_t)me * bytes, (int)bytes, MPI_BYTE, recvbuf, recvcount, recvtype);
    } else {
        uint64_t v[GP_WORDS];
        for (int w = 0; w < (int)((bytes + 7) / 8); w++) v[w] = *gp_rooted_input(k, w);
        gp_coll_copy(v, (int)bytes, MPI_BYTE, recvbuf, recvcount, recvtype);
    }
    /* the inputs' way frees the slot at once; the root's own buffer must
     * stay as it is until every rank has taken its part */
    gp_combine_op none = {MPI_OP_NULL, MPI_BYTE, 0, 0, 0};
    gp_rooted_arrive(k, none, shared ? GP_END_DONE : GP_END_USED);
    if (!me_root || !shared) return 1;
    gp_store_release(&gp_rooted_all_in(k, "MPI_Scatter")->uses, gp_rooted_freed(k));
    return 1;
}

GPUMPI_FN int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    gp_regroup_mark();
    return gp_regrouped(gp_bcast_inline(buffer, count, datatype, root, comm));
}

GPUMPI_FN int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                         MPI_Comm comm)
{
    gp_regroup_mark();
    return gp_regrouped(gp_reduce_inline(sendbuf, recvbuf, count, datatype, op, root, comm));
}
