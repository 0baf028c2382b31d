/* Where the rest of gpumpi is: beside the build tree the tools were built
 * in, or, once installed, relative to the tool itself (PREFIX/bin/x finds
 * PREFIX/lib/gpumpi and PREFIX/include/gpumpi), so an installed tree works
 * from any directory and can be moved. */
#ifndef GPUMPI_LOCATIONS_H
#define GPUMPI_LOCATIONS_H

#include <limits.h>

typedef struct {
    char gpumpicc[PATH_MAX + 64];        /* beside the running tool, built or installed */
    char convert[PATH_MAX + 64];         /* gpumpi-convert */
    char lib_dir[PATH_MAX + 64];         /* libgpumpi_cuda.a, libgpumpi_threads.a */
    char runtime_include[PATH_MAX + 64]; /* mpi.h, gpumpi/platform.h */
    char shim_include[PATH_MAX + 64];    /* stdio.h.cuh, ... */
} gp_locations;

const gp_locations *gp_locate(void);

#endif
