/* Blocking collectives over point-to-point messages in the communicator's
 * collective context, with logarithmic algorithms: dissemination barrier,
 * binomial broadcast and binomial reduction. The reduction tree pairs ranks
 * as MPICH's does, so floating-point sums round the same way. */
#include "runtime.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

enum { GP_TAG_BARRIER = 1, GP_TAG_BCAST = 2, GP_TAG_REDUCE = 3 };

/* Collective messages go between communicator ranks in the collective context. */
GPUMPI_FN static void gp_coll_send(MPI_Comm comm, const void *buf, size_t bytes, int to, int tag)
{
    gp_send_bytes(buf, bytes, gp_comm_to_world(comm, to), tag, gp_ctx_coll(comm));
}

GPUMPI_FN static void gp_coll_recv(const char *fn, MPI_Comm comm, void *buf, size_t bytes, int from, int tag)
{
    int src, got_tag;
    size_t got;
    gp_recv_bytes(buf, bytes, gp_comm_to_world(comm, from), tag, gp_ctx_coll(comm), &src, &got_tag, &got);
    if (got != bytes)
        gp_fatal(fn, MPI_ERR_TRUNCATE, "ranks disagree on the message size (rank %d sent %zu bytes, expected %zu)",
                 from, got, bytes);
}

/* The same with (count, datatype) data, packed on the way when not contiguous. */
GPUMPI_FN static void gp_coll_send_typed(MPI_Comm comm, const void *buf, int count, MPI_Datatype type, int to, int tag)
{
    gp_send_typed(buf, count, type, gp_comm_to_world(comm, to), tag, gp_ctx_coll(comm));
}

GPUMPI_FN static void gp_coll_recv_typed(const char *fn, MPI_Comm comm, void *buf, int count, MPI_Datatype type, int from,
                                         int tag)
{
    int src, got_tag;
    size_t got, bytes = (size_t)count * (size_t)gp_type_size(type);
    gp_recv_typed(buf, count, type, gp_comm_to_world(comm, from), tag, gp_ctx_coll(comm), &src, &got_tag, &got);
    if (got != bytes)
        gp_fatal(fn, MPI_ERR_TRUNCATE, "ranks disagree on the message size (rank %d sent %zu bytes, expected %zu)",
                 from, got, bytes);
}

GPUMPI_FN int MPI_Barrier(MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Barrier", comm));
    int n = gp_comm_size(comm), me = gp_comm_rank(comm);
    char token = 0;
    for (int dist = 1; dist < n; dist <<= 1) {
        gp_coll_send(comm, &token, 0, (me + dist) % n, GP_TAG_BARRIER);
        gp_coll_recv("MPI_Barrier", comm, &token, 0, (me - dist + n) % n, GP_TAG_BARRIER);
    }
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_check_root(const char *fn, MPI_Comm comm, int root)
{
    if (root < 0 || root >= gp_comm_size(comm))
        return gp_err(comm, fn, MPI_ERR_ROOT, "invalid root %d (communicator has %d ranks)", root, gp_comm_size(comm));
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Bcast", comm));
    GP_TRY(gp_type_check(comm, "MPI_Bcast", datatype, count));
    GP_TRY(gp_check_root("MPI_Bcast", comm, root));
    int n = gp_comm_size(comm), me = gp_comm_rank(comm);
    int rel = (me - root + n) % n;
    int mask = 1;
    while (mask < n) {
        if (rel & mask) {
            gp_coll_recv_typed("MPI_Bcast", comm, buffer, count, datatype, (rel - mask + root) % n, GP_TAG_BCAST);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n) gp_coll_send_typed(comm, buffer, count, datatype, (rel + mask + root) % n, GP_TAG_BCAST);
    return MPI_SUCCESS;
}

/* Scratch for a reduction: on the stack when small, else the heap. */
#define GP_REDUCE_STACK_BYTES 256

GPUMPI_FN int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         int root, MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Reduce", comm));
    GP_TRY(gp_type_check(comm, "MPI_Reduce", datatype, count));
    GP_TRY(gp_op_check(comm, "MPI_Reduce", op, datatype));
    GP_TRY(gp_check_root("MPI_Reduce", comm, root));
    int n = gp_comm_size(comm), me = gp_comm_rank(comm);
    size_t bytes = (size_t)count * (size_t)gp_type_size(datatype);
    /* The tree combines packed data. A non-commutative operation must see
     * the operands in rank order, lower rank first: it reduces to rank 0,
     * which passes the result on to the root. */
    int commute = gp_op_commutative(op), top = commute ? root : 0;
    uint64_t stack_acc[GP_REDUCE_STACK_BYTES / 8], stack_tmp[GP_REDUCE_STACK_BYTES / 8];
    int on_heap = bytes > GP_REDUCE_STACK_BYTES;
    void *tmp = on_heap ? gp_malloc(bytes) : (void *)stack_tmp;
    /* the root accumulates in recvbuf when it is contiguous; others in scratch */
    const void *first = 0;
    int in_recvbuf = me == root && top == root && gp_type_contiguous(datatype, count, recvbuf, &first);
    void *acc = in_recvbuf ? (void *)first : (on_heap ? gp_malloc(bytes) : (void *)stack_acc);
    if (!tmp || !acc) return gp_fatal("MPI_Reduce", MPI_ERR_NO_MEM, "no device heap left for %zu bytes", bytes);
    const void *src = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    const void *src_first;
    if (gp_type_contiguous(datatype, count, src, &src_first)) {
        if (src_first != acc) gp_memcpy(acc, src_first, bytes);
    } else {
        gp_type_pack(src, count, datatype, acc);
    }
    int rel = (me - top + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            gp_coll_send(comm, acc, bytes, (rel - mask + top) % n, GP_TAG_REDUCE);
            break;
        }
        if (rel + mask < n) {
            gp_coll_recv("MPI_Reduce", comm, tmp, bytes, (rel + mask + top) % n, GP_TAG_REDUCE);
            /* acc holds the lower ranks' part, tmp the higher ranks' */
            int rc = commute ? gp_reduce_apply(op, datatype, tmp, acc, count)
                             : gp_reduce_apply(op, datatype, acc, tmp, count);
            if (rc != MPI_SUCCESS)
                return gp_err(comm, "MPI_Reduce", rc, "operation %d is not defined for datatype %d", (int)op,
                              (int)datatype);
            if (!commute) gp_memcpy(acc, tmp, bytes);
        }
    }
    if (top != root) {
        if (me == top) gp_coll_send(comm, acc, bytes, root, GP_TAG_REDUCE);
        if (me == root) gp_coll_recv("MPI_Reduce", comm, acc, bytes, top, GP_TAG_REDUCE);
    }
    if (me == root && !in_recvbuf) gp_type_unpack(acc, bytes, recvbuf, count, datatype);
    if (on_heap) {
        gp_free(tmp);
        if (!in_recvbuf) gp_free(acc);
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm)
{
    int in_place_leaf = sendbuf == MPI_IN_PLACE && gp_comm_rank(comm) != 0;
    MPI_Reduce(in_place_leaf ? recvbuf : sendbuf, recvbuf, count, datatype, op, 0, comm);
    return MPI_Bcast(recvbuf, count, datatype, 0, comm);
}
