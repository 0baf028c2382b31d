/* <time.h> for converted code: clock() and difftime() here (time_clock.cu);
 * time() and clock_gettime() come from the launcher's host service. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_TIME_H_CUH
#define GPUMPI_TIME_H_CUH
#define clock() gp_clock()
#define difftime gp_difftime
#endif
