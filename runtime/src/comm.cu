/* Communicators: the calling rank's table of handles, rank translation and
 * context ids. (Only MPI_COMM_WORLD and MPI_COMM_SELF so far.) */
#include "runtime.h"

GPUMPI_FN int gp_comm_check(const char *fn, MPI_Comm comm)
{
    GP_TRY(gp_check_initialized(fn));
    if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COMM, "invalid communicator %d", (int)comm);
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_comm_size(MPI_Comm comm) { return comm == MPI_COMM_SELF ? 1 : gp_w()->nranks; }
GPUMPI_FN int gp_comm_rank(MPI_Comm comm) { return comm == MPI_COMM_SELF ? 0 : gp_thread_rank(); }
GPUMPI_FN int gp_comm_to_world(MPI_Comm comm, int rank) { return comm == MPI_COMM_SELF ? gp_thread_rank() : rank; }
GPUMPI_FN int gp_world_to_comm(MPI_Comm comm, int world_rank)
{
    if (comm == MPI_COMM_SELF) return world_rank == gp_thread_rank() ? 0 : MPI_UNDEFINED;
    return world_rank;
}

GPUMPI_FN int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    GP_TRY(gp_comm_check("MPI_Comm_rank", comm));
    *rank = gp_comm_rank(comm);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_size(MPI_Comm comm, int *size)
{
    GP_TRY(gp_comm_check("MPI_Comm_size", comm));
    *size = gp_comm_size(comm);
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_ctx_p2p(MPI_Comm comm) { return comm * 2; }
GPUMPI_FN int gp_ctx_coll(MPI_Comm comm) { return comm * 2 + 1; }

GPUMPI_FN int gp_comm_is_world_range(MPI_Comm comm, int *first)
{
    *first = comm == MPI_COMM_SELF ? gp_thread_rank() : 0;
    return 1;
}

GPUMPI_FN MPI_Errhandler gp_comm_errhandler(MPI_Comm comm)
{
    (void)comm;
    return MPI_ERRORS_ARE_FATAL;
}

GPUMPI_FN uint32_t gp_comm_next_coll_seq(MPI_Comm comm) { return gp_self()->coll_seq[comm == MPI_COMM_SELF]++; }
