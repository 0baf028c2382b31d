/* stdlib.h on the device: malloc.cu, stdlib.cu (exit, abort), int_parse.cu
 * (strtol...), int_arith.cu (abs, div), strtod.cu, sort.cu (qsort,
 * bsearch), rand.cu (rand, drand48...). */
#ifndef GPUMPI_SHIM_STDLIB_H
#define GPUMPI_SHIM_STDLIB_H

#include <stdlib.h> /* div_t, ldiv_t, lldiv_t */
#include <stdint.h>
#include "gpumpi/platform.h"

GPUMPI_FN void *gp_malloc(size_t n);
/* The same with nothing said and errno untouched when the heap has no
 * room: for the runtime's optional buffers (landing.cu's bounce buffer). */
GPUMPI_FN void *gp_malloc_quiet(size_t n);
GPUMPI_FN void *gp_calloc(size_t count, size_t size);
GPUMPI_FN void *gp_realloc(void *p, size_t n); /* the program's: a new or moved block lands in private memory first */
GPUMPI_FN void gp_free(void *p);
/* The program's malloc and calloc: blocks from the rank's private memory
 * first (malloc_private.cu), the shared heap for the rest. The runtime's
 * own memory, which other ranks may read or free, comes from gp_malloc and
 * gp_calloc (shared only). free and realloc take either. */
GPUMPI_FN void *gp_rank_malloc(size_t n);
GPUMPI_FN void *gp_rank_calloc(size_t count, size_t size);
/* The runtime's tables that only their rank touches: in the rank's local
 * memory while they fit (malloc_private.cu), else the shared heap. */
GPUMPI_FN void *gp_tables_malloc(size_t n);
GPUMPI_FN void *gp_tables_calloc(size_t count, size_t size);
/* bytes (rounded up to 16) of the rank's private memory for good, or NULL. */
GPUMPI_FN void *gp_private_take(size_t bytes);
GPUMPI_FN void *gp_memalign(size_t align, size_t n);
GPUMPI_FN void *gp_aligned_alloc(size_t align, size_t n);
GPUMPI_FN int gp_posix_memalign(void **out, size_t align, size_t n);
GPUMPI_FN void gp_exit(int code);
GPUMPI_FN void gp_abort(void);

GPUMPI_FN int gp_atoi(const char *s);
GPUMPI_FN long gp_atol(const char *s);
GPUMPI_FN long long gp_atoll(const char *s);
GPUMPI_FN long gp_strtol(const char *s, char **end, int base);
GPUMPI_FN long long gp_strtoll(const char *s, char **end, int base);
GPUMPI_FN unsigned long gp_strtoul(const char *s, char **end, int base);
GPUMPI_FN unsigned long long gp_strtoull(const char *s, char **end, int base);
GPUMPI_FN intmax_t gp_strtoimax(const char *s, char **end, int base);
GPUMPI_FN uintmax_t gp_strtoumax(const char *s, char **end, int base);
/* Correctly rounded like glibc's. long double is double on the device, and
 * strtold gives the double result on both backends. */
GPUMPI_FN double gp_strtod(const char *s, char **end);
GPUMPI_FN float gp_strtof(const char *s, char **end);
GPUMPI_FN long double gp_strtold(const char *s, char **end);
GPUMPI_FN double gp_atof(const char *s);

GPUMPI_FN int gp_abs(int x);
GPUMPI_FN long gp_labs(long x);
GPUMPI_FN long long gp_llabs(long long x);
GPUMPI_FN intmax_t gp_imaxabs(intmax_t x);
GPUMPI_FN div_t gp_div(int a, int b);
GPUMPI_FN ldiv_t gp_ldiv(long a, long b);
GPUMPI_FN lldiv_t gp_lldiv(long long a, long long b);
#include <inttypes.h> /* imaxdiv_t */
GPUMPI_FN imaxdiv_t gp_imaxdiv(intmax_t a, intmax_t b);

GPUMPI_FN void gp_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
GPUMPI_FN void gp_qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *arg);
GPUMPI_FN void *gp_reallocarray(void *p, size_t n, size_t size);
GPUMPI_FN void *gp_bsearch(const void *key, const void *base, size_t n, size_t size,
                           int (*cmp)(const void *, const void *));

/* glibc's sequences, each rank its own generator */
GPUMPI_FN int gp_rand(void);
GPUMPI_FN void gp_srand(unsigned seed);
GPUMPI_FN int gp_rand_r(unsigned *seed);
GPUMPI_FN long gp_random(void);
GPUMPI_FN void gp_srandom(unsigned seed);
GPUMPI_FN double gp_drand48(void);
GPUMPI_FN double gp_erand48(unsigned short x[3]);
GPUMPI_FN long gp_lrand48(void);
GPUMPI_FN long gp_nrand48(unsigned short x[3]);
GPUMPI_FN long gp_mrand48(void);
GPUMPI_FN long gp_jrand48(unsigned short x[3]);
GPUMPI_FN void gp_srand48(long seed);
GPUMPI_FN unsigned short *gp_seed48(unsigned short seed[3]);
GPUMPI_FN void gp_lcong48(unsigned short param[7]);

#endif
