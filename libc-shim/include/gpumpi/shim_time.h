/* time.h on the device, the part in time_clock.cu: clock() and difftime().
 * A rank's processor time is the wall time since the job started (a GPU
 * thread has no separate CPU-time clock); CLOCKS_PER_SEC is 1000000. */
#ifndef GPUMPI_SHIM_TIME_H
#define GPUMPI_SHIM_TIME_H

#include <time.h>
#include "gpumpi/platform.h"

GPUMPI_FN clock_t gp_clock(void);
GPUMPI_FN double gp_difftime(time_t a, time_t b);

/* sys/resource.h (resource.cu) */
#include <sys/resource.h>
GPUMPI_FN int gp_getrusage(int who, struct rusage *u);
GPUMPI_FN int gp_getrlimit(int resource, struct rlimit *l);
GPUMPI_FN int gp_setrlimit(int resource, const struct rlimit *l);

#endif
