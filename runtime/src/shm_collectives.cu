/* Barrier and small allreduce over MPI_COMM_WORLD through shared memory,
 * not messages: every rank is a thread of one GPU, so a combining tree of
 * arrival counters (fan-in 32) reaches the top in log32(n) atomic steps,
 * and waiters watch one generation word. 270,000 ranks are four levels.
 * Each node is combined by its last arriver, always in input order, so a
 * floating-point sum is the same from run to run whatever the timing. */
#include "runtime.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN static size_t gp_tree_value_base(int n, int level)
{
    size_t off = 0;
    for (int l = 0; l < level; l++) off += (size_t)gp_tree_inputs(n, l);
    return off;
}

GPUMPI_FN static size_t gp_tree_node_base(int n, int level)
{
    size_t off = 0;
    for (int l = 0; l < level; l++) off += (size_t)gp_tree_inputs(n, l + 1);
    return off;
}

/* Runs one collective on the tree: every rank puts in `bytes` bytes (count
 * elements of t) and gets back their reduction by op; bytes == 0 is a barrier. */
GPUMPI_FN static void gp_tree_run(const void *in, void *out, int count, MPI_Datatype t, MPI_Op op, size_t bytes)
{
    gp_world *w = gp_w();
    gp_tree *tr = &w->tree;
    int n = w->nranks, idx = gp_thread_rank();
    uint32_t gen = gp_load_acquire(&tr->generation); /* before arriving: the top bumps it after */
    char *acc = tr->values + (size_t)idx * GP_TREE_BYTES;
    if (bytes) gp_memcpy(acc, in, bytes);
    int top = 1;
    for (int level = 0; gp_tree_inputs(n, level) > 1; level++) {
        int inputs = gp_tree_inputs(n, level), node = idx / GP_TREE_FANIN;
        int first = node * GP_TREE_FANIN, members = inputs - first < GP_TREE_FANIN ? inputs - first : GP_TREE_FANIN;
        uint32_t *count_at = &tr->counts[gp_tree_node_base(n, level) + (size_t)node];
        if (gp_fetch_add(count_at, 1) != (uint32_t)members - 1) {
            top = 0; /* someone else carries this node up */
            break;
        }
        *count_at = 0; /* published by the release steps above us */
        char *level_values = tr->values + gp_tree_value_base(n, level) * GP_TREE_BYTES;
        char *up = tr->values + (gp_tree_value_base(n, level + 1) + (size_t)node) * GP_TREE_BYTES;
        if (bytes) { /* up = v[first] op (v[first+1] op (... op v[last])) */
            gp_memcpy(up, level_values + (size_t)(first + members - 1) * GP_TREE_BYTES, bytes);
            for (int k = members - 2; k >= 0; k--)
                gp_reduce_apply(op, t, level_values + (size_t)(first + k) * GP_TREE_BYTES, up, count);
        }
        acc = up;
        idx = node;
    }
    if (top) {
        if (bytes) gp_memcpy(tr->result, acc, bytes);
        gp_store_release(&tr->generation, gen + 1);
    } else {
        unsigned spins = 0;
        while (gp_load_acquire(&tr->generation) == gen) gp_pause(&spins);
    }
    if (bytes) gp_memcpy(out, tr->result, bytes);
}

GPUMPI_FN int gp_shm_barrier(MPI_Comm comm)
{
    if (comm != MPI_COMM_WORLD || !gp_w()->tree.counts) return 0;
    gp_tree_run(0, 0, 0, MPI_BYTE, MPI_OP_NULL, 0);
    return 1;
}

GPUMPI_FN int gp_shm_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm)
{
    if (comm != MPI_COMM_WORLD || !gp_w()->tree.counts || op > MPI_BXOR || gp_type_basic(t) != t) return 0;
    size_t bytes = (size_t)count * (size_t)gp_type_size(t);
    if (bytes == 0 || bytes > GP_TREE_BYTES) return 0;
    gp_tree_run(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, t, op, bytes);
    return 1;
}
