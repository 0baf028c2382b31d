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
/* The calendar, computed on the device (calendar.cu); local time uses the
 * host's time zone, whose offset a rank asks the host for once per hour of
 * time it converts. The static results of gmtime, localtime, asctime and
 * ctime are the rank's own. */
GPUMPI_FN struct tm *gp_gmtime_r(const time_t *t, struct tm *out);
GPUMPI_FN struct tm *gp_gmtime(const time_t *t);
GPUMPI_FN struct tm *gp_localtime_r(const time_t *t, struct tm *out);
GPUMPI_FN struct tm *gp_localtime(const time_t *t);
GPUMPI_FN time_t gp_timegm(struct tm *tm);
GPUMPI_FN time_t gp_mktime(struct tm *tm);
GPUMPI_FN char *gp_asctime_r(const struct tm *tm, char *buf);
GPUMPI_FN char *gp_asctime(const struct tm *tm);
GPUMPI_FN char *gp_ctime_r(const time_t *t, char *buf);
GPUMPI_FN char *gp_ctime(const time_t *t);
GPUMPI_FN void gp_tzset(void);
/* The C locale's conversions (strftime.cu). */
GPUMPI_FN size_t gp_strftime(char *s, size_t max, const char *fmt, const struct tm *tm);

#endif
