/* <time.h> for converted code: clocks read on the device (time.cu).
 * Function-like macros, so a variable or member named `time` or `clock`
 * stays as it is. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_TIME_H_CUH
#define GPUMPI_TIME_H_CUH
#define time(t) gp_time(t)
#define clock() gp_clock()
#define difftime(a, b) gp_difftime(a, b)
#define clock_gettime(id, ts) gp_clock_gettime(id, ts)
#define clock_getres(id, ts) gp_clock_getres(id, ts)
#endif
