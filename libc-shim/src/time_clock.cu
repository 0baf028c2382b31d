/* clock() and difftime() (shim_time.h). */
#include "gpumpi/shim_time.h"
#include "runtime.h"

GPUMPI_FN clock_t gp_clock(void) { return (clock_t)((gp_clock_ns() - gp_w()->t0_ns) / 1000u); }
GPUMPI_FN double gp_difftime(time_t a, time_t b) { return (double)a - (double)b; }
