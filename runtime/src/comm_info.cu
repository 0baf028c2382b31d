/* Communicator hints (MPI_Comm_set_info, get_info, dup_with_info). */
#include "comm_impl.h"

GPUMPI_FN int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return gp_comm_dup("MPI_Comm_dup_with_info", comm, 1, info, newcomm);
}

GPUMPI_FN int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    GP_TRY(gp_comm_check("MPI_Comm_set_info", comm));
    MPI_Info copy = MPI_INFO_NULL;
    if (info != MPI_INFO_NULL) GP_TRY(gp_info_copy_comm_hints("MPI_Comm_set_info", info, &copy));
    gp_comm *c = gp_comm_find(comm);
    if (!c) c = &gp_cs()->comms[MPI_COMM_WORLD];
    gp_info_release(&c->info);
    c->info = copy;
    return MPI_SUCCESS;
}

/* A new info object with the hints in force: the ones gpumpi takes, as
 * they were set. */
GPUMPI_FN int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    GP_TRY(gp_comm_check("MPI_Comm_get_info", comm));
    if (!info_used) return gp_err(comm, "MPI_Comm_get_info", MPI_ERR_ARG, "the info_used argument is NULL");
    gp_comm *c = gp_comm_find(comm);
    MPI_Info have = c ? c->info : gp_cs()->comms[MPI_COMM_WORLD].info;
    return gp_info_copy("MPI_Comm_get_info", have, info_used);
}
