/* See locations.h. */
#define _XOPEN_SOURCE 700
#include "locations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpumpi_config.h"

const gp_locations *gp_locate(void)
{
    static gp_locations at;
    static int done;
    if (done) return &at;
    done = 1;
    char exe[PATH_MAX], real[PATH_MAX], probe[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    char *slash = realpath(exe, real) ? strrchr(real, '/') : NULL;
    snprintf(at.gpumpicc, sizeof at.gpumpicc, "gpumpicc");
    if (slash) {
        *slash = 0; /* PREFIX/bin */
        snprintf(at.gpumpicc, sizeof at.gpumpicc, "%s/gpumpicc", real);
        snprintf(probe, sizeof probe, "%s/../lib/gpumpi/libgpumpi_threads.a", real);
        if (access(probe, F_OK) == 0) {
            snprintf(at.convert, sizeof at.convert, "%s/gpumpi-convert", real);
            snprintf(at.lib_dir, sizeof at.lib_dir, "%s/../lib/gpumpi", real);
            snprintf(at.runtime_include, sizeof at.runtime_include, "%s/../include/gpumpi/runtime", real);
            snprintf(at.shim_include, sizeof at.shim_include, "%s/../include/gpumpi/libc", real);
            return &at;
        }
    }
    snprintf(at.convert, sizeof at.convert, "%s", GPUMPI_CONVERT);
    snprintf(at.lib_dir, sizeof at.lib_dir, "%s", GPUMPI_LIB_DIR);
    snprintf(at.runtime_include, sizeof at.runtime_include, "%s", GPUMPI_RUNTIME_INCLUDE);
    snprintf(at.shim_include, sizeof at.shim_include, "%s", GPUMPI_SHIM_INCLUDE);
    return &at;
}
