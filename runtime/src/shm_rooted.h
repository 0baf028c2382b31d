/* MPI_Bcast and MPI_Reduce over the world without making ranks wait for
 * each other (shm_rooted.cu says how): the path every rank takes, inline,
 * so that a program compiled with this header takes it without a call
 * (inline_calls.h), as MPI_Allreduce's. Through the library's functions
 * the same calls cost each rank the register saves of three calls on its
 * stack: an 8-byte MPI_Bcast / MPI_Reduce over 270,336 ranks took 103 /
 * 197 us, inline 67 / 135 us (H100). The rare paths (a wait, the carrier
 * of a node of the tree) are out of line in shm_rooted.cu. */
#ifndef GPUMPI_SHM_ROOTED_H
#define GPUMPI_SHM_ROOTED_H

#include "shm_collectives.h"

/* How the call's top carrier ends it (gp_rooted_carry_body). */
enum { GP_END_USED, GP_END_RESULT, GP_END_DONE };

GPUMPI_FN __noinline__ void gp_rooted_wait(uint32_t *word, uint32_t want, const char *fn);
GPUMPI_FN __noinline__ void gp_rooted_carry(uint64_t k, unsigned mask, gp_combine_op c);
GPUMPI_FN __noinline__ void gp_rooted_carry_count(uint64_t k, unsigned mask, int end);
GPUMPI_FN __noinline__ void gp_rooted_carry_known(uint64_t k, MPI_Datatype t, MPI_Op op);

GPUMPI_FN static inline gp_rooted_slot *gp_rooted_slot_of(uint64_t k) { return &gp_hot.rooted_slots[k % GP_ROOTED_SLOTS]; }

/* Call k may take its slot once the slot's uses reach this; the uses
 * once call k is through. Calls are counted modulo 2^32 (gp_rank_chip),
 * so uses count modulo 2^32 / GP_ROOTED_SLOTS. */
#define GP_ROOTED_USE_MASK (0xffffffffu / GP_ROOTED_SLOTS)
GPUMPI_FN static inline uint32_t gp_rooted_use(uint64_t k) { return (uint32_t)(k / GP_ROOTED_SLOTS) & GP_ROOTED_USE_MASK; }
GPUMPI_FN static inline uint32_t gp_rooted_freed(uint64_t k) { return (gp_rooted_use(k) + 1) & GP_ROOTED_USE_MASK; }

/* Waits for *word == want. A rank with nothing to keep moving and no
 * --stats looks again inline for a while (about 45 us of sleeps growing
 * to 1 us) before it calls gp_rooted_wait: at full occupancy a call's
 * register saves stream through DRAM, and a broadcast's non-roots all
 * called it (270,336 ranks, H200: an 8-byte MPI_Bcast 32.7 -> 25.5 us,
 * MPI_Reduce 41.5 -> 35.9 us). */
GPUMPI_FN static __forceinline__ void gp_rooted_wait_for(uint32_t *word, uint32_t want, const char *fn)
{
    if (gp_load_acquire(word) == want) return;
    if (gp_wait_inline_ok())
        for (unsigned spins = 0; spins < 96;) {
            gp_pause_upto(&spins, 1000);
            if (gp_load_acquire(word) == want) return;
        }
    gp_rooted_wait(word, want, fn);
}

/* This rank's next call here and its slot, once everyone is through with
 * the slot's previous call (`take`: the ranks that write into it). */
GPUMPI_FN static __forceinline__ uint64_t gp_rooted_begin(int take, const char *fn)
{
    uint64_t k = gp_chip()->rooted_calls++;
    if (take) gp_rooted_wait_for(&gp_rooted_slot_of(k)->uses, gp_rooted_use(k), fn);
    return k;
}

/* Word w of rank r's input of call k's tree (level 0: one per rank),
 * word by word so that a warp's ranks write one line. */
GPUMPI_FN static inline uint64_t *gp_rooted_input_of(uint64_t k, int w, int r)
{
    size_t plane = gp_hot.rooted_plane;
    return gp_hot.rooted_values + ((k % GP_ROOTED_SLOTS) * GP_WORDS + (size_t)w) * plane + (size_t)r;
}
GPUMPI_FN static inline uint64_t *gp_rooted_input(uint64_t k, int w) { return gp_rooted_input_of(k, w, gp_thread_rank()); }

/* The count of arrivals at node `node` (numbered across levels, level 0
 * first) of call k's tree: each node's counts of the slots side by side. */
GPUMPI_FN static inline uint32_t *gp_rooted_count(size_t node, uint64_t k)
{
    return &gp_hot.rooted_counts[node * GP_ROOTED_SLOTS + k % GP_ROOTED_SLOTS];
}

/* Counts this rank in at its node of call k's tree (its value, if any,
 * left at its input), with the lanes here in the same call and node: one
 * atomic, none when they are the whole node. The group that completes the
 * node carries it on. A warp's lanes may be in different calls (a
 * loop's), or nodes (blocks that are not whole warps). */
