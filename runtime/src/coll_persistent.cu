/* Persistent collectives (MPI-4.0 6.13): MPI_Barrier_init ... MPI_Exscan_init
 * and MPI_Neighbor_*_init.
 *
 * The init call keeps the arguments (a recipe) in an inactive collective
 * request; each MPI_Start runs one instance of the collective through the
 * body its blocking and nonblocking twins run (gp_<name>_call), with the
 * schedule in the request (gp_coll_nb.into). So the arguments are checked,
 * and errors raised, at MPI_Start, under the init call's name.
 *
 * Members may start persistent collectives in different orders (only their
 * init calls are ordered), so an instance is not numbered by the
 * communicator's sequence: the init call takes one number of that sequence
 * (the same on every member), and instance k of it is numbered from that
 * and k, in a range of its own (GP_SEQ_PERSISTENT). Instances of one
 * operation are then told apart even by the gatherv root's receive from any
 * source, when a member has gone on to its next instance. */
#include "coll.h"
#include "requests.h"
#include "gpumpi/shim_stdlib.h"

typedef struct gp_coll_recipe gp_coll_recipe;
typedef int (*gp_coll_start_fn)(const gp_coll_nb *nb, const gp_coll_recipe *p);

struct gp_coll_recipe {
    gp_coll_start_fn start; /* calls the collective's body with the arguments kept */
    const char *fn;         /* MPI_..._init */
    MPI_Comm comm;
    uint32_t base;          /* its number in the communicator's sequence */
    uint32_t starts;        /* instances started */
    gp_coll_args a;
    const MPI_Aint *sbytes, *rbytes; /* MPI_Neighbor_alltoallw's displacements */
    void *kept_arrays;      /* a large-count (_c) init call's narrowed arrays, freed with the request */
};

/* Instance k's sequence number: 14 bits of the operation's, 14 of k. */
GPUMPI_FN static uint32_t gp_coll_instance_seq(const gp_coll_recipe *p)
{
    return GP_SEQ_PERSISTENT | (p->base & 0x3fffu) << 14 | (p->starts & 0x3fffu);
}

/* The request for *p (copied to the heap), inactive. The communicator and
 * the datatypes are held until MPI_Request_free: the program may free them
 * meanwhile. */
GPUMPI_FN static int gp_coll_persistent(const gp_coll_recipe *p, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are taken */
    GP_TRY(gp_comm_check(p->fn, p->comm));
    if (!request) return gp_err(p->comm, p->fn, MPI_ERR_REQUEST, "the request argument is NULL");
    gp_coll_recipe *kept = (gp_coll_recipe *)gp_malloc(sizeof *kept);
    if (!kept) return gp_fatal(p->fn, MPI_ERR_NO_MEM, "no device heap left for a persistent collective (raise --heap)");
    *kept = *p;
    kept->base = gp_comm_next_coll_seq(p->comm);
    kept->starts = 0;
    gp_comm_hold(p->comm);
    gp_type_hold(p->a.stype);
    gp_type_hold(p->a.rtype);
    int h = gp_req_new(GP_REQ_COLL);
    gp_req *q = gp_req_at(h);
    q->persistent = 1;
    q->comm = p->comm;
    q->peer = GP_BLOCK_NONE;
    q->tag = GP_BLOCK_NONE;
    q->recipe = kept;
    *request = h;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_coll_persistent_start(int h)
{
    gp_coll_recipe *p = gp_req_at(h)->recipe;
    MPI_Request same;
    gp_coll_nb nb = {p->fn, &same, h, gp_coll_instance_seq(p)};
    int rc = p->start(&nb, p);
    if (rc == MPI_SUCCESS) p->starts++;
    return rc;
}

GPUMPI_FN void gp_coll_persistent_free(gp_req *q)
{
    gp_coll_recipe *p = q->recipe;
    q->recipe = 0;
    gp_comm_unhold(p->comm);
    gp_type_release(p->a.stype);
    gp_type_release(p->a.rtype);
    gp_free(p->kept_arrays);
    gp_free(p);
}

GPUMPI_FN void gp_coll_persistent_keep(gp_req *q, void *arrays)
{
    q->recipe->kept_arrays = arrays;
}

/* ---- the MPI functions: each keeps its arguments in the recipe's fields of
 * the same names as the schedules' (gp_coll_args), and a start function
 * hands them back to the body. */

#define GP_RECIPE(name, startfn, c)                                                                         \
    gp_coll_recipe p = {};                                                                                  \
    p.start = startfn;                                                                                      \
    p.fn = name;                                                                                            \
    p.comm = c;                                                                                             \
    gp_coll_args *a = &p.a

GPUMPI_FN static int gp_barrier_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    return gp_barrier_call(nb, p->comm);
}

