/* MPI_Reduce, MPI_Allreduce, MPI_Reduce_local.
 *
 * Reduce: binomial tree. A node receives its children's partial results in
 * a fixed order (nearest child first) and combines each into its
 * accumulator, then sends it to its parent: the tree's shape, not message
 * arrival, fixes how floating-point sums round. Each node's subtree is a
 * contiguous range of ranks above it, so with a non-commutative operation
 * (tree rooted at rank 0) every combination is (lower ranks) op (higher
 * ranks); the result then goes from rank 0 to the root.
 *
 * Allreduce: recursive doubling. With n not a power of two, the first 2*rem
 * ranks (rem = n - pof2) pair up first, even into odd, so pof2 ranks each
 * hold a contiguous range of ranks; those exchange with partners at
 * distance 1, 2, 4, ... and both partners combine (lower) op (higher), so
 * every rank ends with the same bits; the odd ranks send the result back.
 *
 * Large vectors with a commutative operation: reduce-scatter, then gather
 * or allgather (below). */
#include "coll.h"
#include "gpumpi/shim_stdlib.h"

/* From this many bytes on, reduce and allreduce of a commutative operation
 * go by reduce-scatter, then gather or allgather (fewer bytes moved and
 * combined per rank, more rounds). */
#define GP_REDUCE_LARGE 16384

GPUMPI_FN void gp_reduce_setup(gp_sched *s, const void *in, int count, MPI_Datatype type, MPI_Op op, int root,
                               void *res, int res_count, MPI_Datatype res_type)
{
    gp_red_state *r = &s->red;
    r->in = in;
    r->count = count;
    r->type = type;
    r->op = op;
    r->commutes = gp_op_commutative(op);
    r->root = root;
    r->res = res;
    r->res_count = res_count;
    r->res_type = res_type;
}

/* Folds the operand received last round into the accumulator. */
GPUMPI_FN static void gp_red_combine(gp_sched *s)
{
    gp_red_state *r = &s->red;
    if (!r->got) return;
    r->got = 0;
    if (r->got_lower || r->commutes) {
        gp_sched_reduce(s, r->tmp, r->acc, r->count, r->type, r->op); /* acc = tmp op acc */
    } else {
        gp_sched_reduce(s, r->acc, r->tmp, r->count, r->type, r->op); /* tmp = acc op tmp: the result is in tmp */
        char *t = r->acc;
        r->acc = r->tmp;
        r->tmp = t;
    }
}

/* The accumulator and the receive buffer; the accumulator is the result
 * buffer itself when the result can be built there in place. */
GPUMPI_FN static void gp_red_buffers(gp_sched *s, int result_here)
{
    gp_red_state *r = &s->red;
    size_t bytes = gp_coll_bytes(r->count, r->type);
    char *res = result_here && r->res ? gp_coll_contiguous(r->res, r->res_count, r->res_type) : 0;
    r->acc = res ? res : (char *)gp_sched_scratch(s, bytes);
    r->tmp = (char *)gp_sched_scratch(s, bytes);
    if ((const void *)r->acc != r->in) gp_coll_copy(r->in, r->count, r->type, r->acc, (int)bytes, MPI_BYTE);
}

/* The result, from the accumulator to where it goes. */
GPUMPI_FN static void gp_red_store(gp_sched *s)
{
    gp_red_state *r = &s->red;
    if (r->res && (void *)r->acc != gp_coll_contiguous(r->res, r->res_count, r->res_type))
        gp_coll_copy(r->acc, (int)gp_coll_bytes(r->count, r->type), MPI_BYTE, r->res, r->res_count, r->res_type);
}

