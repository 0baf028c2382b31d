/* stdlib.h on the device (stdlib.cu). */
#ifndef GPUMPI_SHIM_STDLIB_H
#define GPUMPI_SHIM_STDLIB_H

#include "gpumpi/platform.h"

GPUMPI_FN void *gp_malloc(size_t n);
GPUMPI_FN void *gp_calloc(size_t count, size_t size);
GPUMPI_FN void *gp_realloc(void *p, size_t n);
GPUMPI_FN void gp_free(void *p);
GPUMPI_FN void gp_exit(int code);
GPUMPI_FN void gp_abort(void);
GPUMPI_FN int gp_atoi(const char *s);
GPUMPI_FN long gp_atol(const char *s);
GPUMPI_FN long long gp_atoll(const char *s);
GPUMPI_FN long gp_strtol(const char *s, char **end, int base);
GPUMPI_FN long long gp_strtoll(const char *s, char **end, int base);
GPUMPI_FN unsigned long gp_strtoul(const char *s, char **end, int base);
GPUMPI_FN unsigned long long gp_strtoull(const char *s, char **end, int base);

#endif
