/* <inttypes.h> for converted code: the host's PRI and SCN macros serve the
 * device as they are (the formatter and scanner take every length modifier
 * they expand to); strtoimax/strtoumax/imaxabs/imaxdiv are the shim's. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_INTTYPES_H_CUH
#define GPUMPI_INTTYPES_H_CUH
#define strtoimax gp_strtoimax
#define strtoumax gp_strtoumax
#define imaxabs(x) gp_imaxabs(x)
#define imaxdiv(a, b) gp_imaxdiv(a, b)
#endif