GPUMPI_FN int gp_reduce_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    int n = s->n, rel = gp_tree_rel(s, r->root);
    if (r->finished) return 0;
    if (k == 0) {
        if (gp_tree_subtree(rel, n) == 1) { /* a leaf sends its operand as it is */
            r->finished = 1;
            if (rel) {
                gp_sched_send(s, gp_tree_real(s, r->root, gp_tree_parent(rel)), r->in, r->count, r->type);
                return 1;
            }
            if (r->res) { /* one rank */
                if (r->res != r->in) gp_coll_copy(r->in, r->count, r->type, r->res, r->res_count, r->res_type);
            } else {
                gp_red_buffers(s, 0);
            }
            return 0;
        }
        gp_red_buffers(s, rel == 0 && r->commutes);
    }
    gp_red_combine(s);
    int m = k > 30 ? n : 1 << k;
    if (m >= n || (rel & m)) {
        r->finished = 1;
        if (rel == 0) {
            gp_red_store(s);
            return 0;
        }
        gp_sched_send(s, gp_tree_real(s, r->root, rel - m), r->acc, (int)gp_coll_bytes(r->count, r->type),
                      MPI_BYTE);
        return 1;
    }
    if (rel + m < n) {
        gp_sched_recv(s, gp_tree_real(s, r->root, rel + m), r->tmp, (int)gp_coll_bytes(r->count, r->type),
                      MPI_BYTE, 1);
        r->got = 1;
        r->got_lower = 0;
    }
    return 1;
}

/* A non-commutative reduction to a root other than 0: rank 0 has the
 * result (in its accumulator) and sends it on. */
GPUMPI_FN static int gp_reduce_hop_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    if (k) return 0;
    if (s->me == 0) gp_sched_send(s, s->a.root, r->acc, (int)gp_coll_bytes(r->count, r->type), MPI_BYTE);
    if (s->me == s->a.root) gp_sched_recv(s, 0, s->a.rbuf, r->count, r->type, 1);
    return 1;
}

/* Recursive doubling's shape: pof2 ranks take part, the first 2*rem fold
 * in pairs; newrank is a rank's number among the pof2 (-1: folded in). */
typedef struct {
    int pof2, steps, rem, newrank;
} gp_rd_shape;

GPUMPI_FN static gp_rd_shape gp_rd_shape_of(int n, int me)
{
    gp_rd_shape h;
    h.pof2 = 1;
    h.steps = 0;
    while (h.pof2 <= n - h.pof2) {
        h.pof2 <<= 1;
        h.steps++;
    }
    h.rem = n - h.pof2;
    h.newrank = me < 2 * h.rem ? ((me & 1) ? me / 2 : -1) : me - h.rem;
    return h;
}

GPUMPI_FN static int gp_rd_real(gp_rd_shape h, int newrank)
{
    return newrank < h.rem ? 2 * newrank + 1 : newrank + h.rem;
}

/* Round 0 of both allreduce algorithms: the operand into the accumulator,
 * and the first 2*rem ranks fold, even into odd. */
GPUMPI_FN static void gp_allreduce_fold(gp_sched *s, gp_rd_shape h)
{
    gp_red_state *r = &s->red;
    int me = s->me, bytes = (int)gp_coll_bytes(r->count, r->type);
    gp_red_buffers(s, 1);
    if (me >= 2 * h.rem) return;
    if (me & 1) {
        gp_sched_recv(s, me - 1, r->tmp, bytes, MPI_BYTE, 1);
        r->got = 1;
        r->got_lower = 1;
    } else {
        gp_sched_send(s, me + 1, r->acc, bytes, MPI_BYTE);
    }
}

/* The last rounds of both: the odd ranks send the result back to the even
 * ones they folded; then the result goes where it belongs. */
GPUMPI_FN static int gp_allreduce_unfold(gp_sched *s, gp_rd_shape h, int last)
{
    gp_red_state *r = &s->red;
    int me = s->me;
    if (!last) {
        if (me < 2 * h.rem) {
            if (me & 1) {
                gp_sched_send(s, me - 1, r->acc, (int)gp_coll_bytes(r->count, r->type), MPI_BYTE);
            } else {
                gp_sched_recv(s, me + 1, r->res, r->res_count, r->res_type, 1);
                r->finished = 1; /* the result came straight into the receive buffer */
            }
        }
        return 1;
    }
    if (!r->finished) gp_red_store(s);
    return 0;
}

