/* Argument checks shared by the collectives. */
#include "coll.h"

GPUMPI_FN int gp_coll_check_root(MPI_Comm comm, const char *fn, int root)
{
    if (gp_coll_is_inter(comm)) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < gp_comm_peer_size(comm)))
            return MPI_SUCCESS;
        return gp_err(comm, fn, MPI_ERR_ROOT,
                      "invalid root %d (on an intercommunicator: MPI_ROOT, MPI_PROC_NULL or a rank of the %d-rank remote group)",
                      root, gp_comm_peer_size(comm));
    }
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
    /* both MPI_BOTTOM: absolute addresses in the types (issue 9 part B, mpi3) */
    if (bytes && sbuf == rbuf && sbuf != MPI_IN_PLACE && sbuf != MPI_BOTTOM)
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

GPUMPI_FN int gp_coll_check_rooted(MPI_Comm comm, const char *fn, int root, int gathers, int v, const void *one,
                                   int one_count, MPI_Datatype one_type, const void *many, int many_count,
                                   const int *many_counts, const int *displs, MPI_Datatype many_type)
{
    GP_TRY(gp_comm_check(fn, comm));
    GP_TRY(gp_coll_check_root(comm, fn, root));
    int is_root = gp_comm_rank(comm) == root;
    if (!is_root || one != MPI_IN_PLACE) GP_TRY(gp_type_check(comm, fn, one_type, one_count));
    if (!is_root)
        return gp_coll_check_not_in_place(comm, fn, one,
                                          gathers ? "the send buffer (only the root may use it)"
                                                  : "the receive buffer (only the root may use it)");
    if (v) {
        GP_TRY(gp_coll_check_counts(comm, fn, many_counts, gp_comm_size(comm), many_type, 0,
                                    gathers ? "recvcounts" : "sendcounts"));
        if (!displs) return gp_err(comm, fn, MPI_ERR_ARG, "displs is NULL");
    } else {
        GP_TRY(gp_type_check(comm, fn, many_type, many_count));
    }
    GP_TRY(gp_coll_check_not_in_place(comm, fn, many, gathers ? "the receive buffer" : "the send buffer"));
    if (one == MPI_IN_PLACE) return MPI_SUCCESS; /* one type is not significant then */
    /* the v forms' blocks vary: the root's own block is the one side */
    size_t bytes = v ? gp_coll_bytes(one_count, one_type) : gp_coll_bytes(many_count, many_type);
    return gp_coll_check_alias(comm, fn, one, many, bytes);
}

GPUMPI_FN int gp_coll_check_uniform(MPI_Comm comm, const char *fn, const void *sbuf, int scount, MPI_Datatype stype,
                                    const void *rbuf, int rcount, MPI_Datatype rtype)
{
    GP_TRY(gp_comm_check(fn, comm));
    if (sbuf != MPI_IN_PLACE) GP_TRY(gp_type_check(comm, fn, stype, scount));
    GP_TRY(gp_type_check(comm, fn, rtype, rcount));
    GP_TRY(gp_coll_check_not_in_place(comm, fn, rbuf, "the receive buffer"));
    return gp_coll_check_alias(comm, fn, sbuf, rbuf, gp_coll_bytes(rcount, rtype));
}
