/* MPI-4.0 sessions: MPI_Session_init/finalize, the process sets, session
 * info and session error handlers.
 *
 * A session needs no state of its own beyond its handle: it opens the
 * rank's MPI state the way MPI_Init does (gp_rank_state_open), and while
 * any session is open GP_RF_SESSION lets MPI calls through without
 * MPI_Init. MPI_COMM_WORLD and MPI_COMM_SELF stay the world model's
 * (valid only inside MPI_Init..MPI_Finalize); a session's communicators
 * come from groups (comm_from_group.cu). Sessions may be opened and closed
 * any number of times, several at once, before, during or after the world
 * model. Every level of thread support is honoured (a rank is one thread),
 * so a session grants the level its info asks for. */
#include "comm_impl.h"
#include "gpumpi/format.h"
#include "gpumpi/shim_string.h"

/* The two process sets: every rank, and the calling rank alone. */
#define GP_PSET_WORLD "mpi://WORLD"
#define GP_PSET_SELF "mpi://SELF"
#define GP_NPSETS 2

GPUMPI_FN static gp_session *gp_session_find(MPI_Session s)
{
    gp_comm_state *cs = (gp_comm_state *)gp_self()->comm_state;
    int i = s - GP_SESSION_BASE;
    return cs && i >= 0 && i < cs->nsessions && cs->sessions[i].live ? &cs->sessions[i] : 0;
}

/* Errors on an invalid handle have no session to go to: the world's
 * handler, as for other calls without an object. */
GPUMPI_FN static int gp_session_check(const char *fn, MPI_Session s)
{
    if (gp_session_find(s)) return MPI_SUCCESS;
    if (s == MPI_SESSION_NULL) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_SESSION, "the session is MPI_SESSION_NULL");
    return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_SESSION, "invalid session %d (never initialized, or finalized)", (int)s);
}

/* An error on a valid session, raised on its handler. */
#define gp_session_err(s, ...) gp_err_on(gp_session_find(s)->eh, (s), __VA_ARGS__)

GPUMPI_FN static const char *gp_thread_level_name(int level)
{
    return level == MPI_THREAD_MULTIPLE     ? "MPI_THREAD_MULTIPLE"
           : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
           : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
                                            : "MPI_THREAD_SINGLE";
}

/* The level info's "thread_level" asks for (a level's name, or its
 * number), else MPI_THREAD_SINGLE. */
GPUMPI_FN static int gp_thread_level_asked(MPI_Info info)
{
    if (info == MPI_INFO_NULL) return MPI_THREAD_SINGLE;
    char v[64];
    int flag = 0;
    if (MPI_Info_get(info, "thread_level", (int)sizeof v - 1, v, &flag) != MPI_SUCCESS || !flag)
        return MPI_THREAD_SINGLE;
    for (int l = MPI_THREAD_MULTIPLE; l > MPI_THREAD_SINGLE; l--)
        if (!gp_strcasecmp(v, gp_thread_level_name(l))) return l;
    if (v[0] >= '0' + MPI_THREAD_SINGLE && v[0] <= '0' + MPI_THREAD_MULTIPLE && !v[1]) return v[0] - '0';
    return MPI_THREAD_SINGLE;
}

GPUMPI_FN int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    const char *fn = "MPI_Session_init";
    gp_rank_state_open();
    if (!gp_errh_valid_for(errhandler, 1))
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "invalid error handler %d (not one made for sessions)",
                      (int)errhandler);
    if (!session) return gp_err_on(errhandler, MPI_SESSION_NULL, fn, MPI_ERR_ARG, "the session argument is NULL");
    int level = gp_thread_level_asked(info);
    gp_comm_state *cs = gp_cs();
    int i = 0;
    while (i < cs->nsessions && cs->sessions[i].live) i++;
    if (i == cs->nsessions) {
        if (!gp_table_reserve((void **)&cs->sessions, &cs->cap_sessions, i + 1, sizeof(gp_session)))
            return gp_err_on(errhandler, MPI_SESSION_NULL, fn, MPI_ERR_NO_MEM, "no device heap left for %d sessions",
                             i + 1);
        cs->nsessions++;
    }
    gp_session *s = &cs->sessions[i];
    s->live = 1;
    s->thread_level = level;
    s->eh = errhandler;
    gp_errh_retain(errhandler);
    cs->open_sessions++;
    gp_flag_set(GP_RF_SESSION, 1);
    *session = GP_SESSION_BASE + i;
    return MPI_SUCCESS;
}

/* Local: the program has freed (or completed all work on) what it made
 * from the session, which the standard asks of it; objects it did not
 * free stay usable while MPI is (world model or another session). */
GPUMPI_FN int MPI_Session_finalize(MPI_Session *session)
{
    const char *fn = "MPI_Session_finalize";
    if (!session) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the session argument is NULL");
    GP_TRY(gp_session_check(fn, *session));
    gp_session *s = gp_session_find(*session);
    gp_errh_release(s->eh);
    s->live = 0;
    gp_comm_state *cs = gp_cs();
    if (--cs->open_sessions == 0) gp_flag_set(GP_RF_SESSION, 0);
    *session = MPI_SESSION_NULL;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    const char *fn = "MPI_Session_get_info";
    GP_TRY(gp_session_check(fn, session));
    if (!info_used) return gp_session_err(session, fn, MPI_ERR_ARG, "the info_used argument is NULL");
    GP_TRY(MPI_Info_create(info_used));
    return MPI_Info_set(*info_used, "thread_level", gp_thread_level_name(gp_session_find(session)->thread_level));
}