GPUMPI_FN static int gp_allreduce_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    int me = s->me, bytes = (int)gp_coll_bytes(r->count, r->type);
    gp_rd_shape h = gp_rd_shape_of(s->n, me);
    if (k == 0) {
        gp_allreduce_fold(s, h);
        return 1;
    }
    gp_red_combine(s);
    if (k <= h.steps) {
        if (h.newrank < 0) return 1; /* folded in: waits for the result */
        int p = gp_rd_real(h, h.newrank ^ (1 << (k - 1)));
        gp_sched_send(s, p, r->acc, bytes, MPI_BYTE);
        gp_sched_recv(s, p, r->tmp, bytes, MPI_BYTE, 1);
        r->got = 1;
        r->got_lower = p < me;
        return 1;
    }
    return gp_allreduce_unfold(s, h, k > h.steps + 1);
}

/* Large vectors, commutative operations: reduce-scatter by recursive
 * halving (each of the pof2 ranks ends with one block of the vector fully
 * combined), then allgather by recursive doubling (allreduce) or a
 * binomial gather to newrank 0 and on to the root (reduce): about twice
 * the vector moved and once combined per rank, instead of log2(n) times.
 * Each block is combined in one place in a fixed order, so every rank gets
 * the same bits. */
GPUMPI_FN static int gp_coll_large(gp_sched *s, int count, MPI_Datatype type)
{
    return s->n > 2 && count >= s->n && gp_coll_bytes(count, type) >= GP_REDUCE_LARGE;
}

/* Block b of a vector of count elements cut in `parts`: its first element. */
GPUMPI_FN static long gp_block_start(int count, int parts, int b)
{
    int q = count / parts, rem = count % parts;
    return (long)b * q + (b < rem ? b : rem);
}

/* Folds in the partner's copy of the blocks this rank kept in the last
 * halving step. */
GPUMPI_FN static void gp_halving_combine(gp_sched *s, gp_rd_shape h)
{
    gp_red_state *r = &s->red;
    if (!r->got) return;
    int esize = gp_type_size(r->type);
    long first = gp_block_start(r->count, h.pof2, r->lo), end = gp_block_start(r->count, h.pof2, r->hi);
    gp_sched_reduce(s, r->tmp + first * esize, r->acc + first * esize, (int)(end - first), r->type, r->op);
    r->got = 0;
}

/* Sends blocks [send_lo, send_hi) of the accumulator to peer and receives
 * its [recv_lo, recv_hi): into tmp to be combined, or straight into place
 * (an empty range is not sent). */
GPUMPI_FN static void gp_blocks_exchange(gp_sched *s, gp_rd_shape h, int peer, int send_lo, int send_hi, int recv_lo,
                                         int recv_hi, int combine)
{
    gp_red_state *r = &s->red;
    int esize = gp_type_size(r->type);
    if (send_hi > send_lo) {
        long s0 = gp_block_start(r->count, h.pof2, send_lo), s1 = gp_block_start(r->count, h.pof2, send_hi);
        gp_sched_send(s, peer, r->acc + s0 * esize, (int)((s1 - s0) * esize), MPI_BYTE);
    }
    if (recv_hi > recv_lo) {
        long r0 = gp_block_start(r->count, h.pof2, recv_lo), r1 = gp_block_start(r->count, h.pof2, recv_hi);
        gp_sched_recv(s, peer, (combine ? r->tmp : r->acc) + r0 * esize, (int)((r1 - r0) * esize), MPI_BYTE, 1);
        r->got = combine;
    }
}

/* Round k (1 .. steps) of the reduce-scatter: keep the half of the blocks
 * on this rank's side of bit pof2 >> k, send the partner the other half. */
GPUMPI_FN static void gp_halving_step(gp_sched *s, gp_rd_shape h, int k)
{
    gp_red_state *r = &s->red;
    int m = h.pof2 >> k, mid = (r->lo + r->hi) / 2, upper = (h.newrank & m) != 0;
    int keep_lo = upper ? mid : r->lo, keep_hi = upper ? r->hi : mid;
    gp_blocks_exchange(s, h, gp_rd_real(h, h.newrank ^ m), upper ? r->lo : mid, upper ? mid : r->hi, keep_lo,
                       keep_hi, 1);
    r->lo = keep_lo;
    r->hi = keep_hi;
}

