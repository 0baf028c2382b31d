/* Nonblocking collectives: MPI_Ibarrier ... MPI_Iexscan, MPI_Ineighbor_*.
 *
 * Each one runs the body its blocking twin runs (gp_<name>_call in the
 * coll_*.cu files: the same checks, the same schedule), with the schedule
 * in heap memory the request owns instead of on the caller's stack. The
 * request is then a schedule in flight: every gp_progress (which any
 * Wait/Test and every wait loop of a blocking call makes) moves all of this
 * rank's collectives in flight along, so a collective progresses whenever
 * its rank is inside MPI. Rounds are made on demand, so a request holds
 * O(1) memory whatever the communicator's size.
 *
 * The schedule takes its sequence number on the communicator when the call
 * is made, as a blocking collective does: collectives on one communicator,
 * blocking or not, are matched in call order, and their messages (tagged
 * with that number in the collective context) never meet another's.
 * The blocking shared-memory fast paths (shm_collectives.cu) take no
 * sequence number and no messages; every member decides to take them the
 * same way, so the numbering stays the same on every rank. Their waits
 * call gp_progress while collectives are in flight (gp_progress_wanted). */
#include "coll.h"
#include "requests.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/format.h"

/* A collective request's storage: the schedule, and the datatypes and the
 * op it holds (freed by the user meanwhile, they stay usable until
 * completion). */
typedef struct gp_coll_store {
    gp_sched s; /* first: the request's sched pointer is the store's */
    MPI_Datatype held[4];
    gp_coll_then then; /* gp_coll_req_then */
    void *then_arg;
    MPI_Op held_op;
} gp_coll_store;

/* Finished requests' stores are kept for the next ones (most programs
 * have one or a few collectives in flight at a time): no heap allocation
 * in the common case. */
#define GP_COLL_SPARES 4
typedef struct gp_coll_spare {
    struct gp_coll_spare *next;
    int depth; /* stores in the list from here on */
} gp_coll_spare;

GPUMPI_FN gp_sched *gp_coll_sched(const gp_coll_nb *nb, gp_sched *local)
{
    if (!nb) return local;
    gp_rank *r = gp_self();
    gp_coll_spare *spare = (gp_coll_spare *)r->sched_spare;
    if (spare) {
        r->sched_spare = spare->next;
        return &((gp_coll_store *)(void *)spare)->s;
    }
    gp_coll_store *st = (gp_coll_store *)gp_malloc(sizeof(gp_coll_store));
    if (!st)
        gp_fatal(nb->fn, MPI_ERR_NO_MEM, "no device heap left for a %zu-byte collective schedule (raise --heap)",
                 sizeof(gp_coll_store));
    return &st->s;
}

GPUMPI_FN static void gp_coll_store_free(gp_coll_store *st)
{
    gp_rank *r = gp_self();
    gp_coll_spare *head = (gp_coll_spare *)r->sched_spare;
    int depth = head ? head->depth : 0;
    if (depth >= GP_COLL_SPARES) {
        gp_free(st);
        return;
    }
    gp_coll_spare *spare = (gp_coll_spare *)(void *)st;
    spare->next = head;
    spare->depth = depth + 1;
    r->sched_spare = spare;
}

GPUMPI_FN int gp_coll_go(const gp_coll_nb *nb, gp_sched *s)
{
    if (!nb) return gp_coll_run(s);
    gp_coll_store *st = (gp_coll_store *)(void *)s;
    s->fn = nb->fn; /* errors and the watchdog name the nonblocking call */
    MPI_Datatype types[4] = {s->a.stype, s->a.rtype, s->red.type, s->red.res_type};
    for (int i = 0; i < 4; i++) {
        st->held[i] = types[i];
        gp_type_hold(types[i]); /* nothing for predefined types and MPI_DATATYPE_NULL */
    }
    st->then = 0;
    st->held_op = s->red.op; /* MPI_OP_NULL (nothing held) unless a reduction */
    gp_op_hold(st->held_op);
    gp_comm_hold(s->comm);
    if (nb->into) gp_sched_renumber(s, nb->seq);
    int h = nb->into ? nb->into : gp_req_new(GP_REQ_COLL);
    gp_req *q = gp_req_at(h);
    q->active = 1;
    q->done = 0;
    q->comm = s->comm;
    q->peer = GP_BLOCK_NONE;
    q->tag = GP_BLOCK_NONE;
    q->sched = s;
    gp_rank *r = gp_self();
    q->next_coll = r->coll_head;
    r->coll_head = h;
    gp_flag_set(GP_RF_COLL, 1);
    gp_flag_set(GP_RF_SETTLED, 0);
    *nb->request = h;
    gp_progress(); /* starts it (and moves everything else along) */
    return MPI_SUCCESS;
}

