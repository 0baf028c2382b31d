/* Argument checks shared by the collectives. */
#include "coll.h"

GPUMPI_FN int gp_coll_check_root(MPI_Comm comm, const char *fn, int root)
{
    if (root < 0 || root >= gp_comm_size(comm))
        return gp_err(comm, fn, MPI_ERR_ROOT, "invalid root %d (communicator has %d ranks)", root, gp_comm_size(comm));
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_coll_check_op(MPI_Comm comm, const char *fn, MPI_Op op, MPI_Datatype type)
{
    /* an empty application tells whether op is defined for type */
    uint64_t a = 0, b = 0;
    if (gp_reduce_apply(op, type, &a, &b, 0) != MPI_SUCCESS)
        return gp_err(comm, fn, MPI_ERR_OP, "operation %d is not defined for datatype %d", (int)op, (int)type);
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_coll_check_not_in_place(MPI_Comm comm, const char *fn, const void *buf, const char *which)
{
    if (buf == MPI_IN_PLACE) return gp_err(comm, fn, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as %s here", which);
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_coll_check_alias(MPI_Comm comm, const char *fn, const void *sbuf, const void *rbuf, size_t bytes)
{
    if (bytes && sbuf == rbuf && sbuf != MPI_IN_PLACE)
        return gp_err(comm, fn, MPI_ERR_BUFFER, "the send and receive buffers are the same (pass MPI_IN_PLACE instead)");
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_coll_check_counts(MPI_Comm comm, const char *fn, const int *counts, int n, MPI_Datatype type,
                                   const MPI_Datatype *types, const char *which)
{
    if (!counts && n) return gp_err(comm, fn, MPI_ERR_COUNT, "%s is NULL", which);
    if (!types) GP_TRY(gp_type_check(comm, fn, type, 0));
    for (int i = 0; i < n; i++) {
        if (types) GP_TRY(gp_type_check(comm, fn, types[i], 0));
        if (counts[i] < 0) return gp_err(comm, fn, MPI_ERR_COUNT, "%s[%d] is negative (%d)", which, i, counts[i]);
    }
    return MPI_SUCCESS;
}
