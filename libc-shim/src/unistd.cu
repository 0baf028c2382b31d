/* sleep, usleep, getpid, gethostname. A sleeping rank waits on the shared
 * clock with gp_pause, so on the threads backend it yields its core. */
#include "gpumpi/shim_unistd.h"
#include "gpumpi/shim_string.h"
#include "runtime.h"

#define GP_ENAMETOOLONG 36

GPUMPI_FN static void gp_wait_ns(uint64_t ns)
{
    uint64_t until = gp_clock_ns() + ns;
    unsigned spins = 64; /* start at the long pauses: nobody waits on us */
    while (gp_clock_ns() < until) gp_pause(&spins);
}

GPUMPI_FN unsigned gp_sleep(unsigned seconds)
{
    gp_wait_ns((uint64_t)seconds * 1000000000ull);
    return 0;
}

GPUMPI_FN int gp_usleep(unsigned long usec)
{
    gp_wait_ns((uint64_t)usec * 1000ull);
    return 0;
}

GPUMPI_FN pid_t gp_getpid(void) { return (pid_t)(1000 + gp_thread_rank()); }
GPUMPI_FN pid_t gp_getppid(void) { return 1; }

GPUMPI_FN int gp_gethostname(char *name, size_t len)
{
    const char *host = gp_w()->processor_name;
    size_t n = gp_strlen(host);
    if (n + 1 > len) {
        if (len) {
            gp_memcpy(name, host, len);
        }
        gp_self()->libc_errno = GP_ENAMETOOLONG;
        return -1;
    }
    gp_memcpy(name, host, n + 1);
    return 0;
}
