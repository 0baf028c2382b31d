/* MPI_Scan and MPI_Exscan: recursive doubling. After step d (1, 2, 4, ...)
 * rank r's running part holds x[r-2d+1] op ... op x[r]; in step d it sends
 * that part to rank r + d and receives rank r - d's, which covers lower
 * ranks, so the received operand always goes on the left (in op inout):
 * rank order holds for non-commutative operations, and the combination
 * order is fixed by the ranks alone. Exscan keeps a second accumulator
 * without the rank's own operand; rank 0's result is left untouched. */
#include "coll.h"

GPUMPI_FN static int gp_scan_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    int n = s->n, me = s->me, bytes = (int)gp_coll_bytes(r->count, r->type);
    int exclusive = s->a.kind;
    if (k == 0) {
        /* inclusive: the running part is the result, built in the receive
         * buffer when it is contiguous; exclusive: acc is the result */
        char *res = gp_coll_contiguous(r->res, r->res_count, r->res_type);
        r->part = !exclusive && res ? res : (char *)gp_sched_scratch(s, bytes);
        r->tmp = (char *)gp_sched_scratch(s, bytes);
        r->acc = exclusive ? (res ? res : (char *)gp_sched_scratch(s, bytes)) : r->part;
        if ((const void *)r->part != r->in) gp_coll_copy(r->in, r->count, r->type, r->part, bytes, MPI_BYTE);
    } else if (r->got) {
        r->got = 0;
        if (exclusive) {
            if (r->have)
                gp_sched_reduce(s, r->tmp, r->acc, r->count, r->type, r->op);
            else
                gp_coll_copy(r->tmp, bytes, MPI_BYTE, r->acc, bytes, MPI_BYTE);
            r->have = 1;
        }
        gp_sched_reduce(s, r->tmp, r->part, r->count, r->type, r->op);
    }
    int d = k > 30 ? n : 1 << k;
    if (d >= n) {
        if (r->have || !exclusive) {
            char *res = gp_coll_contiguous(r->res, r->res_count, r->res_type);
            if (r->acc != res) gp_coll_copy(r->acc, bytes, MPI_BYTE, r->res, r->res_count, r->res_type);
        }
        return 0;
    }
    if (me + d < n) gp_sched_send(s, me + d, r->part, bytes, MPI_BYTE);
    if (me - d >= 0) {
        gp_sched_recv(s, me - d, r->tmp, bytes, MPI_BYTE, 1);
        r->got = 1;
    }
    return 1;
}

GPUMPI_FN static void gp_coll_scan_any(gp_sched *s, const char *fn, int exclusive, const void *sbuf, void *rbuf,
                                       int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    gp_sched_init(s, fn, comm);
    if (gp_coll_bytes(count, type) == 0) return;
    s->a.kind = exclusive;
    gp_reduce_setup(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type, op, 0, rbuf, count, type);
    gp_sched_add_phase(s, gp_scan_round);
}

GPUMPI_FN void gp_coll_scan(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                            MPI_Comm comm)
{
    gp_coll_scan_any(s, "MPI_Scan", 0, sbuf, rbuf, count, type, op, comm);
}

GPUMPI_FN void gp_coll_exscan(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm)
{
    gp_coll_scan_any(s, "MPI_Exscan", 1, sbuf, rbuf, count, type, op, comm);
}

GPUMPI_FN static int gp_scan_checks(const char *fn, const void *sendbuf, void *recvbuf, int count,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    GP_TRY(gp_comm_check(fn, comm));
    if (gp_coll_is_inter(comm))
        return gp_err(comm, fn, MPI_ERR_COMM, "not defined on an intercommunicator (the standard has no inter-group scan)");
    GP_TRY(gp_type_check(comm, fn, datatype, count));
    GP_TRY(gp_coll_check_op(comm, fn, op, datatype));
    GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
    GP_TRY(gp_coll_check_alias(comm, fn, sendbuf, recvbuf, gp_coll_bytes(count, datatype)));
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_scan_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Scan");
    GP_TRY(gp_scan_checks(fn, sendbuf, recvbuf, count, datatype, op, comm));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_scan(s, sendbuf, recvbuf, count, datatype, op, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gp_scan_call(0, sendbuf, recvbuf, count, datatype, op, comm);
}

GPUMPI_FN int gp_exscan_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Exscan");
    GP_TRY(gp_scan_checks(fn, sendbuf, recvbuf, count, datatype, op, comm));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_exscan(s, sendbuf, recvbuf, count, datatype, op, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm)
{
    return gp_exscan_call(0, sendbuf, recvbuf, count, datatype, op, comm);
}
