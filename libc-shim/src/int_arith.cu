/* abs, labs, llabs, div, ldiv, lldiv (C's truncating division). */
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN int gp_abs(int x) { return x < 0 ? -x : x; }
GPUMPI_FN long gp_labs(long x) { return x < 0 ? -x : x; }
GPUMPI_FN long long gp_llabs(long long x) { return x < 0 ? -x : x; }
GPUMPI_FN intmax_t gp_imaxabs(intmax_t x) { return x < 0 ? -x : x; }

/* div, ldiv, lldiv, imaxdiv: the same two lines on four types */
#define GP_DIV_FN(name, result_t, int_t)        \
    GPUMPI_FN result_t name(int_t a, int_t b)    \
    {                                            \
        result_t r;                              \
        r.quot = a / b;                          \
        r.rem = a % b;                           \
        return r;                                \
    }
GP_DIV_FN(gp_div, div_t, int)
GP_DIV_FN(gp_ldiv, ldiv_t, long)
GP_DIV_FN(gp_lldiv, lldiv_t, long long)
GP_DIV_FN(gp_imaxdiv, imaxdiv_t, intmax_t)
