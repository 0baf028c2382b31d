/* MPI_Comm_create_from_group (MPI-4.0): a communicator from a group alone,
 * with a string tag and no parent communicator (how sessions make theirs).
 *
 * The members must agree on a new context by themselves. They do it as
 * MPI_Comm_create_group does (gp_group_agree_ctx, comm_split.cu): the
 * group's rank 0 takes a context from the world's counter (unique in the
 * job, whoever takes it) and sends it down a binomial tree over the
 * members' world ranks, in the context reserved for group creation. The
 * string becomes the message tag (30 bits of its hash, below -1, where
 * MPI_Comm_create_group's int tags are >= 0), and its whole 64-bit hash
 * rides along and is checked: calls with different strings on overlapping
 * groups stay apart, and repeated calls with the same string and group
 * pair up in order, since messages between two ranks arrive in order.
 * Shared state keyed by the tag would need the same ordering plus memory
 * to reclaim; messages need neither, and cost log n rounds. */
#include "comm_impl.h"
#include "gpumpi/shim_string.h"

/* The checks both calls make on a group and the string, raised on the
 * error handler the program passed (the new communicator's). */
GPUMPI_FN int gp_from_group_check(const char *fn, MPI_Group group, const char *what, const char *stringtag,
                                  MPI_Errhandler eh)
{
    if (!gp_group_find(group) && group != MPI_GROUP_EMPTY)
        return gp_err_on(eh, MPI_COMM_NULL, fn, MPI_ERR_GROUP, "invalid %sgroup %d (%s)", what, (int)group,
                         group == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "never created, or freed");
    gp_group *g = gp_group_find(group);
    if (!g || g->rank == MPI_UNDEFINED)
        return gp_err_on(eh, MPI_COMM_NULL, fn, MPI_ERR_GROUP,
                         "this rank (world rank %d) is not in the %sgroup: only its members make the call",
                         gp_thread_rank(), what);
    if (!stringtag) return gp_err_on(eh, MPI_COMM_NULL, fn, MPI_ERR_ARG, "the string tag is NULL");
    if (gp_strnlen(stringtag, MPI_MAX_STRINGTAG_LEN) > MPI_MAX_STRINGTAG_LEN - 1)
        return gp_err_on(eh, MPI_COMM_NULL, fn, MPI_ERR_ARG,
                         "the string tag is longer than MPI_MAX_STRINGTAG_LEN - 1 (%d) characters",
                         MPI_MAX_STRINGTAG_LEN - 1);
    return MPI_SUCCESS;
}

/* The error handler argument: valid, and made for communicators. */
GPUMPI_FN int gp_from_group_errh_check(const char *fn, MPI_Errhandler eh)
{
    GP_TRY(gp_check_initialized(fn));
    if (!gp_errh_valid_for(eh, 0))
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "invalid error handler %d (not one made for communicators)",
                      (int)eh);
    return MPI_SUCCESS;
}

/* The hints taken from info onto the new communicator h. */
GPUMPI_FN int gp_from_group_hints(const char *fn, MPI_Comm h, MPI_Info info)
{
    if (info == MPI_INFO_NULL) return MPI_SUCCESS;
    MPI_Info hints;
    GP_TRY(gp_info_copy_comm_hints(fn, info, &hints));
    gp_comm_find(h)->info = hints;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                         MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_create_from_group";
    GP_TRY(gp_from_group_errh_check(fn, errhandler));
    if (!newcomm) return gp_err_on(errhandler, MPI_COMM_NULL, fn, MPI_ERR_ARG, "the newcomm argument is NULL");
    *newcomm = MPI_COMM_NULL;
    GP_TRY(gp_from_group_check(fn, group, "", stringtag, errhandler));
    gp_group *g = gp_group_find(group);
    gp_ranks ranks = g->ranks;
    int me = g->rank;
    uint64_t h = gp_stringtag_hash(stringtag);
    int ctx = gp_group_agree_ctx(fn, &ranks, me, gp_stringtag_tag(h, 0), h);
    gp_ranks_retain(&ranks);
    MPI_Comm c = gp_comm_make_with(errhandler, &ranks, me, ctx);
    GP_TRY(gp_from_group_hints(fn, c, info));
    *newcomm = c;
    return MPI_SUCCESS;
}
