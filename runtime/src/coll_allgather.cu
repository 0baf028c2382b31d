/* MPI_Allgather and MPI_Allgatherv.
 *
 * Allgather with n a power of two: recursive doubling in the receive buffer
 * itself (step d: exchange the d blocks gathered so far with rank me ^ d).
 * Otherwise, and for Allgatherv: Bruck's algorithm, ceil(log2 n) steps for
 * any n: rank me keeps the blocks of ranks me, me+1, ... packed in that
 * order; in step d it sends its first min(d, n-d) blocks to rank me - d and
 * appends as many from rank me + d; then the blocks go to their places. */
#include "coll.h"

enum { GP_AG, GP_AGV };

/* Block r of the receive buffer. */
GPUMPI_FN static void gp_ag_block(gp_sched *s, int r, char **buf, int *count)
{
    gp_coll_args *a = &s->a;
    if (a->kind == GP_AG) {
        *buf = gp_coll_at(a->rbuf, r, a->rcount, a->rtype);
        *count = a->rcount;
    } else {
        *buf = gp_coll_at(a->rbuf, a->rdispls[r], 1, a->rtype);
        *count = a->rcounts[r];
    }
}

/* This rank's own block: from the send buffer, or in place. */
GPUMPI_FN static void gp_ag_mine(gp_sched *s, const char **buf, int *count, MPI_Datatype *type)
{
    gp_coll_args *a = &s->a;
    if (a->in_place) {
        char *b;
        gp_ag_block(s, s->me, &b, count);
        *buf = b;
        *type = a->rtype;
    } else {
        *buf = (const char *)a->sbuf;
        *count = a->scount;
        *type = a->stype;
    }
}

GPUMPI_FN static int gp_allgather_rd_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int n = s->n, me = s->me;
    if (k == 0) {
        if (!a->in_place) gp_coll_copy(a->sbuf, a->scount, a->stype, gp_coll_at(a->rbuf, me, a->rcount, a->rtype),
                                       a->rcount, a->rtype);
        return 1;
    }
    int d = k > 31 ? n : 1 << (k - 1);
    if (d >= n) return 0;
    int base = me & ~(d - 1), partner = me ^ d, pbase = partner & ~(d - 1);
    gp_sched_send(s, partner, gp_coll_at(a->rbuf, base, a->rcount, a->rtype), d * a->rcount, a->rtype);
    gp_sched_recv(s, partner, gp_coll_at(a->rbuf, pbase, a->rcount, a->rtype), d * a->rcount, a->rtype, 1);
    return 1;
}

/* Packed bytes of the blocks of ranks me + from .. me + to - 1. */
GPUMPI_FN static size_t gp_bruck_span(gp_sched *s, int from, int to)
{
    gp_coll_args *a = &s->a;
    if (a->kind == GP_AG) return (size_t)(to - from) * s->tree.block;
    size_t bytes = 0;
    for (int i = from; i < to; i++) bytes += (size_t)a->rcounts[(s->me + i) % s->n] * (size_t)s->tree.esize;
    return bytes;
}

GPUMPI_FN static int gp_allgather_bruck_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    gp_tree_state *t = &s->tree;
    int n = s->n, me = s->me;
    if (k == 0) {
        t->buf = (char *)gp_sched_scratch(s, gp_bruck_span(s, 0, n));
        const char *mine;
        int count;
        MPI_Datatype type;
        gp_ag_mine(s, &mine, &count, &type);
        gp_coll_copy(mine, count, type, t->buf, (int)gp_bruck_span(s, 0, 1), MPI_BYTE);
        return 1;
    }
    int d = k > 31 ? n : 1 << (k - 1);
    if (d < n) {
        int blocks = d < n - d ? d : n - d;
        gp_sched_send(s, (me - d + n) % n, t->buf, (int)gp_bruck_span(s, 0, blocks), MPI_BYTE);
        gp_sched_recv(s, (me + d) % n, t->buf + gp_bruck_span(s, 0, d), (int)gp_bruck_span(s, d, d + blocks), MPI_BYTE,
                      1);
        return 1;
    }
    /* t->buf holds ranks me .. n-1, 0 .. me-1 */
    if (a->kind == GP_AG) {
        size_t b = t->block;
        gp_coll_copy(t->buf, (int)((size_t)(n - me) * b), MPI_BYTE, gp_coll_at(a->rbuf, me, a->rcount, a->rtype),
                     (n - me) * a->rcount, a->rtype);
        gp_coll_copy(t->buf + (size_t)(n - me) * b, (int)((size_t)me * b), MPI_BYTE, a->rbuf, me * a->rcount,
                     a->rtype);
        return 0;
    }
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        char *to;
        int count;
        gp_ag_block(s, (me + i) % n, &to, &count);
        size_t bytes = gp_coll_bytes(count, a->rtype);
        if (i || !a->in_place) gp_coll_copy(t->buf + off, (int)bytes, MPI_BYTE, to, count, a->rtype);
        off += bytes;
    }
    return 0;
}

GPUMPI_FN void gp_coll_allgather(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                 int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Allgather", comm);
    gp_coll_args *a = &s->a;
    a->kind = GP_AG;
    a->in_place = sbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, rcount, rtype);
    s->tree.block = gp_coll_bytes(rcount, rtype);
    if (s->tree.block == 0) return;
    gp_sched_add_phase(s, (s->n & (s->n - 1)) == 0 ? gp_allgather_rd_round : gp_allgather_bruck_round);
}

GPUMPI_FN void gp_coll_allgatherv(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs, MPI_Datatype rtype, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Allgatherv", comm);
    gp_coll_args *a = &s->a;
    a->kind = GP_AGV;
    a->in_place = sbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, 0, rtype);
    a->rcounts = rcounts;
    a->rdispls = displs;
    s->tree.esize = gp_type_size(rtype);
    if (gp_bruck_span(s, 0, s->n) == 0) return;
    gp_sched_add_phase(s, gp_allgather_bruck_round);
}

GPUMPI_FN int gp_allgather_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Allgather");
    if (gp_coll_is_inter(comm))
        return gp_inter_pairs(nb, fn, comm, 0, sendbuf, sendcount, 0, 0, sendtype, 0, recvbuf, recvcount, 0, 0,
                              recvtype, 0);
    GP_TRY(gp_coll_check_uniform(comm, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_allgather(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm)
{
    return gp_allgather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int gp_allgatherv_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Allgatherv");
    GP_TRY(gp_comm_check(fn, comm));
    if (gp_coll_is_inter(comm))
        return gp_inter_pairs(nb, fn, comm, 1, sendbuf, sendcount, 0, 0, sendtype, 0, recvbuf, 0, recvcounts, displs,
                              recvtype, 0);
    if (sendbuf != MPI_IN_PLACE) GP_TRY(gp_type_check(comm, fn, sendtype, sendcount));
    GP_TRY(gp_coll_check_counts(comm, fn, recvcounts, gp_comm_size(comm), recvtype, 0, "recvcounts"));
    if (!displs) return gp_err(comm, fn, MPI_ERR_ARG, "displs is NULL");
    GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
    GP_TRY(gp_coll_check_alias(comm, fn, sendbuf, recvbuf, gp_coll_bytes(sendcount, sendtype)));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_allgatherv(s, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gp_allgatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