GPUMPI_FN int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    (void)info; /* no hints narrow the sets */
    GP_TRY(gp_session_check("MPI_Session_get_num_psets", session));
    if (!npset_names)
        return gp_session_err(session, "MPI_Session_get_num_psets", MPI_ERR_ARG, "the npset_names argument is NULL");
    *npset_names = GP_NPSETS;
    return MPI_SUCCESS;
}

/* With *pset_len 0 only the length the name needs (with its NUL);
 * otherwise the name, cut to *pset_len - 1 characters if it must be,
 * and *pset_len as it was (MPICH's reading). */
GPUMPI_FN int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    const char *fn = "MPI_Session_get_nth_pset";
    (void)info;
    GP_TRY(gp_session_check(fn, session));
    if (n < 0 || n >= GP_NPSETS)
        return gp_session_err(session, fn, MPI_ERR_ARG, "no process set %d (there are %d: 0 is %s, 1 is %s)", n,
                              GP_NPSETS, GP_PSET_WORLD, GP_PSET_SELF);
    if (!pset_len) return gp_session_err(session, fn, MPI_ERR_ARG, "the pset_len argument is NULL");
    const char *name = n == 0 ? GP_PSET_WORLD : GP_PSET_SELF;
    int need = (int)gp_strlen(name) + 1;
    if (*pset_len > 0) {
        if (!pset_name) return gp_session_err(session, fn, MPI_ERR_ARG, "the pset_name argument is NULL");
        int k = *pset_len < need ? *pset_len - 1 : need - 1;
        gp_memcpy(pset_name, name, (size_t)k);
        pset_name[k] = 0;
    } else {
        *pset_len = need;
    }
    return MPI_SUCCESS;
}

/* The ranks of a process set, by name (case does not matter, as in
 * MPICH: "mpi://self" is mpi://SELF); 0 if there is no such set. */
GPUMPI_FN static int gp_pset_ranks(const char *name, gp_ranks *r)
{
    r->stride = 1;
    r->map = 0;
    if (!gp_strcasecmp(name, GP_PSET_WORLD)) {
        r->size = gp_w()->nranks;
        r->first = 0;
        return 1;
    }
    if (!gp_strcasecmp(name, GP_PSET_SELF)) {
        r->size = 1;
        r->first = gp_thread_rank();
        return 1;
    }
    return 0;
}

/* Looks up a process set's name, raising errors on the session. */
GPUMPI_FN static int gp_pset_find(const char *fn, MPI_Session session, const char *name, gp_ranks *r)
{
    GP_TRY(gp_session_check(fn, session));
    if (!name) return gp_session_err(session, fn, MPI_ERR_ARG, "the process set name is NULL");
    if (!gp_pset_ranks(name, r))
        return gp_session_err(session, fn, MPI_ERR_ARG, "no process set named \"%s\" (there are %s and %s)", name,
                              GP_PSET_WORLD, GP_PSET_SELF);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    const char *fn = "MPI_Session_get_pset_info";
    gp_ranks r;
    GP_TRY(gp_pset_find(fn, session, pset_name, &r));
    if (!info) return gp_session_err(session, fn, MPI_ERR_ARG, "the info argument is NULL");
    char size[16];
    gp_snprintf(size, sizeof size, "%d", r.size);
    GP_TRY(MPI_Info_create(info));
    return MPI_Info_set(*info, "mpi_size", size);
}

GPUMPI_FN int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    const char *fn = "MPI_Group_from_session_pset";
    gp_ranks r;
    GP_TRY(gp_pset_find(fn, session, pset_name, &r));
    if (!newgroup) return gp_session_err(session, fn, MPI_ERR_ARG, "the newgroup argument is NULL");
    *newgroup = gp_group_make(&r); /* a progression: nothing to retain */
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                            MPI_Errhandler *errhandler)
{
    /* same call shape as a communicator's: a pointer to an int handle and one to the code */
    return gp_errh_create("MPI_Session_create_errhandler", (MPI_Comm_errhandler_function *)session_errhandler_fn, 1,
                          errhandler);
}

GPUMPI_FN int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    const char *fn = "MPI_Session_set_errhandler";
    GP_TRY(gp_session_check(fn, session));
    if (!gp_errh_valid_for(errhandler, 1))
        return gp_session_err(session, fn, MPI_ERR_ARG, "invalid error handler %d (not one made for sessions)",
                              (int)errhandler);
    gp_session *s = gp_session_find(session);
    gp_errh_retain(errhandler);
    gp_errh_release(s->eh);
    s->eh = errhandler;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    GP_TRY(gp_session_check("MPI_Session_get_errhandler", session));
    if (!errhandler)
        return gp_session_err(session, "MPI_Session_get_errhandler", MPI_ERR_ARG, "the errhandler argument is NULL");
    *errhandler = gp_session_find(session)->eh;
    gp_errh_retain(*errhandler); /* the caller frees the handle it got */
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    GP_TRY(gp_session_check("MPI_Session_call_errhandler", session));
    gp_session_err(session, "MPI_Session_call_errhandler", errorcode, "error %d raised by the program", errorcode);
    return MPI_SUCCESS;
}
