/* MPI-4.0 sessions (part of mpi.h): a program may start MPI with
 * MPI_Session_init instead of (or beside) MPI_Init, take a group from a
 * process set ("mpi://WORLD", "mpi://SELF") and make communicators from
 * groups, with a string tag instead of a parent communicator
 * (runtime/src/session.cu, comm_from_group.cu). Handles are small ints
 * local to the calling rank, like the others. */
#ifndef GPUMPI_MPI_SESSION_H
#define GPUMPI_MPI_SESSION_H

typedef int MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256

/* No "...", as MPI_Comm_errhandler_function (mpi_comm.h says why). */
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *error_code);

GPUMPI_FN int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session);
GPUMPI_FN int MPI_Session_finalize(MPI_Session *session);
GPUMPI_FN int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
GPUMPI_FN int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names);
GPUMPI_FN int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name);
GPUMPI_FN int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info);
GPUMPI_FN int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup);
GPUMPI_FN int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                         MPI_Errhandler errhandler, MPI_Comm *newcomm);
GPUMPI_FN int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                               int remote_leader, const char *stringtag, MPI_Info info,
                                               MPI_Errhandler errhandler, MPI_Comm *newintercomm);

GPUMPI_FN int MPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                            MPI_Errhandler *errhandler);
GPUMPI_FN int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
GPUMPI_FN int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler);
GPUMPI_FN int MPI_Session_call_errhandler(MPI_Session session, int errorcode);

#endif
