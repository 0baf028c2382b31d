/* Collectives on intercommunicators (intercomm.cu makes them): the data
 * goes from one group to the other (MPI_ROOT is the root itself, the rest
 * of its group passes MPI_PROC_NULL and takes no part; the other group
 * passes the root's rank in the remote group).
 *
 * Linear schedules, GP_SCHED_WINDOW peers a round: programs use
 * intercommunicators to couple two groups (a coupler, a manager and its
 * workers), not for their hot collectives, so simple and plainly correct
 * wins here. Reductions combine the other group's operands one per round
 * in rank order (x0 op (x1 op (... op x_{n-1}))), right for
 * non-commutative operations. Blocking and nonblocking calls share these
 * bodies through gp_coll_go, as the intracommunicator ones do. */
#include "coll.h"
#include "gpumpi/shim_string.h"

#define GP_W GP_SCHED_WINDOW

/* Round k of a linear exchange covers peers [lo, hi) of n; 0 when past the last. */
GPUMPI_FN static int gp_ic_window(int k, int n, int *lo, int *hi)
{
    *lo = k * GP_W;
    *hi = *lo + GP_W < n ? *lo + GP_W : n;
    return *lo < n;
}

/* ---- the local group: fan-in to local rank 0, fan-out from it ---------- */

/* Every local rank tells local rank 0 it arrived (empty messages). */
GPUMPI_FN static int gp_ic_fanin_round(gp_sched *s, int k)
{
    if (s->me) {
        if (k == 0) gp_sched_send_local(s, 0, s->inline_buf, 0, MPI_BYTE);
        return 0;
    }
    int lo, hi;
    if (!gp_ic_window(k, s->n - 1, &lo, &hi)) return 0;
    for (int i = lo; i < hi; i++) gp_sched_recv_local(s, i + 1, s->inline_buf, 0, MPI_BYTE, 1);
    return hi < s->n - 1;
}

/* Local rank 0 sends (a.sbuf, a.scount, a.stype) to the others, which
 * receive into (a.rbuf, a.rcount, a.rtype): its result, or nothing. */
GPUMPI_FN static int gp_ic_fanout_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    if (s->me) {
        if (k == 0) gp_sched_recv_local(s, 0, a->rbuf, a->rcount, a->rtype, 0);
        return 0;
    }
    int lo, hi;
    if (!gp_ic_window(k, s->n - 1, &lo, &hi)) return 0;
    for (int i = lo; i < hi; i++) gp_sched_send_local(s, i + 1, a->sbuf, a->scount, a->stype);
    return hi < s->n - 1;
}

/* Local rank 0 swaps an empty message with remote rank 0. */
GPUMPI_FN static int gp_ic_leaders_round(gp_sched *s, int k)
{
    if (k == 0 && s->me == 0) {
        gp_sched_send(s, 0, s->inline_buf, 0, MPI_BYTE);
        gp_sched_recv(s, 0, s->inline_buf, 0, MPI_BYTE, 1);
    }
    return 0;
}

GPUMPI_FN int gp_inter_barrier(const gp_coll_nb *nb, MPI_Comm comm)
{
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_sched_init(s, GP_COLL_FN(nb, "MPI_Barrier"), comm);
    gp_sched_add_phase(s, gp_ic_fanin_round);
    gp_sched_add_phase(s, gp_ic_leaders_round);
    gp_coll_set_bufs(s, s->inline_buf, 0, MPI_BYTE, s->inline_buf, 0, MPI_BYTE);
    gp_sched_add_phase(s, gp_ic_fanout_round);
    return gp_coll_go(nb, s);
}

/* ---- MPI_Comm_idup's agreement (comm_idup.cu) ---------------------------- */

/* Local rank 0 of the group that allocates (a.kind) hands vals[0] to the other group's rank 0. */
GPUMPI_FN static int gp_ic_hand_over_round(gp_sched *s, int k)
{
    if (k == 0 && s->me == 0) {
        if (s->a.kind)
            gp_sched_send(s, 0, s->a.sbuf, 1, MPI_INT);
        else
            gp_sched_recv(s, 0, s->a.rbuf, 1, MPI_INT, 1);
    }
    return 0;
}

