/* <sys/time.h> for converted code: gettimeofday on the device (time.cu). */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_SYS_TIME_H_CUH
#define GPUMPI_SYS_TIME_H_CUH
#define gettimeofday(tv, tz) gp_gettimeofday(tv, tz)
#endif
