/* MPI_Comm_idup and MPI_Comm_idup_with_info: MPI_Comm_dup whose agreement
 * on the new context is a nonblocking broadcast (rank 0 takes the context).
 *
 * A dup that blocked until every member had called it hung programs that
 * are correct: a member may call MPI_Comm_idup and then wait for a message
 * that another member sends before its own MPI_Comm_idup, or start dups of
 * two communicators in different orders on different members. The new
 * communicator's handle, attributes and hints are made at the call; its
 * context is set when the broadcast's request completes (using it earlier
 * is erroneous).
 *
 * An intercommunicator's dup agrees the same way, through its two leaders
 * (coll_inter.cu's gp_inter_idup_agree): the leader of the group that
 * allocates the shared context pair hands it to the other leader, and each
 * leader hands it, with a context of its own for its group's hidden local
 * communicator, to its group. A dup that blocked hung MPICH's comm_idup,
 * whose leaders receive from the other group's members before they call
 * MPI_Comm_idup while those members send after theirs. */
#include "comm_impl.h"
#include "coll.h"
#include "requests.h"
#include "gpumpi/shim_stdlib.h"

typedef struct gp_idup {
    int ctx[2]; /* the agreement's buffer: the context, and an intercommunicator's local one */
    MPI_Comm newcomm;
} gp_idup;

GPUMPI_FN static void gp_idup_done(void *arg, int err)
{
    (void)err; /* raised on the parent by the request */
    gp_idup *d = (gp_idup *)arg;
    gp_comm *c = gp_comm_find(d->newcomm);
    if (c) c->ctx = d->ctx[0];
    if (c && c->inter) gp_comm_find(c->local)->ctx = d->ctx[1];
    gp_free(d);
}

GPUMPI_FN static int gp_comm_idup(const char *fn, MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm,
                                  MPI_Request *request)
{
    MPI_Info hints;
    GP_TRY(gp_comm_dup_hints(fn, comm, with_info, info, newcomm, &hints));
    if (!request) {
        gp_info_release(&hints);
        return gp_err(comm, fn, MPI_ERR_ARG, "the request argument is NULL");
    }
    gp_idup *d = (gp_idup *)gp_malloc(sizeof *d);
    if (!d) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a communicator's dup");
    int inter = gp_comm_is_inter(comm), leader = gp_comm_rank(comm) == 0;
    int allocates = !inter || gp_intercomm_allocates(comm);
    d->ctx[0] = leader && allocates ? gp_ctx_alloc(fn) : 0;
    d->ctx[1] = leader && inter ? gp_ctx_alloc(fn) : 0;
    d->newcomm = MPI_COMM_NULL;
    gp_coll_nb nb = {fn, request};
    int rc = inter ? gp_inter_idup_agree(&nb, comm, allocates, d->ctx) : gp_bcast_call(&nb, d->ctx, 1, MPI_INT, 0, comm);
    if (rc != MPI_SUCCESS) {
        gp_info_release(&hints);
        gp_free(d);
        return rc;
    }
    /* context 0 is no communicator's: the new one has none until the request completes */
    rc = gp_comm_dup_as(fn, comm, hints, 0, 0, newcomm);
    d->newcomm = *newcomm;
    gp_coll_req_then(*request, gp_idup_done, d);
    return rc;
}

GPUMPI_FN int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return gp_comm_idup("MPI_Comm_idup", comm, 0, MPI_INFO_NULL, newcomm, request);
}

GPUMPI_FN int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    return gp_comm_idup("MPI_Comm_idup_with_info", comm, 1, info, newcomm, request);
}