GPUMPI_FN int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    gp_coll_recipe p = {};
    p.start = gp_barrier_start;
    p.fn = "MPI_Barrier_init";
    p.comm = comm;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_bcast_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    return gp_bcast_call(nb, p->a.rbuf, p->a.rcount, p->a.rtype, p->a.root, p->comm);
}

GPUMPI_FN int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    GP_RECIPE("MPI_Bcast_init", gp_bcast_start, comm);
    a->rbuf = buffer;
    a->rcount = count;
    a->rtype = datatype;
    a->root = root;
    return gp_coll_persistent(&p, info, request);
}

/* The reductions: (sbuf, rbuf, rcount, rtype, op), and root or rcounts. */
#define GP_RECIPE_REDUCTION(name, startfn)                                                                  \
    GP_RECIPE(name, startfn, comm);                                                                         \
    a->sbuf = sendbuf;                                                                                      \
    a->rbuf = recvbuf;                                                                                      \
    a->rtype = datatype;                                                                                    \
    a->op = op

GPUMPI_FN static int gp_reduce_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_reduce_call(nb, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, p->comm);
}

GPUMPI_FN int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_REDUCTION("MPI_Reduce_init", gp_reduce_start);
    a->rcount = count;
    a->root = root;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_allreduce_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_allreduce_call(nb, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, p->comm);
}

GPUMPI_FN int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_REDUCTION("MPI_Allreduce_init", gp_allreduce_start);
    a->rcount = count;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_reduce_scatter_block_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_reduce_scatter_block_call(nb, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, p->comm);
}

GPUMPI_FN int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_REDUCTION("MPI_Reduce_scatter_block_init", gp_reduce_scatter_block_start);
    a->rcount = recvcount;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_reduce_scatter_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_reduce_scatter_call(nb, a->sbuf, a->rbuf, a->rcounts, a->rtype, a->op, p->comm);
}

GPUMPI_FN int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                      MPI_Request *request)
{
    GP_RECIPE_REDUCTION("MPI_Reduce_scatter_init", gp_reduce_scatter_start);
    a->rcounts = recvcounts;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_scan_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_scan_call(nb, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, p->comm);
}

GPUMPI_FN int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_REDUCTION("MPI_Scan_init", gp_scan_start);
    a->rcount = count;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_exscan_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_exscan_call(nb, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, p->comm);
}

GPUMPI_FN int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_REDUCTION("MPI_Exscan_init", gp_exscan_start);
    a->rcount = count;
    return gp_coll_persistent(&p, info, request);
}

/* The data movers: a send side and a receive side, each (buf, count, type)
 * or (buf, counts, displacements, type). */
#define GP_RECIPE_SIDES(name, startfn)                                                                      \
    GP_RECIPE(name, startfn, comm);                                                                         \
    a->sbuf = sendbuf;                                                                                      \
    a->stype = sendtype;                                                                                    \
    a->rbuf = recvbuf;                                                                                      \
    a->rtype = recvtype

GPUMPI_FN static int gp_gather_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_gather_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root, p->comm);
}

GPUMPI_FN int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Gather_init", gp_gather_start);
    a->scount = sendcount;
    a->rcount = recvcount;
    a->root = root;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_gatherv_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_gatherv_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls, a->rtype, a->root,
                           p->comm);
}

GPUMPI_FN int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Gatherv_init", gp_gatherv_start);
    a->scount = sendcount;
    a->rcounts = recvcounts;
    a->rdispls = displs;
    a->root = root;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_scatter_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_scatter_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root, p->comm);
}

GPUMPI_FN int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Scatter_init", gp_scatter_start);
    a->scount = sendcount;
    a->rcount = recvcount;
    a->root = root;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_scatterv_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_scatterv_call(nb, a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                            p->comm);
}

