/* Clocks on the device, without a host call: the launcher records the
 * host's CLOCK_REALTIME and CLOCK_MONOTONIC at the moment the ranks' clock
 * (gp_clock_ns, the GPU's global timer) read t0_ns, and every clock here is
 * that origin plus the ranks' clock since. All ranks see one clock. */
#include "gpumpi/shim_process.h"
#include "runtime.h"

GPUMPI_FN static uint64_t gp_since_start_ns(void) { return gp_clock_ns() - gp_w()->t0_ns; }

GPUMPI_FN static uint64_t gp_realtime_ns(void) { return gp_w()->realtime0_ns + gp_since_start_ns(); }

GPUMPI_FN time_t gp_time(time_t *t)
{
    time_t now = (time_t)(gp_realtime_ns() / 1000000000ull);
    if (t) *t = now;
    return now;
}

/* Processor time: a rank runs on its own thread from the start, so it is
 * the time since the job began. */
GPUMPI_FN clock_t gp_clock(void) { return (clock_t)(gp_since_start_ns() / (1000000000ull / CLOCKS_PER_SEC)); }

GPUMPI_FN double gp_difftime(time_t a, time_t b) { return (double)a - (double)b; }

GPUMPI_FN int gp_clock_gettime(clockid_t id, struct timespec *ts)
{
    uint64_t ns;
    switch (id) {
    case CLOCK_REALTIME:
#ifdef CLOCK_REALTIME_COARSE
    case CLOCK_REALTIME_COARSE:
#endif
        ns = gp_realtime_ns();
        break;
    case CLOCK_MONOTONIC:
#ifdef CLOCK_MONOTONIC_RAW
    case CLOCK_MONOTONIC_RAW:
#endif
#ifdef CLOCK_MONOTONIC_COARSE
    case CLOCK_MONOTONIC_COARSE:
#endif
#ifdef CLOCK_BOOTTIME
    case CLOCK_BOOTTIME:
#endif
        ns = gp_w()->monotonic0_ns + gp_since_start_ns();
        break;
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:
        ns = gp_since_start_ns();
        break;
    default:
        return -1; /* EINVAL */
    }
    ts->tv_sec = (time_t)(ns / 1000000000ull);
    ts->tv_nsec = (long)(ns % 1000000000ull);
    return 0;
}

GPUMPI_FN int gp_clock_getres(clockid_t id, struct timespec *ts)
{
    (void)id;
    if (ts) {
        ts->tv_sec = 0;
        ts->tv_nsec = 1000; /* the GPU's global timer moves in steps of about a microsecond */
    }
    return 0;
}

GPUMPI_FN int gp_gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    uint64_t ns = gp_realtime_ns();
    tv->tv_sec = (time_t)(ns / 1000000000ull);
    tv->tv_usec = (suseconds_t)((ns % 1000000000ull) / 1000);
    return 0;
}
