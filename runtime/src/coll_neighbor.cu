/* Neighbourhood collectives (MPI_Neighbor_allgather(v), _alltoall(v)(w))
 * on Cartesian, graph and distributed graph communicators, as schedules
 * (coll.h).
 *
 * Block i of the send side goes to out-neighbour i, block i of the receive
 * side comes from in-neighbour i; MPI_PROC_NULL neighbours (the edges of a
 * non-periodic grid) send and receive nothing. Neighbour relations need not
 * be symmetric, so no two ranks can be kept in step round by round: the
 * first round posts every send, later rounds receive, GP_SCHED_STEPS at a
 * time, and the last ones wait for the sends still unreceived (large
 * messages). Posting all sends first means no rank ever waits for a
 * receive before its own sends are out, so no cycle of waits can form.
 *
 * Two messages between the same pair of ranks pair up in order. On a
 * periodic dimension of size 1 or 2 the neighbour in both directions is
 * the same rank; there, as MPI-4 made precise, what a rank sends towards
 * its negative neighbour arrives in that neighbour's positive block, so the
 * receives of that dimension are posted positive first. */
#include "coll.h"
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"

enum { GP_NBR_ALLGATHER, GP_NBR_ALLGATHERV, GP_NBR_ALLTOALL, GP_NBR_ALLTOALLV, GP_NBR_ALLTOALLW };

#define GP_NBR_CART_MAX 32   /* dimensions of a grid whose neighbours are listed inline */
#define GP_NBR_INLINE_ENVS 16

typedef struct gp_nbr_state {
    int kind;
    int indeg, outdeg;
    const int *in, *out;
    int cart;                  /* a Cartesian grid: pairs of (negative, positive) neighbours */
    int cart_nbrs[2 * GP_NBR_CART_MAX];
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    const int *scounts, *sdispls;
    const MPI_Aint *sbytes;    /* alltoallw: displacements in bytes */
    const MPI_Datatype *stypes;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    const int *rcounts, *rdispls;
    const MPI_Aint *rbytes;
    const MPI_Datatype *rtypes;
    int next_recv;             /* receives posted so far, in posting order */
    gp_msg **envs;             /* sends that wait for their receiver */
    int nenv, next_wait;
    gp_msg *inline_envs[GP_NBR_INLINE_ENVS];
} gp_nbr_state;

/* The neighbour lists of comm's topology, or MPI_ERR_TOPOLOGY. */
GPUMPI_FN static int gp_nbr_lists(const char *fn, MPI_Comm comm, gp_nbr_state *st)
{
    gp_comm *c = gp_comm_find(comm);
    if (c->topo) {
        gp_topo *t = c->topo;
        if (t->ndims > GP_NBR_CART_MAX)
            return gp_err(comm, fn, MPI_ERR_DIMS, "%d dimensions (at most %d here)", t->ndims, GP_NBR_CART_MAX);
        for (int d = 0; d < t->ndims; d++) MPI_Cart_shift(comm, d, 1, &st->cart_nbrs[2 * d], &st->cart_nbrs[2 * d + 1]);
        st->indeg = st->outdeg = 2 * t->ndims;
        st->in = st->out = st->cart_nbrs;
        st->cart = 1;
    } else if (c->graph) {
        gp_graph *g = c->graph;
        int me = c->rank, first = me ? g->index[me - 1] : 0;
        st->indeg = st->outdeg = g->index[me] - first;
        st->in = st->out = g->edges + first;
    } else if (c->dgraph) {
        st->indeg = c->dgraph->indeg;
        st->outdeg = c->dgraph->outdeg;
        st->in = c->dgraph->in;
        st->out = c->dgraph->out;
    } else {
        return gp_err(comm, fn, MPI_ERR_TOPOLOGY, "the communicator has no topology (Cartesian, graph or distributed graph)");
    }
    return MPI_SUCCESS;
}

/* Send block i: its address, count and type. */
GPUMPI_FN static const void *gp_nbr_send_block(const gp_nbr_state *st, int i, int *count, MPI_Datatype *type)
{
    switch (st->kind) {
    case GP_NBR_ALLGATHER:
    case GP_NBR_ALLGATHERV:
        *count = st->scount;
        *type = st->stype;
        return st->sbuf;
    case GP_NBR_ALLTOALL:
        *count = st->scount;
        *type = st->stype;
        return gp_coll_at(st->sbuf, i, st->scount, st->stype);
    case GP_NBR_ALLTOALLV:
        *count = st->scounts[i];
        *type = st->stype;
        return gp_coll_at(st->sbuf, st->sdispls[i], 1, st->stype);
    default:
        *count = st->scounts[i];
        *type = st->stypes[i];
        return (const char *)st->sbuf + st->sbytes[i];
    }
}