GPUMPI_FN int gp_inter_idup_agree(const gp_coll_nb *nb, MPI_Comm comm, int allocates, int vals[2])
{
    gp_sched *s = gp_coll_sched(nb, 0);
    gp_sched_init(s, nb->fn, comm);
    gp_coll_set_bufs(s, vals, 2, MPI_INT, vals, 2, MPI_INT);
    s->a.kind = allocates;
    gp_sched_add_phase(s, gp_ic_hand_over_round);
    gp_sched_add_phase(s, gp_ic_fanout_round);
    return gp_coll_go(nb, s);
}

/* ---- rooted: the root talks to every rank of the other group ------------- */

/* The root's side: its messages to or from remote rank i. */
GPUMPI_FN static int gp_ic_root_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int lo, hi;
    if (!gp_ic_window(k, s->rn, &lo, &hi)) return 0;
    for (int i = lo; i < hi; i++) {
        switch (a->kind) {
        case 0: /* bcast */
            gp_sched_send(s, i, a->sbuf, a->scount, a->stype);
            break;
        case 1: /* gather */
            gp_sched_recv(s, i, gp_coll_at(a->rbuf, i, a->rcount, a->rtype), a->rcount, a->rtype, 0);
            break;
        case 2: /* gatherv */
            gp_sched_recv(s, i, gp_coll_at(a->rbuf, a->rdispls[i], 1, a->rtype), a->rcounts[i], a->rtype, 0);
            break;
        case 3: /* scatter */
            gp_sched_send(s, i, gp_coll_at(a->sbuf, i, a->scount, a->stype), a->scount, a->stype);
            break;
        default: /* scatterv */
            gp_sched_send(s, i, gp_coll_at(a->sbuf, a->sdispls[i], 1, a->stype), a->scounts[i], a->stype);
            break;
        }
    }
    return hi < s->rn;
}

/* The other group's side: one message to or from the root. */
GPUMPI_FN static int gp_ic_leaf_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    if (k) return 0;
    if (a->kind == 1 || a->kind == 2)
        gp_sched_send(s, a->root, a->sbuf, a->scount, a->stype);
    else
        gp_sched_recv(s, a->root, a->rbuf, a->rcount, a->rtype, 0);
    return 0;
}

/* kind: 0 bcast, 1 gather, 2 gatherv, 3 scatter, 4 scatterv; the root's
 * arrays (counts, displacements) in s->a already. */
GPUMPI_FN int gp_inter_rooted(const gp_coll_nb *nb, const char *fn, MPI_Comm comm, int kind, int root,
                              const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, const int *counts, const int *displs)
{
    GP_TRY(gp_coll_check_root(comm, fn, root));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_sched_init(s, fn, comm);
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, rcount, rtype);
    s->a.kind = kind;
    s->a.root = root;
    s->rooted = 1;
    if (root == MPI_ROOT) {
        if (kind == 2) s->a.rcounts = counts, s->a.rdispls = displs;
        if (kind == 4) s->a.scounts = counts, s->a.sdispls = displs;
        gp_sched_add_phase(s, gp_ic_root_round);
    } else if (root != MPI_PROC_NULL) {
        gp_sched_add_phase(s, gp_ic_leaf_round);
    }
    return gp_coll_go(nb, s);
}

/* ---- reductions: local rank 0 (or the root) combines the other group's ---- */

/* Receives the remote group's operands, the highest rank first, into
 * red.acc (packed): acc = x_i op acc, one per round. With red.in set
 * (allreduce, reduce_scatter: both local ranks 0 do this), the two
 * leaders first swap their own operands (x_0 of each side) in one round:
 * a leader's send cannot wait for the other leader's last round, which
 * would wait for it. */
