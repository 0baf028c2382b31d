/* Error handlers: the predefined MPI_ERRORS_ARE_FATAL and
 * MPI_ERRORS_RETURN, and user functions, each attached to communicators
 * (a new communicator inherits its parent's) or sessions (session.cu).
 * User handles are reference counted: the handle itself and each object
 * using it. */
#include "comm_impl.h"

GPUMPI_FN static gp_errh *gp_errh_find(MPI_Errhandler eh)
{
    gp_comm_state *cs = gp_cs();
    int i = eh - GP_ERRH_BASE;
    return i >= 0 && i < cs->nerrhs && cs->errhs[i].refs ? &cs->errhs[i] : 0;
}

GPUMPI_FN static int gp_errh_valid(MPI_Errhandler eh)
{
    return eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN || gp_errh_find(eh);
}

/* A user handler is called with a pointer to its object's handle, so one
 * made for sessions must not be attached to a communicator, nor the other
 * way round. */
GPUMPI_FN int gp_errh_valid_for(MPI_Errhandler eh, int for_session)
{
    gp_errh *e = gp_errh_find(eh);
    return e ? e->for_session == for_session : gp_errh_valid(eh);
}

GPUMPI_FN void gp_errh_retain(MPI_Errhandler eh)
{
    gp_errh *e = gp_errh_find(eh);
    if (e) e->refs++;
}

GPUMPI_FN void gp_errh_release(MPI_Errhandler eh)
{
    gp_errh *e = gp_errh_find(eh);
    if (e) e->refs--; /* at 0 the slot is free */
}

GPUMPI_FN int gp_call_user_errhandler(MPI_Errhandler eh, MPI_Comm comm, int errclass)
{
    if (!gp_self()->comm_state) return 0;
    gp_errh *e = gp_errh_find(eh);
    if (!e) return 0;
    MPI_Comm c = comm;
    int code = errclass;
    e->fn(&c, &code);
    return 1;
}

GPUMPI_FN int gp_errh_create(const char *fn, MPI_Comm_errhandler_function *f, int for_session, MPI_Errhandler *out)
{
    GP_TRY(gp_check_initialized(fn));
    if (!f) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the function is NULL");
    gp_comm_state *cs = gp_cs();
    int i = 0;
    while (i < cs->nerrhs && cs->errhs[i].refs) i++;
    if (i == cs->nerrhs) {
        if (!gp_table_reserve((void **)&cs->errhs, &cs->cap_errhs, i + 1, sizeof(gp_errh)))
            return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %d error handlers", i + 1);
        cs->nerrhs++;
    }
    cs->errhs[i].refs = 1;
    cs->errhs[i].for_session = for_session;
    cs->errhs[i].fn = f;
    *out = GP_ERRH_BASE + i;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                         MPI_Errhandler *errhandler)
{
    return gp_errh_create("MPI_Comm_create_errhandler", comm_errhandler_fn, 0, errhandler);
}

GPUMPI_FN int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    GP_TRY(gp_comm_check("MPI_Comm_set_errhandler", comm));
    if (!gp_errh_valid(errhandler))
        return gp_err(comm, "MPI_Comm_set_errhandler", MPI_ERR_ARG, "invalid error handler %d", (int)errhandler);
    if (!gp_errh_valid_for(errhandler, 0))
        return gp_err(comm, "MPI_Comm_set_errhandler", MPI_ERR_ARG,
                      "error handler %d was made for sessions (MPI_Session_create_errhandler)", (int)errhandler);
    gp_comm *c = gp_comm_find(comm);
    gp_errh_retain(errhandler);
    gp_errh_release(c->eh);
    c->eh = errhandler;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    GP_TRY(gp_comm_check("MPI_Comm_get_errhandler", comm));
    *errhandler = gp_comm_find(comm)->eh;
    gp_errh_retain(*errhandler); /* the caller frees the handle it got */
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    GP_TRY(gp_comm_check("MPI_Comm_call_errhandler", comm));
    gp_err(comm, "MPI_Comm_call_errhandler", errorcode, "error %d raised by the program", errorcode);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    GP_TRY(gp_check_initialized("MPI_Errhandler_free"));
    if (!errhandler || !gp_errh_valid(*errhandler))
        return gp_err(MPI_COMM_WORLD, "MPI_Errhandler_free", MPI_ERR_ARG, "invalid error handler %d",
                      errhandler ? (int)*errhandler : 0);
    gp_errh_release(*errhandler); /* the predefined ones are never freed */
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    return MPI_Comm_create_errhandler(function, errhandler);
}

GPUMPI_FN int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return MPI_Comm_set_errhandler(comm, errhandler);
}

GPUMPI_FN int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return MPI_Comm_get_errhandler(comm, errhandler);
}
