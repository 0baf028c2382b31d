/* abs, labs, llabs, div, ldiv, lldiv (C's truncating division). */
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN int gp_abs(int x) { return x < 0 ? -x : x; }
GPUMPI_FN long gp_labs(long x) { return x < 0 ? -x : x; }
GPUMPI_FN long long gp_llabs(long long x) { return x < 0 ? -x : x; }
GPUMPI_FN intmax_t gp_imaxabs(intmax_t x) { return x < 0 ? -x : x; }

GPUMPI_FN div_t gp_div(int a, int b)
{
    div_t r;
    r.quot = a / b;
    r.rem = a % b;
    return r;
}

GPUMPI_FN ldiv_t gp_ldiv(long a, long b)
{
    ldiv_t r;
    r.quot = a / b;
    r.rem = a % b;
    return r;
}

GPUMPI_FN lldiv_t gp_lldiv(long long a, long long b)
{
    lldiv_t r;
    r.quot = a / b;
    r.rem = a % b;
    return r;
}

GPUMPI_FN imaxdiv_t gp_imaxdiv(intmax_t a, intmax_t b)
{
    imaxdiv_t r;
    r.quot = a / b;
    r.rem = a % b;
    return r;
}