GPUMPI_FN static int gp_allreduce_large_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    gp_rd_shape h = gp_rd_shape_of(s->n, s->me);
    if (k == 0) {
        r->lo = 0;
        r->hi = h.pof2;
        gp_allreduce_fold(s, h);
        return 1;
    }
    if (k == 1) gp_red_combine(s); /* the folded operand: the whole vector */
    gp_halving_combine(s, h);
    if (k > 2 * h.steps) return gp_allreduce_unfold(s, h, k > 2 * h.steps + 1);
    if (h.newrank < 0) return 1;
    if (k <= h.steps) {
        gp_halving_step(s, h, k);
        return 1;
    }
    /* allgather by recursive doubling: swap the blocks gathered so far */
    int m = 1 << (k - h.steps - 1), other = r->lo ^ m;
    gp_blocks_exchange(s, h, gp_rd_real(h, h.newrank ^ m), r->lo, r->hi, other, other + m, 0);
    r->lo = r->lo < other ? r->lo : other;
    r->hi = r->lo + 2 * m;
    return 1;
}

GPUMPI_FN static int gp_reduce_large_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    int root = s->a.root;
    gp_rd_shape h = gp_rd_shape_of(s->n, s->me);
    int holder = gp_rd_real(h, 0); /* newrank 0: ends with the whole result */
    if (k == 0) {
        r->lo = 0;
        r->hi = h.pof2;
        gp_allreduce_fold(s, h);
        return 1;
    }
    if (k == 1) gp_red_combine(s);
    gp_halving_combine(s, h);
    if (k <= 2 * h.steps) {
        if (h.newrank < 0 || r->finished) return 1;
        if (k <= h.steps) {
            gp_halving_step(s, h, k);
            return 1;
        }
        /* binomial gather: at step m a rank holds blocks [newrank, newrank + m) */
        int m = 1 << (k - h.steps - 1);
        if (h.newrank & m) {
            gp_blocks_exchange(s, h, gp_rd_real(h, h.newrank - m), r->lo, r->hi, 0, 0, 0);
            r->finished = 1;
        } else {
            gp_blocks_exchange(s, h, gp_rd_real(h, h.newrank + m), 0, 0, r->hi, r->hi + m, 0);
            r->hi += m;
        }
        return 1;
    }
    if (holder == root) {
        if (s->me == root) gp_red_store(s);
        return 0;
    }
    if (s->me == holder) gp_sched_send(s, root, r->acc, (int)gp_coll_bytes(r->count, r->type), MPI_BYTE);
    if (s->me == root) gp_sched_recv(s, holder, r->res, r->res_count, r->res_type, 1);
    return 0;
}

GPUMPI_FN void gp_coll_reduce(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                              int root, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Reduce", comm);
    s->rooted = 1;
    if (gp_coll_bytes(count, type) == 0) return;
    const void *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    s->a.rbuf = rbuf;
    s->a.root = root;
    if (gp_op_commutative(op) && gp_coll_large(s, count, type)) {
        gp_reduce_setup(s, in, count, type, op, root, s->me == root ? rbuf : 0, count, type);
        gp_sched_add_phase(s, gp_reduce_large_round);
    } else if (gp_op_commutative(op) || root == 0) {
        gp_reduce_setup(s, in, count, type, op, root, s->me == root ? rbuf : 0, count, type);
        gp_sched_add_phase(s, gp_reduce_round);
    } else {
        gp_reduce_setup(s, in, count, type, op, 0, 0, count, type);
        gp_sched_add_phase(s, gp_reduce_round);
        gp_sched_add_phase(s, gp_reduce_hop_round);
    }
}

