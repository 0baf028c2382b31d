/* Barrier and small allreduce over MPI_COMM_WORLD through shared memory,
 * not messages: every rank is a thread of one GPU, so a combining tree of
 * arrival counters (fan-in 32) reaches the top in log32(n) atomic steps.
 * 270,000 ranks are four levels.
 * Each node is combined by its last arriver, always in input order, so a
 * floating-point sum is the same from run to run whatever the timing. */
#include "runtime.h"
#include "gpumpi/shim_string.h"

/* Runs one collective on the tree: every rank has put `bytes` bytes (count
 * elements of t) in its input slot (tr->values, one slot per rank) and finds their
 * reduction by op in tr->result when this returns (it stays there until
 * this rank enters the next one); bytes == 0 is a barrier. The last
 * arriver at a node carries it up; the others wait on that node's release
 * word, so waiters spread over many words rather than all polling one.
 * Releases go back down each carrier's path. */
GPUMPI_FN static void gp_tree_run(int count, MPI_Datatype t, MPI_Op op, size_t bytes)
{
    gp_tree *tr = &gp_w()->tree;
    uint32_t idx = (uint32_t)gp_thread_rank(), path[GP_TREE_LEVELS];
    int carried = 0, top = 1;
    uint32_t gen = tr->levels ? gp_load_relaxed(&tr->release[idx >> GP_TREE_FANIN_BITS]) : 0;
    char *acc = tr->values + (size_t)idx * GP_TREE_BYTES;
    for (int level = 0; level < tr->levels; level++) {
        uint32_t node = idx >> GP_TREE_FANIN_BITS, first = node << GP_TREE_FANIN_BITS;
        uint32_t members = tr->inputs[level] - first < GP_TREE_FANIN ? tr->inputs[level] - first : GP_TREE_FANIN;
        uint32_t at = tr->node_base[level] + node;
        if (gp_fetch_add(&tr->counts[at], 1) != members - 1) {
            unsigned spins = 0; /* someone else carries this node up */
            gp_block_enter(bytes ? "MPI_Allreduce" : "MPI_Barrier", MPI_COMM_WORLD, GP_BLOCK_NONE, GP_BLOCK_NONE);
            while (gp_load_acquire(&tr->release[at]) == gen) {
                gp_progress(); /* a peer's send may wait for one of our posted receives */
                gp_block_wait(&spins);
            }
            gp_block_leave();
            top = 0;
            break;
        }
        tr->counts[at] = 0; /* published by the release steps above us */
        char *below = tr->values + ((size_t)tr->value_base[level] + first) * GP_TREE_BYTES;
        char *up = tr->values + ((size_t)tr->value_base[level + 1] + node) * GP_TREE_BYTES;
        if (bytes) { /* up = v[0] op (v[1] op (... op v[members-1])) */
            gp_memcpy(up, below + (size_t)(members - 1) * GP_TREE_BYTES, bytes);
            for (int k = (int)members - 2; k >= 0; k--)
                gp_reduce_apply(op, t, below + (size_t)k * GP_TREE_BYTES, up, count);
        }
        acc = up;
        idx = node;
        path[carried++] = at;
    }
    if (top && bytes) gp_memcpy(tr->result, acc, bytes);
    while (carried > 0) gp_store_release(&tr->release[path[--carried]], gen + 1);
}

GPUMPI_FN int gp_shm_barrier(MPI_Comm comm)
{
    if (comm != MPI_COMM_WORLD || !gp_w()->tree.values) return 0;
    gp_tree_run(0, MPI_BYTE, MPI_OP_NULL, 0);
    return 1;
}

/* Whether a call takes the tree must not depend on how a rank describes
 * its data (the standard lets ranks use different types of the same
 * signature), so it goes by the basic type and the byte count; data of a
 * derived type is packed on the way in and unpacked on the way out. */
GPUMPI_FN int gp_shm_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm)
{
    MPI_Datatype basic = gp_type_basic(t);
    if (comm != MPI_COMM_WORLD || !gp_w()->tree.values || op < MPI_MAX || op > MPI_BXOR || basic == MPI_DATATYPE_NULL)
        return 0;
    size_t bytes = (size_t)count * (size_t)gp_type_size(t);
    int esize = gp_type_size(basic);
    if (bytes == 0 || bytes > GP_TREE_BYTES || esize <= 0) return 0;
    gp_tree *tr = &gp_w()->tree;
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    gp_type_pack(in, count, t, tr->values + (size_t)gp_thread_rank() * GP_TREE_BYTES); /* this rank's input slot */
    gp_tree_run((int)(bytes / (size_t)esize), basic, op, bytes);
    gp_type_unpack(tr->result, bytes, recvbuf, count, t);
    return 1;
}
