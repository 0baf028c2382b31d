/* The calls of one-sided communication, MPI-IO and dynamic processes,
 * which gpumpi does not provide (gpumpi/mpi_unsupported.h): a program may
 * contain them in code it never runs, as it builds under any MPI; one that
 * runs ends the job, naming the call and what is missing. */
#include "runtime.h"

GPUMPI_FN static int gp_unsupported_call(const char *fn, const char *what)
{
    return gp_fatal(fn, MPI_ERR_OTHER, "gpumpi does not support %s", what);
}

#define GP_UNSUPPORTED_CALL(kind, name, params) \
    GPUMPI_FN int name params { return gp_unsupported_call(#name, GP_##kind##_WHAT); }
#include "gpumpi/mpi_unsupported_calls.h"
#undef GP_UNSUPPORTED_CALL
