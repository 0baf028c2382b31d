/* sys/resource.h on the device (resource.cu). */
#ifndef GPUMPI_SHIM_RESOURCE_H
#define GPUMPI_SHIM_RESOURCE_H

#include <sys/resource.h>
#include "gpumpi/platform.h"

GPUMPI_FN int gp_getrusage(int who, struct rusage *u);
GPUMPI_FN int gp_getrlimit(int resource, struct rlimit *l);
GPUMPI_FN int gp_setrlimit(int resource, const struct rlimit *l);

#endif