GPUMPI_FN static void *gp_nbr_recv_block(const gp_nbr_state *st, int i, int *count, MPI_Datatype *type)
{
    switch (st->kind) {
    case GP_NBR_ALLGATHER:
    case GP_NBR_ALLTOALL:
        *count = st->rcount;
        *type = st->rtype;
        return gp_coll_at(st->rbuf, i, st->rcount, st->rtype);
    case GP_NBR_ALLGATHERV:
    case GP_NBR_ALLTOALLV:
        *count = st->rcounts[i];
        *type = st->rtype;
        return gp_coll_at(st->rbuf, st->rdispls[i], 1, st->rtype);
    default:
        *count = st->rcounts[i];
        *type = st->rtypes[i];
        return (char *)st->rbuf + st->rbytes[i];
    }
}

/* The block the j-th receive goes to (see the top of the file). */
GPUMPI_FN static int gp_nbr_recv_order(const gp_nbr_state *st, int j)
{
    if (st->cart && st->in[j & ~1] == st->in[j | 1] && st->in[j] != MPI_PROC_NULL) return j ^ 1;
    return j;
}

/* Waits for a send as one of the round's steps. */
GPUMPI_FN static void gp_nbr_wait_send(gp_sched *s, gp_msg *env)
{
    gp_step *step = &s->steps[s->nsteps++];
    step->kind = GP_STEP_SEND;
    step->done = 0;
    step->peer = -1;
    step->env = env;
}

GPUMPI_FN static int gp_nbr_round(gp_sched *s, int round)
{
    gp_nbr_state *st = (gp_nbr_state *)s->tree.buf; /* a neighbour collective keeps its state there */
    if (round == 0) {
        for (int i = 0; i < st->outdeg; i++) {
            if (st->out[i] == MPI_PROC_NULL) continue;
            int count;
            MPI_Datatype type;
            const void *buf = gp_nbr_send_block(st, i, &count, &type);
            gp_msg *env = gp_send_start(buf, count, type, gp_comm_to_world(s->comm, st->out[i]), s->tag, s->ctx,
                                        GP_SEND_STANDARD);
            if (env) st->envs[st->nenv++] = env;
        }
    }
    while (st->next_recv < st->indeg && s->nsteps < GP_SCHED_STEPS) {
        int b = gp_nbr_recv_order(st, st->next_recv++);
        if (st->in[b] == MPI_PROC_NULL) continue;
        int count;
        MPI_Datatype type;
        void *buf = gp_nbr_recv_block(st, b, &count, &type);
        gp_sched_recv(s, st->in[b], buf, count, type, 1);
    }
    if (s->nsteps == 0)
        while (st->next_wait < st->nenv && s->nsteps < GP_SCHED_STEPS) gp_nbr_wait_send(s, st->envs[st->next_wait++]);
    return st->next_recv < st->indeg || st->next_wait < st->nenv;
}

/* Builds the schedule and runs it, or makes it a request (gp_coll_go);
 * st, checked, has the kind and buffers set. A request's state is copied
 * into the schedule's scratch, as it outlives the caller's frame. */
GPUMPI_FN static int gp_nbr_go(const gp_coll_nb *nb, const char *fn, MPI_Comm comm, gp_nbr_state *st)
{
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_sched_init(s, fn, comm);
    gp_nbr_state *kept = st;
    if (nb) {
        kept = (gp_nbr_state *)gp_sched_scratch(s, sizeof *kept);
        *kept = *st;
        if (st->in == st->cart_nbrs) kept->in = kept->out = kept->cart_nbrs;
    }
    kept->envs = kept->inline_envs;
    if (st->outdeg > GP_NBR_INLINE_ENVS) kept->envs = (gp_msg **)gp_sched_scratch(s, sizeof(gp_msg *) * (size_t)st->outdeg);
    s->tree.buf = (char *)kept;
    if (st->kind != GP_NBR_ALLTOALLW) { /* a request holds these (gp_coll_go): the program may free them meanwhile */
        s->a.stype = st->stype;
        s->a.rtype = st->rtype;
    }
    gp_sched_add_phase(s, gp_nbr_round);
    return gp_coll_go(nb, s);
}

/* Common checks: the communicator, its topology, no MPI_IN_PLACE. */
GPUMPI_FN static int gp_nbr_begin(const char *fn, MPI_Comm comm, const void *sbuf, const void *rbuf, int kind,
                                  gp_nbr_state *st)
{
    GP_TRY(gp_comm_check(fn, comm));
    GP_TRY(gp_coll_check_not_in_place(comm, fn, sbuf, "the send buffer"));
    GP_TRY(gp_coll_check_not_in_place(comm, fn, rbuf, "the receive buffer"));
    st->kind = kind;
    st->cart = 0;
    st->next_recv = st->nenv = st->next_wait = 0;
    return gp_nbr_lists(fn, comm, st);
}

GPUMPI_FN static int gp_nbr_check_one(MPI_Comm comm, const char *fn, int count, MPI_Datatype type)
{
    return gp_type_check(comm, fn, type, count);
}

