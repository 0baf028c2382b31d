/* MPI_Reduce_scatter_block and MPI_Reduce_scatter: the binomial reduction
 * of the whole vector to rank 0 (one combination order for every element,
 * rank order for non-commutative operations), then a binomial scatter of
 * its blocks from rank 0 (block sizes from recvcounts, which every rank
 * has). Two phases of one schedule. */
#include "coll.h"

GPUMPI_FN static void gp_coll_reduce_scatter_any(gp_sched *s, const char *fn, const void *sbuf, void *rbuf,
                                                 int rcount, const int *rcounts, MPI_Datatype type, MPI_Op op,
                                                 MPI_Comm comm)
{
    gp_sched_init(s, fn, comm);
    int n = s->n, esize = gp_type_size(type);
    long total = 0;
    if (rcounts)
        for (int i = 0; i < n; i++) total += rcounts[i];
    else
        total = (long)rcount * n;
    if (total * esize == 0) return;
    size_t bytes = (size_t)total * (size_t)esize;
    char *result = s->me == 0 ? (char *)gp_sched_scratch(s, bytes) : 0;
    gp_reduce_setup(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, (int)total, type, op, 0, result, (int)bytes, MPI_BYTE);
    gp_sched_add_phase(s, gp_reduce_round);
    gp_coll_args *a = &s->a;
    a->sbuf = result;
    a->scount = rcount * esize;
    a->stype = MPI_BYTE;
    a->rbuf = rbuf;
    a->rcount = rcounts ? rcounts[s->me] : rcount;
    a->rtype = type;
    a->root = 0;
    s->tree.block = (size_t)rcount * (size_t)esize;
    s->tree.counts = rcounts;
    s->tree.esize = esize;
    gp_sched_add_phase(s, gp_scatter_round);
}

GPUMPI_FN void gp_coll_reduce_scatter_block(gp_sched *s, const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                            MPI_Op op, MPI_Comm comm)
{
    gp_coll_reduce_scatter_any(s, "MPI_Reduce_scatter_block", sbuf, rbuf, rcount, 0, type, op, comm);
}

GPUMPI_FN void gp_coll_reduce_scatter(gp_sched *s, const void *sbuf, void *rbuf, const int *rcounts,
                                      MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    gp_coll_reduce_scatter_any(s, "MPI_Reduce_scatter", sbuf, rbuf, 0, rcounts, type, op, comm);
}

GPUMPI_FN int gp_reduce_scatter_block_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Reduce_scatter_block");
    GP_TRY(gp_comm_check(fn, comm));
    GP_TRY(gp_type_check(comm, fn, datatype, recvcount));
    GP_TRY(gp_coll_check_op(comm, fn, op, datatype));
    if (gp_coll_is_inter(comm)) /* the other group's vectors: recvcount for each rank of this one */
        return gp_inter_allreduce(nb, fn, sendbuf, recvbuf, recvcount * gp_comm_size(comm), datatype, op, 1, recvcount,
                                  0, comm);
    GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
    GP_TRY(gp_coll_check_alias(comm, fn, sendbuf, recvbuf, gp_coll_bytes(recvcount, datatype)));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_reduce_scatter_block(s, sendbuf, recvbuf, recvcount, datatype, op, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm)
{
    return gp_reduce_scatter_block_call(0, sendbuf, recvbuf, recvcount, datatype, op, comm);
}

GPUMPI_FN int gp_reduce_scatter_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Reduce_scatter");
    GP_TRY(gp_comm_check(fn, comm));
    GP_TRY(gp_coll_check_counts(comm, fn, recvcounts, gp_comm_size(comm), datatype, 0, "recvcounts"));
    GP_TRY(gp_coll_check_op(comm, fn, op, datatype));
    if (gp_coll_is_inter(comm)) {
        int total = 0;
        for (int i = 0; i < gp_comm_size(comm); i++) total += recvcounts[i];
        return gp_inter_allreduce(nb, fn, sendbuf, recvbuf, total, datatype, op, 1, 0, recvcounts, comm);
    }
    GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
    GP_TRY(gp_coll_check_alias(comm, fn, sendbuf, recvbuf, gp_coll_bytes(recvcounts[gp_comm_rank(comm)], datatype)));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_reduce_scatter(s, sendbuf, recvbuf, recvcounts, datatype, op, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm)
{
    return gp_reduce_scatter_call(0, sendbuf, recvbuf, recvcounts, datatype, op, comm);
}