GPUMPI_FN int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Scatterv_init", gp_scatterv_start);
    a->scounts = sendcounts;
    a->sdispls = displs;
    a->rcount = recvcount;
    a->root = root;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_allgather_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_allgather_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, p->comm);
}

GPUMPI_FN int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Allgather_init", gp_allgather_start);
    a->scount = sendcount;
    a->rcount = recvcount;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_allgatherv_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_allgatherv_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls, a->rtype, p->comm);
}

GPUMPI_FN int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Allgatherv_init", gp_allgatherv_start);
    a->scount = sendcount;
    a->rcounts = recvcounts;
    a->rdispls = displs;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_alltoall_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_alltoall_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, p->comm);
}

GPUMPI_FN int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Alltoall_init", gp_alltoall_start);
    a->scount = sendcount;
    a->rcount = recvcount;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_alltoallv_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_alltoallv_call(nb, a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts, a->rdispls, a->rtype,
                             p->comm);
}

GPUMPI_FN int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Alltoallv_init", gp_alltoallv_start);
    a->scounts = sendcounts;
    a->sdispls = sdispls;
    a->rcounts = recvcounts;
    a->rdispls = rdispls;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_alltoallw_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_alltoallw_call(nb, a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf, a->rcounts, a->rdispls,
                             a->rtypes, p->comm);
}

GPUMPI_FN int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                 const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    GP_RECIPE("MPI_Alltoallw_init", gp_alltoallw_start, comm);
    a->sbuf = sendbuf;
    a->scounts = sendcounts;
    a->sdispls = sdispls;
    a->stypes = sendtypes;
    a->rbuf = recvbuf;
    a->rcounts = recvcounts;
    a->rdispls = rdispls;
    a->rtypes = recvtypes;
    return gp_coll_persistent(&p, info, request);
}

/* ---- neighbourhood collectives */

GPUMPI_FN static int gp_neighbor_allgather_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_neighbor_allgather_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, p->comm);
}

GPUMPI_FN int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Neighbor_allgather_init", gp_neighbor_allgather_start);
    a->scount = sendcount;
    a->rcount = recvcount;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_neighbor_allgatherv_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_neighbor_allgatherv_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls, a->rtype,
                                       p->comm);
}

GPUMPI_FN int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Neighbor_allgatherv_init", gp_neighbor_allgatherv_start);
    a->scount = sendcount;
    a->rcounts = recvcounts;
    a->rdispls = displs;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_neighbor_alltoall_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_neighbor_alltoall_call(nb, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, p->comm);
}

GPUMPI_FN int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Neighbor_alltoall_init", gp_neighbor_alltoall_start);
    a->scount = sendcount;
    a->rcount = recvcount;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_neighbor_alltoallv_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_neighbor_alltoallv_call(nb, a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts, a->rdispls,
                                      a->rtype, p->comm);
}

GPUMPI_FN int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request)
{
    GP_RECIPE_SIDES("MPI_Neighbor_alltoallv_init", gp_neighbor_alltoallv_start);
    a->scounts = sendcounts;
    a->sdispls = sdispls;
    a->rcounts = recvcounts;
    a->rdispls = rdispls;
    return gp_coll_persistent(&p, info, request);
}

GPUMPI_FN static int gp_neighbor_alltoallw_start(const gp_coll_nb *nb, const gp_coll_recipe *p)
{
    const gp_coll_args *a = &p->a;
    return gp_neighbor_alltoallw_call(nb, a->sbuf, a->scounts, p->sbytes, a->stypes, a->rbuf, a->rcounts, p->rbytes,
                                      a->rtypes, p->comm);
}

GPUMPI_FN int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                          MPI_Info info, MPI_Request *request)
{
    GP_RECIPE("MPI_Neighbor_alltoallw_init", gp_neighbor_alltoallw_start, comm);
    a->sbuf = sendbuf;
    a->scounts = sendcounts;
    a->stypes = sendtypes;
    a->rbuf = recvbuf;
    a->rcounts = recvcounts;
    a->rtypes = recvtypes;
    p.sbytes = sdispls;
    p.rbytes = rdispls;
    return gp_coll_persistent(&p, info, request);
}