GPUMPI_FN static int gp_nbr_check_counts(MPI_Comm comm, const char *fn, int n, const int *counts, const void *displs,
                                         MPI_Datatype type, const MPI_Datatype *types, const char *which)
{
    if (n > 0 && (!counts || !displs)) return gp_err(comm, fn, MPI_ERR_ARG, "the %s counts or displacements are NULL", which);
    return gp_coll_check_counts(comm, fn, counts, n, type, types, which);
}

/* MPI_Neighbor_allgather and MPI_Neighbor_alltoall: one count and type
 * each way, the same checks; `kind` says how the blocks are laid out. */
GPUMPI_FN static int gp_nbr_uniform(const gp_coll_nb *nb, const char *fn, int kind, const void *sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm)
{
    gp_nbr_state st;
    GP_TRY(gp_nbr_begin(fn, comm, sendbuf, recvbuf, kind, &st));
    GP_TRY(gp_nbr_check_one(comm, fn, sendcount, sendtype));
    GP_TRY(gp_nbr_check_one(comm, fn, recvcount, recvtype));
    st.sbuf = sendbuf;
    st.scount = sendcount;
    st.stype = sendtype;
    st.rbuf = recvbuf;
    st.rcount = recvcount;
    st.rtype = recvtype;
    return gp_nbr_go(nb, fn, comm, &st);
}

GPUMPI_FN int gp_neighbor_allgather_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                         MPI_Comm comm)
{
    return gp_nbr_uniform(nb, GP_COLL_FN(nb, "MPI_Neighbor_allgather"), GP_NBR_ALLGATHER, sendbuf, sendcount,
                          sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int gp_neighbor_allgatherv_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                          const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Neighbor_allgatherv");
    gp_nbr_state st;
    GP_TRY(gp_nbr_begin(fn, comm, sendbuf, recvbuf, GP_NBR_ALLGATHERV, &st));
    GP_TRY(gp_nbr_check_one(comm, fn, sendcount, sendtype));
    GP_TRY(gp_nbr_check_counts(comm, fn, st.indeg, recvcounts, displs, recvtype, 0, "receive"));
    st.sbuf = sendbuf;
    st.scount = sendcount;
    st.stype = sendtype;
    st.rbuf = recvbuf;
    st.rcounts = recvcounts;
    st.rdispls = displs;
    st.rtype = recvtype;
    return gp_nbr_go(nb, fn, comm, &st);
}

GPUMPI_FN int gp_neighbor_alltoall_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm)
{
    return gp_nbr_uniform(nb, GP_COLL_FN(nb, "MPI_Neighbor_alltoall"), GP_NBR_ALLTOALL, sendbuf, sendcount, sendtype,
                          recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int gp_neighbor_alltoallv_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[],
                                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                         MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Neighbor_alltoallv");
    gp_nbr_state st;
    GP_TRY(gp_nbr_begin(fn, comm, sendbuf, recvbuf, GP_NBR_ALLTOALLV, &st));
    GP_TRY(gp_nbr_check_counts(comm, fn, st.outdeg, sendcounts, sdispls, sendtype, 0, "send"));
    GP_TRY(gp_nbr_check_counts(comm, fn, st.indeg, recvcounts, rdispls, recvtype, 0, "receive"));
    st.sbuf = sendbuf;
    st.scounts = sendcounts;
    st.sdispls = sdispls;
    st.stype = sendtype;
    st.rbuf = recvbuf;
    st.rcounts = recvcounts;
    st.rdispls = rdispls;
    st.rtype = recvtype;
    return gp_nbr_go(nb, fn, comm, &st);
}

GPUMPI_FN int gp_neighbor_alltoallw_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[],
                                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                         const int recvcounts[], const MPI_Aint rdispls[],
                                         const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Neighbor_alltoallw");
    gp_nbr_state st;
    GP_TRY(gp_nbr_begin(fn, comm, sendbuf, recvbuf, GP_NBR_ALLTOALLW, &st));
    if (st.outdeg > 0 && !sendtypes) return gp_err(comm, fn, MPI_ERR_ARG, "the send types are NULL");
    if (st.indeg > 0 && !recvtypes) return gp_err(comm, fn, MPI_ERR_ARG, "the receive types are NULL");
    GP_TRY(gp_nbr_check_counts(comm, fn, st.outdeg, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, "send"));
    GP_TRY(gp_nbr_check_counts(comm, fn, st.indeg, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, "receive"));
    st.sbuf = sendbuf;
    st.scounts = sendcounts;
    st.sbytes = sdispls;
    st.stypes = sendtypes;
    st.rbuf = recvbuf;
    st.rcounts = recvcounts;
    st.rbytes = rdispls;
    st.rtypes = recvtypes;
    return gp_nbr_go(nb, fn, comm, &st);
}

GPUMPI_FN int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gp_neighbor_allgather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                      MPI_Comm comm)
{
    return gp_neighbor_allgatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

GPUMPI_FN int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gp_neighbor_alltoall_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gp_neighbor_alltoallv_call(0, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                      recvtype, comm);
}

GPUMPI_FN int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return gp_neighbor_alltoallw_call(0, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                      recvtypes, comm);
}
