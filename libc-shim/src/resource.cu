/* sys/resource.h: a rank has no resource accounting beyond its clock. */
#include "gpumpi/shim_resource.h"
#include "gpumpi/shim_process.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN int gp_getrusage(int who, struct rusage *u)
{
    (void)who;
    gp_memset(u, 0, sizeof *u);
    clock_t c = gp_clock();
    u->ru_utime.tv_sec = (time_t)(c / 1000000);
    u->ru_utime.tv_usec = (long)(c % 1000000);
    return 0;
}

GPUMPI_FN int gp_getrlimit(int resource, struct rlimit *l)
{
    (void)resource;
    l->rlim_cur = RLIM_INFINITY;
    l->rlim_max = RLIM_INFINITY;
    return 0;
}

GPUMPI_FN int gp_setrlimit(int resource, const struct rlimit *l)
{
    (void)resource;
    (void)l;
    return 0;
}