GPUMPI_FN static int gp_ic_combine_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    int bytes = (int)gp_coll_bytes(r->count, r->type), lead = r->in != 0;
    if (k == 0) {
        r->acc = (char *)gp_sched_scratch(s, (size_t)bytes);
        r->tmp = (char *)gp_sched_scratch(s, (size_t)bytes);
        if (lead) {
            r->part = (char *)gp_sched_scratch(s, (size_t)bytes);
            gp_sched_send(s, r->root, r->in, r->count, r->type);
            gp_sched_recv(s, 0, r->part, bytes, MPI_BYTE, 1);
            return 1;
        }
    }
    int j = k - lead, last = s->rn - lead; /* receive j is x_{rn-1-j}; x_lead .. x_{rn-1} come this way */
    if (j >= 2) gp_sched_reduce(s, r->tmp, r->acc, r->count, r->type, r->op);
    if (j == last) {
        if (lead && last == 0)
            gp_memcpy(r->acc, r->part, (size_t)bytes);
        else if (lead)
            gp_sched_reduce(s, r->part, r->acc, r->count, r->type, r->op);
        return 0;
    }
    gp_sched_recv(s, s->rn - 1 - j, j == 0 ? r->acc : r->tmp, bytes, MPI_BYTE, 1);
    return 1;
}

/* The contributors' side: this rank's operand to remote rank red.root. */
GPUMPI_FN static int gp_ic_contribute_round(gp_sched *s, int k)
{
    if (k == 0) gp_sched_send(s, s->red.root, s->red.in, s->red.count, s->red.type);
    return 0;
}

/* The combined result, from the accumulator into (res, res_count, res_type). */
GPUMPI_FN static int gp_ic_store_round(gp_sched *s, int k)
{
    gp_red_state *r = &s->red;
    if (k == 0 && r->res)
        gp_coll_copy(r->acc, (int)gp_coll_bytes(r->count, r->type), MPI_BYTE, r->res, r->res_count, r->res_type);
    return 0;
}

/* Local rank 0 hands each local rank its block of the packed result
 * (reduce_scatter: a.rcounts per local rank, or a.rcount each when NULL)
 * and keeps its own. */
GPUMPI_FN static int gp_ic_scatter_result_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    gp_red_state *r = &s->red;
    int esize = gp_type_size(r->type);
#define GP_BLOCK(i) (a->rcounts ? a->rcounts[i] : a->rcount)
    if (s->me) {
        if (k == 0) gp_sched_recv_local(s, 0, a->rbuf, GP_BLOCK(s->me), r->type, 0);
        return 0;
    }
    if (k == 0) gp_coll_copy(r->acc, GP_BLOCK(0) * esize, MPI_BYTE, a->rbuf, GP_BLOCK(0), r->type);
    int lo, hi;
    if (!gp_ic_window(k, s->n - 1, &lo, &hi)) return 0;
    long at = 0;
    for (int i = 0; i < lo + 1; i++) at += GP_BLOCK(i);
    for (int i = lo + 1; i < hi + 1; i++) {
        gp_sched_send_local(s, i, r->acc + at * esize, GP_BLOCK(i) * esize, MPI_BYTE);
        at += GP_BLOCK(i);
    }
#undef GP_BLOCK
    return hi < s->n - 1;
}

GPUMPI_FN int gp_inter_reduce(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Reduce");
    GP_TRY(gp_coll_check_root(comm, fn, root));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_sched_init(s, fn, comm);
    s->rooted = 1;
    if (root == MPI_ROOT) {
        gp_reduce_setup(s, 0, count, datatype, op, 0, recvbuf, count, datatype);
        gp_sched_add_phase(s, gp_ic_combine_round);
        gp_sched_add_phase(s, gp_ic_store_round);
    } else if (root != MPI_PROC_NULL) {
        gp_reduce_setup(s, sendbuf, count, datatype, op, root, 0, 0, datatype);
        gp_sched_add_phase(s, gp_ic_contribute_round);
    }
    return gp_coll_go(nb, s);
}

/* Allreduce (scatter 0: every rank gets the whole result) and
 * reduce_scatter (scatter 1: the local group's blocks of it, rcounts[i]
 * or rcount each; count is their sum): every rank sends its operand to
 * remote rank 0, local rank 0 combines the remote group's and hands the
 * result out. */