GPUMPI_FN void gp_coll_allreduce(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Allreduce", comm);
    if (gp_coll_bytes(count, type) == 0) return;
    gp_reduce_setup(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type, op, 0, rbuf, count, type);
    int large = s->red.commutes && gp_coll_large(s, count, type);
    gp_sched_add_phase(s, large ? gp_allreduce_large_round : gp_allreduce_round);
}

GPUMPI_FN int gp_reduce_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, int root, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Reduce");
    GP_TRY(gp_comm_check(fn, comm));
    GP_TRY(gp_type_check(comm, fn, datatype, count));
    GP_TRY(gp_coll_check_op(comm, fn, op, datatype));
    if (gp_coll_is_inter(comm)) return gp_inter_reduce(nb, sendbuf, recvbuf, count, datatype, op, root, comm);
    GP_TRY(gp_coll_check_root(comm, fn, root));
    if (gp_comm_rank(comm) == root) {
        GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
        GP_TRY(gp_coll_check_alias(comm, fn, sendbuf, recvbuf, gp_coll_bytes(count, datatype)));
    } else {
        GP_TRY(gp_coll_check_not_in_place(comm, fn, sendbuf, "the send buffer (only the root may use it)"));
    }
    if (!nb && gp_shm_reduce(sendbuf, recvbuf, count, datatype, op, root, comm)) return MPI_SUCCESS;
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_reduce(s, sendbuf, recvbuf, count, datatype, op, root, comm);
    return gp_coll_go(nb, s);
}

/* MPI_Reduce itself is in shm_rooted.cu: its fast path is inline (shm_rooted.h). */

GPUMPI_FN int gp_allreduce_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Allreduce");
    GP_TRY(gp_comm_check(fn, comm));
    GP_TRY(gp_type_check(comm, fn, datatype, count));
    GP_TRY(gp_coll_check_op(comm, fn, op, datatype));
    if (gp_coll_is_inter(comm))
        return gp_inter_allreduce(nb, fn, sendbuf, recvbuf, count, datatype, op, 0, 0, 0, comm);
    GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
    GP_TRY(gp_coll_check_alias(comm, fn, sendbuf, recvbuf, gp_coll_bytes(count, datatype)));
    if (!nb && gp_shm_allreduce(sendbuf, recvbuf, count, datatype, op, comm)) return MPI_SUCCESS; /* it blocks */
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_allreduce(s, sendbuf, recvbuf, count, datatype, op, comm);
    return gp_coll_go(nb, s);
}

/* inoutbuf = inbuf op inoutbuf, on this rank alone (through packed copies
 * when the datatype is not contiguous). */
GPUMPI_FN int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    const char *fn = "MPI_Reduce_local";
    GP_TRY(gp_check_initialized(fn));
    GP_TRY(gp_type_check(MPI_COMM_WORLD, fn, datatype, count));
    GP_TRY(gp_coll_check_op(MPI_COMM_WORLD, fn, op, datatype));
    GP_TRY(gp_coll_check_not_in_place(MPI_COMM_WORLD, fn, inbuf, "the input buffer"));
    GP_TRY(gp_coll_check_not_in_place(MPI_COMM_WORLD, fn, inoutbuf, "the input/output buffer"));
    size_t bytes = gp_coll_bytes(count, datatype);
    if (bytes == 0) return MPI_SUCCESS;
    char *in = gp_coll_contiguous(inbuf, count, datatype);
    char *inout = gp_coll_contiguous(inoutbuf, count, datatype);
    char *packed = 0;
    if (!in || !inout) {
        packed = (char *)gp_malloc(2 * bytes);
        if (!packed) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %zu bytes (raise --heap)", 2 * bytes);
    }
    char *a = in ? in : packed, *b = inout ? inout : packed + bytes;
    if (!in) gp_type_pack(inbuf, count, datatype, a);
    if (!inout) gp_type_pack(inoutbuf, count, datatype, b);
    int rc = gp_reduce_apply(op, datatype, a, b, count);
    if (!inout) gp_type_unpack(b, bytes, inoutbuf, count, datatype);
    gp_free(packed);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, fn, rc, "operation %d is not defined for datatype %d", (int)op, (int)datatype);
    return MPI_SUCCESS;
}
