/* <sys/stat.h> for converted code: the host header's types and constants serve
 * the device; mkdir goes to the launcher's host (as files are opened); the
 * functions that gpumpi lacks are build errors. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_SYS_STAT_H_CUH
#define GPUMPI_SYS_STAT_H_CUH
#define mkdir(path, mode) gp_mkdir(path, mode)
#endif
