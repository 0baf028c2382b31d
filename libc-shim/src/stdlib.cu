/* stdlib.h on the device: exit and abort (malloc is in malloc.cu, integer
 * parsing in int_parse.cu, strtod in strtod.cu). */
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdio.h"
#include "runtime.h"

/* exit(0) ends this rank; a non-zero status ends the job, as mpirun does when
 * one process fails. */
GPUMPI_FN void gp_exit(int code)
{
    if (code != 0) {
        char msg[96];
        int n = gp_snprintf(msg, sizeof msg, "rank %d: exit(%d) called\n", gp_thread_rank(), code);
        gp_stdio_flush_rank();
        gp_host_call(GP_HOST_ABORT, code, msg, (size_t)n);
    }
    gp_rank_finish(code);
    for (;;) gp_end_this_rank();
}

GPUMPI_FN void gp_abort(void)
{
    char msg[96];
    int n = gp_snprintf(msg, sizeof msg, "rank %d: abort() called\n", gp_thread_rank());
    gp_stdio_flush_rank();
    gp_host_call(GP_HOST_ABORT, 134, msg, (size_t)n);
    for (;;) gp_end_this_rank();
}
