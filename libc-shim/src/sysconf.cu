/* sysconf and getpagesize: the host's answers, asked in one host call the
 * first time a rank needs one and kept in its C library state. The values
 * describe the machine the launcher runs on (its pages, its processors),
 * which is what a program sizing buffers or worker counts from them
 * expects under mpirun too. */
#include <errno.h>
#include <unistd.h> /* _SC_* */
#include "gpumpi/shim_unistd.h"
#include "gpumpi/shim_errno.h"
#include "libc_state.h"
#include "runtime.h"

/* The names a rank can ask, in the order of gp_libc_state.sysconf_values. */
#define GP_SYSCONF_NAMES 5
GPUMPI_FN static int gp_sysconf_name(int i)
{
    switch (i) {
    case 0: return _SC_PAGESIZE; /* also _SC_PAGE_SIZE */
    case 1: return _SC_NPROCESSORS_ONLN;
    case 2: return _SC_NPROCESSORS_CONF;
    case 3: return _SC_CLK_TCK;
    default: return _SC_OPEN_MAX;
    }
}

GPUMPI_FN static int gp_sysconf_index(int name)
{
    for (int i = 0; i < GP_SYSCONF_NAMES; i++)
        if (gp_sysconf_name(i) == name) return i;
    return -1;
}

GPUMPI_FN long gp_sysconf(int name)
{
    int i = gp_sysconf_index(name);
    if (i < 0) {
        *gp_errno_location() = EINVAL;
        return -1;
    }
    gp_libc_state *L = gp_libc();
    if (!L->sysconf_known) {
        int32_t names[GP_SYSCONF_NAMES];
        int64_t values[GP_SYSCONF_NAMES];
        for (int j = 0; j < GP_SYSCONF_NAMES; j++) {
            names[j] = gp_sysconf_name(j);
            values[j] = -1;
        }
        gp_host_rpc(GP_HOST_SYSCONF, 0, 0, names, sizeof names, values, sizeof values, 0, 0);
        for (int j = 0; j < GP_SYSCONF_NAMES; j++) L->sysconf_values[j] = (long)values[j];
        L->sysconf_known = 1;
    }
    return L->sysconf_values[i];
}

GPUMPI_FN int gp_getpagesize(void) { return (int)gp_sysconf(_SC_PAGESIZE); }
