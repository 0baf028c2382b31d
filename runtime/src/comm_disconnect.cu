/* MPI_Comm_disconnect: MPI_Comm_free that first waits for the rank's
 * pending communication on the communicator (MPI-4.0 11.10.4). Every
 * communicator here is one of the world's (no dynamic processes), so
 * that wait and a barrier (the call is collective) are all there is to
 * it. */
#include "requests.h"

GPUMPI_FN int MPI_Comm_disconnect(MPI_Comm *comm)
{
    const char *fn = "MPI_Comm_disconnect";
    if (!comm) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the communicator argument is NULL");
    GP_TRY(gp_comm_check(fn, *comm));
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return gp_err(*comm, fn, MPI_ERR_COMM, "cannot disconnect %s",
                      *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
    gp_rank *r = gp_self();
    unsigned spins = 0;
    int entered = 0;
    for (MPI_Request h = 1; h <= r->nreqs; h++) {
        gp_req *q = gp_req_at(h);
        if (q->kind == GP_REQ_FREE || q->comm != *comm || !q->active) continue;
        GP_TRY(gp_part_check_wait(fn, 1, &h));
        for (;;) { /* MPI_Request_get_status moves it along without completing it: the program still holds it */
            int flag;
            GP_TRY(MPI_Request_get_status(h, &flag, MPI_STATUS_IGNORE));
            if (flag || gp_req_at(h)->kind == GP_REQ_FREE) break;
            if (!entered) gp_block_enter(fn, *comm, GP_BLOCK_NONE, GP_BLOCK_NONE);
            entered = 1;
            gp_block_wait(&spins);
        }
    }
    if (entered) gp_block_leave();
    GP_TRY(MPI_Barrier(*comm));
    return MPI_Comm_free(comm);
}
