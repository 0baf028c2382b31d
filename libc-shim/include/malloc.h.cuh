/* <malloc.h> for converted code: malloc, calloc, realloc and free as in
 * <stdlib.h> (programs include it for those); glibc's tuning calls
 * (mallopt, malloc_trim, mallinfo) have no device version. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_MALLOC_H_CUH
#define GPUMPI_MALLOC_H_CUH
#include "stdlib.h.cuh"
#endif