GPUMPI_FN void gp_coll_progress_all(void)
{
    gp_rank *r = gp_self();
    int prev = 0;
    for (int h = r->coll_head; h;) {
        gp_req *q = gp_req_at(h);
        int next = q->next_coll;
        if (gp_sched_progress(q->sched)) { /* finished: out of the list, Wait/Test hand it back */
            q->done = 1;
            q->next_coll = 0;
            if (prev)
                gp_req_at(prev)->next_coll = next;
            else
                r->coll_head = next;
            gp_flag_set(GP_RF_COLL, r->coll_head != 0);
        } else {
            prev = h;
        }
        h = next;
    }
}

/* For the deadlock watchdog: the oldest collective in flight (the list is
 * newest first) and what its round waits for, written as "PREFIX:
 * MPI_Iallreduce #3 phase 0 Recv", with the peer's world rank. *shown
 * names what the record holds (0: nothing yet): an unchanged wait is not
 * written again (the record is host memory). 0 when none is in flight. */
GPUMPI_FN int gp_coll_describe_wait(const char *prefix, uint64_t *shown, char *text, size_t cap, MPI_Comm *comm,
                                    int *peer_world)
{
    int h = gp_self()->coll_head;
    if (!h) return 0;
    while (gp_req_at(h)->next_coll) h = gp_req_at(h)->next_coll;
    gp_sched *s = gp_req_at(h)->sched;
    int kind = 3, peer = GP_BLOCK_NONE; /* 3: between rounds */
    for (int i = 0; i < s->nsteps; i++) {
        gp_step *st = &s->steps[i];
        if (st->done) continue;
        kind = st->kind == GP_STEP_SEND ? 0 : st->kind == GP_STEP_RECV ? 1 : 2;
        peer = kind == 2 ? MPI_ANY_SOURCE : gp_comm_to_world(s->comm, st->peer);
        break;
    }
    /* bits: 63 set, 39-62 sequence number, 35-38 phase, 33-34 kind,
     * 12-32 peer + 2, 0-11 communicator */
    uint64_t key = 1ull << 63 | (uint64_t)(s->seq & 0xffffffu) << 39 | (uint64_t)(s->phase & 0xf) << 35 |
                   (uint64_t)kind << 33 | (uint64_t)((uint32_t)(peer + 2) & 0x1fffffu) << 12 |
                   (uint64_t)((uint32_t)s->comm & 0xfffu);
    if (key == *shown) return 1;
    *shown = key;
    const char *what[4] = {"Send", "Recv", "Recv", "(between rounds)"};
    gp_snprintf(text, cap, "%s: %s #%u phase %d %s", prefix, s->fn, (unsigned)s->seq, s->phase, what[kind]);
    *comm = s->comm;
    *peer_world = peer;
    return 1;
}

GPUMPI_FN int gp_coll_req_sends_pending(gp_req *q) { return q->sched->sends_pending; }

GPUMPI_FN int gp_coll_sends_pending(void)
{
    for (int h = gp_self()->coll_head; h; h = gp_req_at(h)->next_coll)
        if (gp_req_at(h)->sched->sends_pending) return 1;
    return 0;
}

