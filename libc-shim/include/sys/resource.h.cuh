/* <sys/resource.h> for converted code: getrusage (a rank's user time is
 * its clock(); the rest is 0), getrlimit (no limits: RLIM_INFINITY),
 * setrlimit (accepted, no effect). */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_SYS_RESOURCE_H_CUH
#define GPUMPI_SYS_RESOURCE_H_CUH
#define getrusage gp_getrusage
#define getrlimit gp_getrlimit
#define setrlimit gp_setrlimit
#endif
