/* <time.h> for converted code: clocks read on the device (time.cu), the
 * calendar (calendar.cu: local time in the host's time zone) and strftime
 * (strftime.cu). Function-like macros, so a variable or member named
 * `time`, `clock` or `ctime` stays as it is. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_TIME_H_CUH
#define GPUMPI_TIME_H_CUH
#define time(t) gp_time(t)
#define clock() gp_clock()
#define difftime(a, b) gp_difftime(a, b)
#define clock_gettime(id, ts) gp_clock_gettime(id, ts)
#define clock_getres(id, ts) gp_clock_getres(id, ts)
#define gmtime(t) gp_gmtime(t)
#define gmtime_r(t, tm) gp_gmtime_r(t, tm)
#define localtime(t) gp_localtime(t)
#define localtime_r(t, tm) gp_localtime_r(t, tm)
#define mktime(tm) gp_mktime(tm)
#define timegm(tm) gp_timegm(tm)
#define asctime(tm) gp_asctime(tm)
#define asctime_r(tm, buf) gp_asctime_r(tm, buf)
#define ctime(t) gp_ctime(t)
#define ctime_r(t, buf) gp_ctime_r(t, buf)
#define strftime(s, max, fmt, tm) gp_strftime(s, max, fmt, tm)
#define tzset() gp_tzset()
#endif
