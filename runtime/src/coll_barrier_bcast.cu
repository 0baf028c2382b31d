/* The barrier on messages (dissemination: ceil(log2 n) rounds, each rank
 * sending and receiving one empty message per round; MPI_Barrier itself,
 * and its on-chip path over the world, are in shm_collectives.cu) and MPI_Bcast: a binomial tree
 * (each rank receives from its parent, then sends to all its children at
 * once, the largest subtree first); for large messages the message is cut
 * into n chunks, scattered down the binomial tree and allgathered (by
 * recursive doubling when n is a power of two, else around a ring), which
 * moves about twice the message per rank instead of log2(n) times. */
#include "coll.h"
#include "gpumpi/shim_string.h"

/* From this many bytes on, broadcasts are scattered and allgathered (with
 * chunks of at least GP_BCAST_CHUNK bytes when n is not a power of two:
 * the ring takes n - 1 rounds). */
#define GP_BCAST_LARGE 16384
#define GP_BCAST_CHUNK 4096

GPUMPI_FN static int gp_barrier_round(gp_sched *s, int k)
{
    if (k > 30 || (1 << k) >= s->n) return 0;
    int d = 1 << k;
    gp_sched_send(s, (s->me + d) % s->n, s->inline_buf, 0, MPI_BYTE);
    gp_sched_recv(s, (s->me - d + s->n) % s->n, s->inline_buf, 0, MPI_BYTE, 1);
    return 1;
}

GPUMPI_FN void gp_coll_barrier(gp_sched *s, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Barrier", comm);
    gp_sched_add_phase(s, gp_barrier_round);
}

GPUMPI_FN static int gp_bcast_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int rel = gp_tree_rel(s, a->root), size = gp_tree_subtree(rel, s->n);
    if (k == 0) {
        if (rel) gp_sched_recv(s, gp_tree_real(s, a->root, gp_tree_parent(rel)), a->rbuf, a->rcount, a->rtype, 1);
        return 1;
    }
    if (k > 1) return 0;
    for (int m = gp_pow2_below(size); m > 0; m >>= 1)
        gp_sched_send(s, gp_tree_real(s, a->root, rel + m), a->rbuf, a->rcount, a->rtype);
    return 1;
}

/* ---- large: scatter, then allgather, of chunks of the packed message ---- */

/* The first byte of chunk i (relative rank i's), or of the chunks up to i. */
GPUMPI_FN static size_t gp_chunk_at(gp_sched *s, int i)
{
    size_t at = (size_t)i * s->tree.block;
    return at < s->tree.bytes ? at : s->tree.bytes;
}

GPUMPI_FN static void gp_chunks_send(gp_sched *s, int rel_to, int from, int to)
{
    size_t a = gp_chunk_at(s, from), b = gp_chunk_at(s, to);
    gp_sched_send(s, gp_tree_real(s, s->a.root, rel_to), s->tree.buf + a, (int)(b - a), MPI_BYTE);
}

GPUMPI_FN static void gp_chunks_recv(gp_sched *s, int rel_from, int from, int to)
{
    size_t a = gp_chunk_at(s, from), b = gp_chunk_at(s, to);
    gp_sched_recv(s, gp_tree_real(s, s->a.root, rel_from), s->tree.buf + a, (int)(b - a), MPI_BYTE, 1);
}

GPUMPI_FN static int gp_bcast_scatter_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int rel = gp_tree_rel(s, a->root), size = gp_tree_subtree(rel, s->n);
    if (k == 0) {
        if (rel)
            gp_chunks_recv(s, gp_tree_parent(rel), rel, rel + size);
        else if (s->tree.buf != gp_coll_contiguous(a->rbuf, a->rcount, a->rtype))
            gp_type_pack(a->rbuf, a->rcount, a->rtype, s->tree.buf);
        return 1;
    }
    for (int m = gp_pow2_below(size); m > 0; m >>= 1) {
        int blocks = m < size - m ? m : size - m;
        gp_chunks_send(s, rel + m, rel + m, rel + m + blocks);
    }
    return 0;
}

GPUMPI_FN static int gp_bcast_allgather_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int n = s->n, rel = gp_tree_rel(s, a->root);
    if ((n & (n - 1)) == 0) { /* recursive doubling */
        int d = k > 30 ? n : 1 << k;
        if (d < n) {
            int base = rel & ~(d - 1), partner = rel ^ d, pbase = partner & ~(d - 1);
            gp_chunks_send(s, partner, base, base + d);
            gp_chunks_recv(s, partner, pbase, pbase + d);
            return 1;
        }
    } else if (k < n - 1) { /* ring: pass on the chunk received last */
        int out = ((rel - k) % n + n) % n, in = ((rel - k - 1) % n + n) % n;
        gp_chunks_send(s, (rel + 1) % n, out, out + 1);
        gp_chunks_recv(s, (rel - 1 + n) % n, in, in + 1);
        return 1;
    }
    if (rel && s->tree.buf != gp_coll_contiguous(a->rbuf, a->rcount, a->rtype))
        gp_type_unpack(s->tree.buf, s->tree.bytes, a->rbuf, a->rcount, a->rtype);
    return 0;
}

GPUMPI_FN void gp_coll_bcast(gp_sched *s, void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Bcast", comm);
    s->rooted = 1;
    size_t bytes = gp_coll_bytes(count, type);
    if (bytes == 0) return; /* every rank's signature is the same: all skip */
    s->a.rbuf = buf;
    s->a.rcount = count;
    s->a.rtype = type;
    s->a.root = root;
    int n = s->n;
    if (n < 4 || bytes < GP_BCAST_LARGE || ((n & (n - 1)) && bytes / (size_t)n < GP_BCAST_CHUNK)) {
        gp_sched_add_phase(s, gp_bcast_round);
        return;
    }
    char *direct = gp_coll_contiguous(buf, count, type);
    s->tree.buf = direct ? direct : (char *)gp_sched_scratch(s, bytes);
    s->tree.bytes = bytes;
    s->tree.block = (bytes + (size_t)n - 1) / (size_t)n;
    gp_sched_add_phase(s, gp_bcast_scatter_round);
    gp_sched_add_phase(s, gp_bcast_allgather_round);
}

GPUMPI_FN int gp_barrier_call(const gp_coll_nb *nb, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Barrier");
    GP_TRY(gp_comm_check(fn, comm));
    if (gp_coll_is_inter(comm)) return gp_inter_barrier(nb, comm);
    if (!nb && comm != MPI_COMM_WORLD && gp_comm_spans_world(comm)) return MPI_Barrier(MPI_COMM_WORLD);
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_barrier(s, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int gp_bcast_call(const gp_coll_nb *nb, void *buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Bcast");
    GP_TRY(gp_comm_check(fn, comm));
    if (gp_coll_is_inter(comm))
        return gp_inter_rooted(nb, fn, comm, 0, root, buffer, count, datatype, buffer, count, datatype, 0, 0);
    GP_TRY(gp_type_check(comm, fn, datatype, count));
    GP_TRY(gp_coll_check_root(comm, fn, root));
    GP_TRY(gp_coll_check_not_in_place(comm, fn, buffer, "the buffer"));
    if (!nb && gp_shm_bcast(buffer, count, datatype, root, comm)) return MPI_SUCCESS;
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_bcast(s, buffer, count, datatype, root, comm);
    return gp_coll_go(nb, s);
}

/* MPI_Bcast itself is in shm_rooted.cu: its fast path is inline (shm_rooted.h). */
