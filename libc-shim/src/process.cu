/* system, popen and pclose: the launcher's host runs the command (/bin/sh
 * -c), one process per call, so each rank's commands are its own as they
 * would be under mpirun. popen's stream is an ordinary stream of the shim
 * over the pipe's end (fgets, fread, fprintf... as on a file); the host
 * answers a read once the command has written something, and pclose and
 * system once it has ended, without holding up the other ranks. */
#include <errno.h>
#include "gpumpi/shim_stdio.h"
#include "gpumpi/shim_unistd.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_errno.h"
#include "host_streams.h"
#include "runtime.h"

GPUMPI_FN int gp_system(const char *command)
{
    if (!command) return 1; /* the host has a shell */
    gp_flush_all_files();   /* what the program wrote comes before what the command reads */
    gp_stdio_flush_rank();
    return (int)gp_path_call(GP_HOST_SYSTEM, command, 0, 0);
}

GPUMPI_FN gp_FILE *gp_popen(const char *command, const char *mode)
{
    if (!command || !mode || (mode[0] != 'r' && mode[0] != 'w') || (mode[1] && mode[1] != 'e')) {
        *gp_errno_location() = EINVAL;
        return 0;
    }
    gp_flush_all_files();
    gp_stdio_flush_rank();
    int64_t h = gp_path_call(GP_HOST_POPEN, command, 0, mode[0]);
    if (h < 0) return 0;
    return gp_stream_new((int)h, mode[0] == 'r', mode[0] == 'w');
}

GPUMPI_FN int gp_pclose(gp_FILE *f)
{
    if (!f || f->fd >= 0) {
        *gp_errno_location() = ECHILD;
        return -1;
    }
    gp_file_flush(f);
    int err = 0;
    int64_t status = gp_host_rpc(GP_HOST_PCLOSE, f->handle, 0, 0, 0, 0, 0, 0, &err);
    gp_stream_forget(f);
    if (status < 0) *gp_errno_location() = err;
    return (int)status;
}
