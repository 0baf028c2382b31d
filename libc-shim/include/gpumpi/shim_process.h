/* The process side of the device C library: ending (exit.cu), the
 * environment, and clocks (time.cu). A rank is a process to the program:
 * exit() with a non-zero status, abort() and a failed assert end the whole
 * job like a failing process under mpirun; atexit handlers and open files
 * are the rank's own. */
#ifndef GPUMPI_SHIM_PROCESS_H
#define GPUMPI_SHIM_PROCESS_H

#include <time.h>
#include <sys/time.h>
#include "gpumpi/platform.h"

GPUMPI_FN int gp_atexit(void (*fn)(void));
GPUMPI_FN char *gp_getenv(const char *name);
GPUMPI_FN void gp_assert_fail(const char *expr, const char *file, int line, const char *func);
/* At the end of a rank (exit or return from main): atexit handlers, then
 * every open file flushed and closed, then stdout flushed. Runs once. */
GPUMPI_FN void gp_exit_cleanup(void);

GPUMPI_FN time_t gp_time(time_t *t);
GPUMPI_FN clock_t gp_clock(void);
GPUMPI_FN double gp_difftime(time_t a, time_t b);
GPUMPI_FN int gp_clock_gettime(clockid_t id, struct timespec *ts);
GPUMPI_FN int gp_clock_getres(clockid_t id, struct timespec *ts);
GPUMPI_FN int gp_gettimeofday(struct timeval *tv, void *tz);

#endif
