/* <memory.h> for converted code: the old name of <string.h>'s memory
 * functions, which is all glibc's <memory.h> includes. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_MEMORY_H_CUH
#define GPUMPI_MEMORY_H_CUH
#include "string.h.cuh"
#endif