GPUMPI_FN int gp_coll_req_complete(gp_req *q)
{
    gp_coll_store *st = (gp_coll_store *)(void *)q->sched;
    q->sched = 0;
    if (st->then) st->then(st->then_arg, st->s.err);
    int rc = gp_coll_finish(&st->s); /* frees the scratch; raises the error, if any, on the communicator */
    gp_comm_unhold(st->s.comm);
    for (int i = 0; i < 4; i++) gp_type_release(st->held[i]);
    gp_op_release(st->held_op);
    gp_coll_store_free(st);
    return rc;
}

GPUMPI_FN void gp_coll_req_then(MPI_Request request, gp_coll_then then, void *arg)
{
    gp_coll_store *st = (gp_coll_store *)(void *)gp_req_at(request)->sched;
    st->then = then;
    st->then_arg = arg;
}

/* ---- the MPI functions ------------------------------------------------------- */

#define GP_NB(name)                                                                                     \
    gp_coll_nb nb = {name, request};                                                                    \
    if (!request) return gp_err(MPI_COMM_WORLD, name, MPI_ERR_REQUEST, "the request argument is NULL")

GPUMPI_FN int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ibarrier");
    return gp_barrier_call(&nb, comm);
}

GPUMPI_FN int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                         MPI_Request *request)
{
    GP_NB("MPI_Ibcast");
    return gp_bcast_call(&nb, buffer, count, datatype, root, comm);
}

GPUMPI_FN int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                          MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ireduce");
    return gp_reduce_call(&nb, sendbuf, recvbuf, count, datatype, op, root, comm);
}

GPUMPI_FN int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Iallreduce");
    return gp_allreduce_call(&nb, sendbuf, recvbuf, count, datatype, op, comm);
}

GPUMPI_FN int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Igather");
    return gp_gather_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

GPUMPI_FN int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Request *request)
{
    GP_NB("MPI_Igatherv");
    return gp_gatherv_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

GPUMPI_FN int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Iscatter");
    return gp_scatter_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

GPUMPI_FN int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request *request)
{
    GP_NB("MPI_Iscatterv");
    return gp_scatterv_call(&nb, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

GPUMPI_FN int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Iallgather");
    return gp_allgather_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    GP_NB("MPI_Iallgatherv");
    return gp_allgatherv_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

GPUMPI_FN int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ialltoall");
    return gp_alltoall_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ialltoallv");
    return gp_alltoallv_call(&nb, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                             comm);
}

GPUMPI_FN int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ialltoallw");
    return gp_alltoallw_call(&nb, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                             comm);
}

GPUMPI_FN int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                        MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ireduce_scatter_block");
    return gp_reduce_scatter_block_call(&nb, sendbuf, recvbuf, recvcount, datatype, op, comm);
}

GPUMPI_FN int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ireduce_scatter");
    return gp_reduce_scatter_call(&nb, sendbuf, recvbuf, recvcounts, datatype, op, comm);
}

GPUMPI_FN int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Iscan");
    return gp_scan_call(&nb, sendbuf, recvbuf, count, datatype, op, comm);
}

GPUMPI_FN int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Iexscan");
    return gp_exscan_call(&nb, sendbuf, recvbuf, count, datatype, op, comm);
}

/* ---- neighbourhood collectives (coll_neighbor.cu) */

GPUMPI_FN int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ineighbor_allgather");
    return gp_neighbor_allgather_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                       MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ineighbor_allgatherv");
    return gp_neighbor_allgatherv_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                       comm);
}

GPUMPI_FN int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    GP_NB("MPI_Ineighbor_alltoall");
    return gp_neighbor_alltoall_call(&nb, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

GPUMPI_FN int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                      MPI_Request *request)
{
    GP_NB("MPI_Ineighbor_alltoallv");
    return gp_neighbor_alltoallv_call(&nb, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                      recvtype, comm);
}

GPUMPI_FN int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                      const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                      MPI_Request *request)
{
    GP_NB("MPI_Ineighbor_alltoallw");
    return gp_neighbor_alltoallw_call(&nb, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                      recvtypes, comm);
}
