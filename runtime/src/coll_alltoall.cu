/* MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw: pairwise exchange. In step j
 * (0 .. n-1) rank r exchanges with rank (j - r) mod n, which in step j
 * exchanges with r: every step pairs the ranks up, and no rank is a hot
 * spot. A round takes GP_SCHED_WINDOW steps, so at most that many sends
 * and receives are outstanding per rank, and a round ends only when its
 * peers' blocks have arrived (a fast rank cannot flood the others' queues).
 * Empty blocks are not sent (both sides know they are empty).
 * In place, a block is packed into a per-step slot before it is sent, since
 * the block received from the same peer overwrites it. */
#include "coll.h"

enum { GP_A2A, GP_A2AV, GP_A2AW };

/* The block this rank sends to (or receives from) peer, from the caller's
 * arguments; in place, both sides describe the receive buffer. */
GPUMPI_FN static void gp_a2a_block(gp_sched *s, int peer, int recv, char **buf, int *count, MPI_Datatype *type)
{
    gp_coll_args *a = &s->a;
    int kind = a->kind;
    if (recv || a->in_place) {
        *buf = kind == GP_A2A    ? gp_coll_at(a->rbuf, peer, a->rcount, a->rtype)
               : kind == GP_A2AV ? gp_coll_at(a->rbuf, a->rdispls[peer], 1, a->rtype)
                                 : (char *)a->rbuf + a->rdispls[peer];
        *count = kind == GP_A2A ? a->rcount : a->rcounts[peer];
        *type = kind == GP_A2AW ? a->rtypes[peer] : a->rtype;
    } else {
        *buf = kind == GP_A2A    ? gp_coll_at(a->sbuf, peer, a->scount, a->stype)
               : kind == GP_A2AV ? gp_coll_at(a->sbuf, a->sdispls[peer], 1, a->stype)
                                 : (char *)a->sbuf + a->sdispls[peer];
        *count = kind == GP_A2A ? a->scount : a->scounts[peer];
        *type = kind == GP_A2AW ? a->stypes[peer] : a->stype;
    }
}

GPUMPI_FN static int gp_alltoall_round(gp_sched *s, int k)
{
    int n = s->n, me = s->me, first = k * GP_SCHED_WINDOW;
    if (first >= n) return 0;
    for (int j = first; j < n && j < first + GP_SCHED_WINDOW; j++) {
        int p = ((j - me) % n + n) % n;
        char *sb, *rb;
        int sc, rc;
        MPI_Datatype st, rt;
        gp_a2a_block(s, p, 0, &sb, &sc, &st);
        gp_a2a_block(s, p, 1, &rb, &rc, &rt);
        if (p == me) {
            if (!s->a.in_place) gp_coll_copy(sb, sc, st, rb, rc, rt);
            continue;
        }
        size_t sbytes = gp_coll_bytes(sc, st);
        if (sbytes && s->a.in_place) {
            char *slot = s->tree.buf + (size_t)(j - first) * s->tree.block;
            gp_coll_copy(sb, sc, st, slot, (int)sbytes, MPI_BYTE);
            sb = slot;
            sc = (int)sbytes;
            st = MPI_BYTE;
        }
        if (sbytes) gp_sched_send(s, p, sb, sc, st);
        if (gp_coll_bytes(rc, rt)) gp_sched_recv(s, p, rb, rc, rt, 0);
    }
    return 1;
}

/* In place: slots for a round's outgoing blocks, each as big as the largest. */
GPUMPI_FN static void gp_a2a_slots(gp_sched *s)
{
    if (!s->a.in_place) return;
    size_t most = 0;
    for (int p = 0; p < s->n; p++) {
        char *b;
        int c;
        MPI_Datatype t;
        gp_a2a_block(s, p, 1, &b, &c, &t);
        size_t bytes = gp_coll_bytes(c, t);
        if (bytes > most) most = bytes;
    }
    int window = s->n < GP_SCHED_WINDOW ? s->n : GP_SCHED_WINDOW;
    s->tree.block = (most + 15) & ~(size_t)15;
    s->tree.buf = (char *)gp_sched_scratch(s, s->tree.block * (size_t)window);
}

GPUMPI_FN void gp_coll_alltoall(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Alltoall", comm);
    gp_coll_args *a = &s->a;
    a->in_place = sbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, rcount, rtype);
    a->kind = GP_A2A;
    if (gp_coll_bytes(rcount, rtype) == 0) return;
    gp_a2a_slots(s);
    gp_sched_add_phase(s, gp_alltoall_round);
}