GPUMPI_FN static __forceinline__ void gp_rooted_arrive(uint64_t k, gp_combine_op c, int end)
{
    uint32_t node = (uint32_t)gp_thread_rank() >> GP_TREE_FANIN_BITS, left = (uint32_t)gp_hot.nranks - (node << GP_TREE_FANIN_BITS);
    unsigned mask = gp_warp_match64(gp_warp_here(), k << 32 | node);
    int leader = gp_lowest_bit(mask), size = gp_popc(mask);
    uint32_t members = left < GP_TREE_FANIN ? left : GP_TREE_FANIN;
    if ((uint32_t)size != members) { /* the node's lanes came apart: count in */
        uint32_t old = 0;
        gp_warp_converge(mask); /* the group's values before its count */
        if (gp_lane_id() == leader)
            old = gp_fetch_add(gp_rooted_count(node, k), (uint32_t)size);
        old = (uint32_t)gp_warp_shfl64(mask, old, leader);
        if (old + (uint32_t)size != members) return;
    }
    if (c.words == 0)
        gp_rooted_carry_count(k, mask, end);
    else if (c.known && c.words == 1 && c.count == 1 && mask == 0xffffffffu)
        gp_rooted_carry_known(k, c.t, c.op);
    else
        gp_rooted_carry(k, mask, c);
}

/* A reduction's call k: every rank counts in with its value (words of
 * v), and the root gets the result in v. */
GPUMPI_FN static __forceinline__ void gp_rooted_reduce(uint64_t k, uint64_t *v, gp_combine_op c, int root)
{
    for (int w = 0; w < c.words; w++) *gp_rooted_input(k, w) = v[w];
    gp_rooted_arrive(k, c, GP_END_RESULT);
    if (gp_thread_rank() != root) return;
    gp_rooted_slot *slot = gp_rooted_slot_of(k);
    gp_rooted_wait_for(&slot->tag, (uint32_t)(k + 1), "MPI_Reduce");
    for (int w = 0; w < c.words; w++) v[w] = slot->data[w];
    gp_store_release(&slot->uses, gp_rooted_freed(k));
}

/* Up to 8 bytes of a basic type over MPI_COMM_WORLD, inline; anything
 * else to gp_bcast_call (coll_barrier_bcast.cu), which checks and may
 * still come to gp_shm_bcast. */
GPUMPI_FN static __forceinline__ int gp_bcast_inline(void *buf, int count, MPI_Datatype datatype, int root,
                                                     MPI_Comm comm)
{
    size_t bytes = (size_t)count * (size_t)gp_basic_type_size(datatype);
    if (comm != MPI_COMM_WORLD || count <= 0 || bytes == 0 || bytes > 8 || (unsigned)root >= (unsigned)gp_hot.nranks)
        return gp_bcast_call(0, buf, count, datatype, root, comm);
    if (!gp_flag(GP_RF_INIT)) return gp_check_world("MPI_Bcast"); /* no pointers: inline_calls.h */
    int me_root = gp_thread_rank() == root;
    uint64_t k = gp_rooted_begin(me_root, "MPI_Bcast");
    gp_rooted_slot *slot = gp_rooted_slot_of(k);
    if (me_root) {
        slot->data[0] = gp_land_bytes(buf, bytes);
        gp_store_release(&slot->tag, (uint32_t)(k + 1));
    } else {
        gp_rooted_wait_for(&slot->tag, (uint32_t)(k + 1), "MPI_Bcast");
        gp_land_put_bytes(buf, slot->data[0], bytes);
    }
    gp_combine_op none = {MPI_OP_NULL, MPI_BYTE, 0, 0, 0};
    gp_rooted_arrive(k, none, GP_END_USED);
    return MPI_SUCCESS;
}

/* One element of double, float, int or long with MAX, MIN, SUM or PROD
 * over MPI_COMM_WORLD, inline (as gp_allreduce_inline); anything else to
 * gp_reduce_call (coll_reduce.cu). */
GPUMPI_FN static __forceinline__ int gp_reduce_inline(const void *sendbuf, void *recvbuf, int count,
                                                      MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    if (comm != MPI_COMM_WORLD || count != 1 || !gp_reduce_is_known(op, datatype) ||
        (unsigned)root >= (unsigned)gp_hot.nranks || sendbuf == MPI_IN_PLACE || sendbuf == recvbuf)
        return gp_reduce_call(0, sendbuf, recvbuf, count, datatype, op, root, comm);
    if (!gp_flag(GP_RF_INIT)) return gp_check_world("MPI_Reduce");
    int wide = datatype == MPI_DOUBLE || datatype == MPI_LONG;
    uint64_t v = wide ? *(const uint64_t *)sendbuf : *(const uint32_t *)sendbuf;
    uint64_t k = gp_rooted_begin(1, "MPI_Reduce");
    gp_combine_op c = {op, datatype, 1, 1, 1};
    gp_rooted_reduce(k, &v, c, root);
    if (gp_thread_rank() != root) return MPI_SUCCESS;
    if (wide)
        *(uint64_t *)recvbuf = v;
    else
        *(uint32_t *)recvbuf = (uint32_t)v;
    return MPI_SUCCESS;
}

#endif