GPUMPI_FN int gp_inter_allreduce(const gp_coll_nb *nb, const char *fn, const void *sendbuf, void *recvbuf,
                                 int count, MPI_Datatype datatype, MPI_Op op, int scatter, int rcount,
                                 const int *rcounts, MPI_Comm comm)
{
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_sched_init(s, fn, comm);
    gp_reduce_setup(s, sendbuf, count, datatype, op, 0, s->me == 0 && !scatter ? recvbuf : 0, count, datatype);
    gp_sched_add_phase(s, s->me == 0 ? gp_ic_combine_round : gp_ic_contribute_round);
    if (scatter) {
        s->a.rbuf = recvbuf;
        s->a.rcount = rcount;
        s->a.rcounts = rcounts;
        gp_sched_add_phase(s, gp_ic_scatter_result_round);
    } else {
        gp_sched_add_phase(s, gp_ic_store_round);
        /* then the result from local rank 0's receive buffer to the others' */
        gp_coll_set_bufs(s, recvbuf, count, datatype, recvbuf, count, datatype);
        gp_sched_add_phase(s, gp_ic_fanout_round);
    }
    return gp_coll_go(nb, s);
}

/* ---- all to all: every rank with every rank of the other group --------- */

/* kind 0: allgather (the same block to all, block i from remote i), 1:
 * allgatherv, 2: alltoall, 3: alltoallv, 4: alltoallw (displacements in bytes). */
GPUMPI_FN static int gp_ic_pairs_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int lo, hi;
    if (!gp_ic_window(k, s->rn, &lo, &hi)) return 0;
    for (int i = lo; i < hi; i++) {
        switch (a->kind) {
        case 0:
            gp_sched_send(s, i, a->sbuf, a->scount, a->stype);
            gp_sched_recv(s, i, gp_coll_at(a->rbuf, i, a->rcount, a->rtype), a->rcount, a->rtype, 0);
            break;
        case 1:
            gp_sched_send(s, i, a->sbuf, a->scount, a->stype);
            gp_sched_recv(s, i, gp_coll_at(a->rbuf, a->rdispls[i], 1, a->rtype), a->rcounts[i], a->rtype, 0);
            break;
        case 2:
            gp_sched_send(s, i, gp_coll_at(a->sbuf, i, a->scount, a->stype), a->scount, a->stype);
            gp_sched_recv(s, i, gp_coll_at(a->rbuf, i, a->rcount, a->rtype), a->rcount, a->rtype, 0);
            break;
        case 3:
            gp_sched_send(s, i, gp_coll_at(a->sbuf, a->sdispls[i], 1, a->stype), a->scounts[i], a->stype);
            gp_sched_recv(s, i, gp_coll_at(a->rbuf, a->rdispls[i], 1, a->rtype), a->rcounts[i], a->rtype, 0);
            break;
        default:
            gp_sched_send(s, i, (const char *)a->sbuf + a->sdispls[i], a->scounts[i], a->stypes[i]);
            gp_sched_recv(s, i, (char *)a->rbuf + a->rdispls[i], a->rcounts[i], a->rtypes[i], 0);
            break;
        }
    }
    return hi < s->rn;
}

GPUMPI_FN int gp_inter_pairs(const gp_coll_nb *nb, const char *fn, MPI_Comm comm, int kind, const void *sbuf,
                             int scount, const int *scounts, const int *sdispls, MPI_Datatype stype,
                             const MPI_Datatype *stypes, void *rbuf, int rcount, const int *rcounts,
                             const int *rdispls, MPI_Datatype rtype, const MPI_Datatype *rtypes)
{
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_sched_init(s, fn, comm);
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, rcount, rtype);
    gp_coll_args *a = &s->a;
    a->kind = kind;
    a->scounts = scounts;
    a->sdispls = sdispls;
    a->stypes = stypes;
    a->rcounts = rcounts;
    a->rdispls = rdispls;
    a->rtypes = rtypes;
    gp_sched_add_phase(s, gp_ic_pairs_round);
    return gp_coll_go(nb, s);
}