GPUMPI_FN void gp_coll_alltoallv(gp_sched *s, const void *sbuf, const int *scounts, const int *sdispls,
                                 MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                                 MPI_Datatype rtype, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Alltoallv", comm);
    gp_coll_args *a = &s->a;
    a->in_place = sbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, 0, stype, rbuf, 0, rtype);
    a->scounts = scounts;
    a->sdispls = sdispls;
    a->rcounts = rcounts;
    a->rdispls = rdispls;
    a->kind = GP_A2AV;
    gp_a2a_slots(s);
    gp_sched_add_phase(s, gp_alltoall_round);
}

GPUMPI_FN void gp_coll_alltoallw(gp_sched *s, const void *sbuf, const int *scounts, const int *sdispls,
                                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts, const int *rdispls,
                                 const MPI_Datatype *rtypes, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Alltoallw", comm);
    gp_coll_args *a = &s->a;
    a->in_place = sbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, 0, MPI_DATATYPE_NULL, rbuf, 0, MPI_DATATYPE_NULL);
    a->scounts = scounts;
    a->sdispls = sdispls;
    a->stypes = stypes;
    a->rcounts = rcounts;
    a->rdispls = rdispls;
    a->rtypes = rtypes;
    a->kind = GP_A2AW;
    gp_a2a_slots(s);
    gp_sched_add_phase(s, gp_alltoall_round);
}

GPUMPI_FN int gp_alltoall_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Alltoall");
    if (gp_coll_is_inter(comm))
        return gp_inter_pairs(nb, fn, comm, 2, sendbuf, sendcount, 0, 0, sendtype, 0, recvbuf, recvcount, 0, 0,
                              recvtype, 0);
    GP_TRY(gp_coll_check_uniform(comm, fn, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_alltoall(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    return gp_alltoall_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int gp_alltoallv_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Alltoallv");
    GP_TRY(gp_comm_check(fn, comm));
    if (gp_coll_is_inter(comm))
        return gp_inter_pairs(nb, fn, comm, 3, sendbuf, 0, sendcounts, sdispls, sendtype, 0, recvbuf, 0, recvcounts,
                              rdispls, recvtype, 0);
    int n = gp_comm_size(comm);
    if (sendbuf != MPI_IN_PLACE) {
        GP_TRY(gp_coll_check_counts(comm, fn, sendcounts, n, sendtype, 0, "sendcounts"));
        if (!sdispls) return gp_err(comm, fn, MPI_ERR_ARG, "sdispls is NULL");
    }
    GP_TRY(gp_coll_check_counts(comm, fn, recvcounts, n, recvtype, 0, "recvcounts"));
    if (!rdispls) return gp_err(comm, fn, MPI_ERR_ARG, "rdispls is NULL");
    GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_alltoallv(s, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    return gp_alltoallv_call(0, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

GPUMPI_FN int gp_alltoallw_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[], const int sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Alltoallw");
    GP_TRY(gp_comm_check(fn, comm));
    if (gp_coll_is_inter(comm))
        return gp_inter_pairs(nb, fn, comm, 4, sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf,
                              0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes);
    int n = gp_comm_size(comm);
    if (sendbuf != MPI_IN_PLACE) {
        if (!sendtypes) return gp_err(comm, fn, MPI_ERR_TYPE, "sendtypes is NULL");
        GP_TRY(gp_coll_check_counts(comm, fn, sendcounts, n, MPI_DATATYPE_NULL, sendtypes, "sendcounts"));
        if (!sdispls) return gp_err(comm, fn, MPI_ERR_ARG, "sdispls is NULL");
    }
    if (!recvtypes) return gp_err(comm, fn, MPI_ERR_TYPE, "recvtypes is NULL");
    GP_TRY(gp_coll_check_counts(comm, fn, recvcounts, n, MPI_DATATYPE_NULL, recvtypes, "recvcounts"));
    if (!rdispls) return gp_err(comm, fn, MPI_ERR_ARG, "rdispls is NULL");
    GP_TRY(gp_coll_check_not_in_place(comm, fn, recvbuf, "the receive buffer"));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_alltoallw(s, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return gp_alltoallw_call(0, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}
