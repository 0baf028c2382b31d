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

GPUMPI_VARIADIC_FN int gp_err(MPI_Comm comm, const char *fn, int errclass, const char *fmt, ...)
{
    MPI_Errhandler eh = gp_comm_errhandler(comm);
    if (eh != MPI_ERRORS_ARE_FATAL) {
        gp_call_user_errhandler(eh, comm, errclass);
        return errclass;
    }
    char msg[GP_HOST_CELL_BYTES];
    va_list ap;
    va_start(ap, fmt);
    gp_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gp_fatal(fn, errclass, "%s", msg);
}
