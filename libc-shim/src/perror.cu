/* perror: "s: message\n" on stderr, the message of the rank's errno. */
#include "gpumpi/shim_stdio.h"
#include "gpumpi/shim_string.h"
#include "libc_state.h"

GPUMPI_FN void gp_perror(const char *s)
{
    int e = *gp_errno_location();
    if (s && *s)
        gp_fprintf(&gp_std_files[2], "%s: %s\n", s, gp_strerror(e));
    else
        gp_fprintf(&gp_std_files[2], "%s\n", gp_strerror(e));
}
