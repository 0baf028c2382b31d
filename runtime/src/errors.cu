/* Raising errors: the fatal report that ends the job, and the per-
 * communicator choice between that and returning the error class. */
#include "runtime.h"
#include "gpumpi/format.h"
#include "gpumpi/shim_stdio.h"

GPUMPI_VARIADIC_FN int gp_fatal(const char *fn, int errclass, const char *fmt, ...)
{
    gp_stdio_flush_rank(); /* the rank's last output comes before the reason */
    char msg[GP_HOST_CELL_BYTES];
    int n = gp_snprintf(msg, sizeof msg, "rank %d: %s: ", gp_thread_rank(), fn);
    va_list ap;
    va_start(ap, fmt);
    n += gp_vsnprintf(msg + n, sizeof msg - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if ((size_t)n > sizeof msg - 2) n = (int)sizeof msg - 2;
    msg[n++] = '\n';
    /* exit code 1 unless the class says otherwise, like MPICH's fatal handler */
    gp_host_call(GP_HOST_ABORT, errclass ? errclass : 1, msg, (size_t)n);
    for (;;) gp_end_this_rank();
    return errclass;
}

/* gp_err and gp_err_on: the handler eh on the object handle decides. */
GPUMPI_FN static int gp_verr(MPI_Errhandler eh, int handle, const char *fn, int errclass, const char *fmt, va_list ap)
{
    if (eh != MPI_ERRORS_ARE_FATAL) {
        gp_call_user_errhandler(eh, handle, errclass);
        return errclass;
    }
    char msg[GP_HOST_CELL_BYTES];
    gp_vsnprintf(msg, sizeof msg, fmt, ap);
    return gp_fatal(fn, errclass, "%s", msg);
}

GPUMPI_VARIADIC_FN int gp_err(MPI_Comm comm, const char *fn, int errclass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = gp_verr(gp_comm_errhandler(comm), comm, fn, errclass, fmt, ap);
    va_end(ap);
    return rc;
}

GPUMPI_VARIADIC_FN int gp_err_on(MPI_Errhandler eh, int handle, const char *fn, int errclass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = gp_verr(eh, handle, fn, errclass, fmt, ap);
    va_end(ap);
    return rc;
}
