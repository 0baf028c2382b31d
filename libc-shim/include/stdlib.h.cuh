/* <stdlib.h> for converted code. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_STDLIB_H_CUH
#define GPUMPI_STDLIB_H_CUH
#define malloc gp_rank_malloc
#define calloc gp_rank_calloc
#define realloc gp_realloc
#define free gp_free
#define aligned_alloc gp_aligned_alloc
#define posix_memalign gp_posix_memalign
#define memalign gp_memalign
#define exit gp_exit
#define abort gp_abort
#define atexit gp_atexit
#define getenv gp_getenv
#define system(command) gp_system(command)
#define atoi gp_atoi
#define atol gp_atol
#define atoll gp_atoll
#define atof gp_atof
#define strtol gp_strtol
#define strtoll gp_strtoll
#define strtoul gp_strtoul
#define strtoull gp_strtoull
#define strtoq gp_strtoll
#define strtouq gp_strtoull
#define strtod gp_strtod
#define strtof gp_strtof
#define strtold gp_strtold
#define abs(x) gp_abs(x)
#define labs(x) gp_labs(x)
#define llabs(x) gp_llabs(x)
#define div(a, b) gp_div(a, b)
#define ldiv(a, b) gp_ldiv(a, b)
#define lldiv(a, b) gp_lldiv(a, b)
#define qsort gp_qsort
#define qsort_r gp_qsort_r
#define reallocarray gp_reallocarray
#define bsearch gp_bsearch
#define rand gp_rand
#define srand gp_srand
#define rand_r gp_rand_r
#define random() gp_random()
#define srandom(s) gp_srandom(s)
#define drand48 gp_drand48
#define erand48 gp_erand48
#define lrand48 gp_lrand48
#define nrand48 gp_nrand48
#define mrand48 gp_mrand48
#define jrand48 gp_jrand48
#define srand48 gp_srand48
#define seed48 gp_seed48
#define lcong48 gp_lcong48
#endif
