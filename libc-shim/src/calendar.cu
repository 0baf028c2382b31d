/* The calendar on the device: gmtime, localtime, mktime, timegm, asctime,
 * ctime. Dates are computed here (the proleptic Gregorian calendar, as
 * glibc); local time needs the host's time zone, whose UTC offset, DST flag
 * and name at a given time the rank asks the launcher for (GP_HOST_TZ) and
 * keeps for that hour of time: converting many times of one hour (every
 * "now" a program prints) costs one host call. The static results are the
 * rank's own (gp_libc_state), as each process has its own under mpirun. */
#include <errno.h>
#include "gpumpi/shim_process.h"
#include "gpumpi/format.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_errno.h"
#include "libc_state.h"
#include "runtime.h"

GPUMPI_FN static int64_t gp_floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* Days since 1970-01-01 of year y, month m (1..12), day d (1..31). */
GPUMPI_FN static int64_t gp_days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = gp_floor_div(y, 400);
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* t + offset seconds broken down into out; NULL when the year does not fit an int. */
GPUMPI_FN static struct tm *gp_break_down(int64_t t, long offset, struct tm *out)
{
    int64_t s = t + offset, days = gp_floor_div(s, 86400), rem = s - days * 86400;
    int64_t z = days + 719468, era = gp_floor_div(z, 146097), doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1), m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int64_t y = yoe + era * 400 + (m <= 2);
    if (y - 1900 > 2147483647ll || y - 1900 < -2147483647ll - 1) {
        *gp_errno_location() = EOVERFLOW;
        return 0;
    }
    out->tm_year = (int)(y - 1900);
    out->tm_mon = m - 1;
    out->tm_mday = d;
    out->tm_hour = (int)(rem / 3600);
    out->tm_min = (int)(rem / 60 % 60);
    out->tm_sec = (int)(rem % 60);
    out->tm_wday = (int)(days + 4 - gp_floor_div(days + 4, 7) * 7); /* 1970-01-01 was a Thursday */
    out->tm_yday = (int)(days - gp_days_from_civil(y, 1, 1));
    out->tm_isdst = 0;
    out->tm_gmtoff = offset;
    out->tm_zone = "GMT";
    return out;
}

/* The host's zone at time t, kept for t's hour. */
GPUMPI_FN static gp_libc_state *gp_zone_at(int64_t t)
{
    gp_libc_state *L = gp_libc();
    int64_t hour = gp_floor_div(t, 3600);
    if (L->zone_known && L->zone_hour == hour) return L;
    char reply[8 + 1 + sizeof L->zone_name];
    size_t got = 0;
    gp_memset(reply, 0, sizeof reply);
    gp_host_rpc(GP_HOST_TZ, t, 0, 0, 0, reply, sizeof reply, &got, 0);
    int64_t off;
    gp_memcpy(&off, reply, sizeof off);
    L->zone_offset = got >= 9 ? (long)off : 0;
    L->zone_isdst = got >= 9 && reply[8];
    size_t n = got > 9 ? got - 9 : 0;
    if (n > sizeof L->zone_name - 1) n = sizeof L->zone_name - 1;
    gp_memcpy(L->zone_name, reply + 9, n);
    L->zone_name[n] = 0;
    if (!n) gp_memcpy(L->zone_name, "UTC", 4);
    L->zone_hour = hour;
    L->zone_known = 1;
    return L;
}

GPUMPI_FN struct tm *gp_gmtime_r(const time_t *t, struct tm *out) { return gp_break_down(*t, 0, out); }
GPUMPI_FN struct tm *gp_gmtime(const time_t *t) { return gp_gmtime_r(t, &gp_libc()->tm_result); }

GPUMPI_FN struct tm *gp_localtime_r(const time_t *t, struct tm *out)
{
    gp_libc_state *L = gp_zone_at(*t);
    if (!gp_break_down(*t, L->zone_offset, out)) return 0;
    out->tm_isdst = L->zone_isdst;
    out->tm_zone = L->zone_name;
    return out;
}

GPUMPI_FN struct tm *gp_localtime(const time_t *t) { return gp_localtime_r(t, &gp_libc()->tm_result); }

/* The fields as a time, as if they were UTC; they may be out of range (mktime's callers add days to tm_mday). */
GPUMPI_FN static int64_t gp_fields_seconds(const struct tm *tm)
{
    int64_t mon = tm->tm_mon, y = (int64_t)tm->tm_year + 1900 + gp_floor_div(mon, 12);
    mon -= gp_floor_div(mon, 12) * 12;
    int64_t days = gp_days_from_civil(y, (int)mon + 1, 1) + tm->tm_mday - 1;
    return days * 86400 + (int64_t)tm->tm_hour * 3600 + (int64_t)tm->tm_min * 60 + tm->tm_sec;
}

GPUMPI_FN time_t gp_timegm(struct tm *tm)
{
    time_t t = (time_t)gp_fields_seconds(tm);
    return gp_break_down(t, 0, tm) ? t : (time_t)-1;
}

/* The local fields' time: the offset at the first guess, then again at the
 * time that gives (the fields may lie across a change of offset). */
GPUMPI_FN time_t gp_mktime(struct tm *tm)
{
    int64_t fields = gp_fields_seconds(tm);
    long off = gp_zone_at(fields)->zone_offset;
    int64_t t = fields - off;
    long off2 = gp_zone_at(t)->zone_offset;
    if (off2 != off) t = fields - off2;
    time_t r = (time_t)t;
    return gp_localtime_r(&r, tm) ? r : (time_t)-1;
}

GPUMPI_FN void gp_tzset(void) {} /* the zone is the launcher's; asked for when needed */

GPUMPI_FN char *gp_asctime_r(const struct tm *tm, char *buf)
{
    static const char days[] = "SunMonTueWedThuFriSat", months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    const char *d = tm->tm_wday >= 0 && tm->tm_wday < 7 ? days + 3 * tm->tm_wday : "???";
    const char *m = tm->tm_mon >= 0 && tm->tm_mon < 12 ? months + 3 * tm->tm_mon : "???";
    /* 26 bytes, as C requires of the caller's buffer */
    int n = gp_snprintf(buf, 26, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", d, m, tm->tm_mday, tm->tm_hour, tm->tm_min,
                        tm->tm_sec, tm->tm_year + 1900);
    if (n >= 26) {
        *gp_errno_location() = EOVERFLOW;
        return 0;
    }
    return buf;
}

GPUMPI_FN char *gp_asctime(const struct tm *tm) { return gp_asctime_r(tm, gp_libc()->asctime_buf); }

GPUMPI_FN char *gp_ctime_r(const time_t *t, char *buf)
{
    struct tm tm;
    return gp_localtime_r(t, &tm) ? gp_asctime_r(&tm, buf) : 0;
}

GPUMPI_FN char *gp_ctime(const time_t *t) { return gp_ctime_r(t, gp_libc()->asctime_buf); }
