/* <stdlib.h> for converted code. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_STDLIB_H_CUH
#define GPUMPI_STDLIB_H_CUH
#define malloc gp_malloc
#define calloc gp_calloc
#define realloc gp_realloc
#define free gp_free
#define exit gp_exit
#define abort gp_abort
#define atexit gp_atexit
#define getenv gp_getenv
#define atoi gp_atoi
#define atol gp_atol
#define atoll gp_atoll
#define strtol gp_strtol
#define strtoll gp_strtoll
#define strtoul gp_strtoul
#define strtoull gp_strtoull
#endif
