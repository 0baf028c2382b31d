/* strftime in the C locale (the only locale the shim has): every
 * conversion of C11 and POSIX, and glibc's %k %l %P %s with its flags
 * '-' (no padding), '_' (spaces), '0' (zeros) and '^' (upper case); the E
 * and O modifiers are read and have no effect, as in the C locale. */
#include "gpumpi/shim_process.h"
#include "gpumpi/format.h"
#include "gpumpi/shim_string.h"
#include "runtime.h"

typedef struct gp_tm_out {
    char *s;
    size_t max, len; /* len may pass max: then the result does not fit */
} gp_tm_out;

GPUMPI_FN static void gp_tm_put(gp_tm_out *o, const char *p, size_t n, int upper)
{
    for (size_t i = 0; i < n; i++, o->len++) {
        char c = p[i];
        if (upper && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        if (o->len < o->max) o->s[o->len] = c;
    }
}

/* v in at least `width` digits, padded as the flag says ('0' unless pad is ' ' by default). */
GPUMPI_FN static void gp_tm_num(gp_tm_out *o, long long v, int width, char pad, char flag)
{
    if (flag == '-') width = 1;
    if (flag == '_') pad = ' ';
    if (flag == '0') pad = '0';
    char buf[32];
    int n = gp_snprintf(buf, sizeof buf, pad == '0' ? "%0*lld" : "%*lld", width, v);
    gp_tm_put(o, buf, (size_t)n, 0);
}

GPUMPI_FN static const char *gp_tm_name(int i, int n, const char *const *names) { return i >= 0 && i < n ? names[i] : "?"; }

/* Weeks (52 or 53) in ISO 8601 year y: 53 when it starts on a Thursday,
 * or on a Wednesday in a leap year. */
GPUMPI_FN static int gp_iso_weeks(int y)
{
    int p = ((y + y / 4 - y / 100 + y / 400) % 7 + 7) % 7, q = y - 1;
    int pq = ((q + q / 4 - q / 100 + q / 400) % 7 + 7) % 7;
    return p == 4 || pq == 3 ? 53 : 52;
}

/* ISO 8601 week-based year and week of tm (for %G, %g, %V). */
GPUMPI_FN static void gp_iso_week(const struct tm *tm, int *year, int *week)
{
    int y = tm->tm_year + 1900, w = (tm->tm_yday - (tm->tm_wday + 6) % 7 + 10) / 7;
    if (w < 1) w = gp_iso_weeks(--y);
    else if (w > gp_iso_weeks(y)) {
        y++;
        w = 1;
    }
    *year = y;
    *week = w;
}

GPUMPI_FN static void gp_tm_format(gp_tm_out *o, const char *fmt, const struct tm *tm);

GPUMPI_FN static void gp_tm_conv(gp_tm_out *o, char c, char flag, int upper, const struct tm *tm)
{
    static const char *const days[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    static const char *const months[] = {"January", "February", "March", "April", "May", "June", "July",
                                         "August", "September", "October", "November", "December"};
    const char *name;
    int hour12 = tm->tm_hour % 12 ? tm->tm_hour % 12 : 12;
    long long year = (long long)tm->tm_year + 1900;
    switch (c) {
    case 'a': name = gp_tm_name(tm->tm_wday, 7, days); gp_tm_put(o, name, 3, upper); break;
    case 'A': name = gp_tm_name(tm->tm_wday, 7, days); gp_tm_put(o, name, gp_strlen(name), upper); break;
    case 'b':
    case 'h': name = gp_tm_name(tm->tm_mon, 12, months); gp_tm_put(o, name, 3, upper); break;
    case 'B': name = gp_tm_name(tm->tm_mon, 12, months); gp_tm_put(o, name, gp_strlen(name), upper); break;
    case 'c': gp_tm_format(o, "%a %b %e %H:%M:%S %Y", tm); break;
    case 'C': gp_tm_num(o, year / 100 - (year % 100 < 0), 2, '0', flag); break;
    case 'd': gp_tm_num(o, tm->tm_mday, 2, '0', flag); break;
    case 'D': gp_tm_format(o, "%m/%d/%y", tm); break;
    case 'e': gp_tm_num(o, tm->tm_mday, 2, ' ', flag); break;
    case 'F': gp_tm_num(o, year, 1, '0', flag); gp_tm_format(o, "-%m-%d", tm); break;
    case 'g':
    case 'G':
    case 'V': {
        int y, w;
        gp_iso_week(tm, &y, &w);
        if (c == 'V') gp_tm_num(o, w, 2, '0', flag);
        else if (c == 'G') gp_tm_num(o, y, 1, '0', flag);
        else gp_tm_num(o, ((y % 100) + 100) % 100, 2, '0', flag);
        break;
    }
    case 'H': gp_tm_num(o, tm->tm_hour, 2, '0', flag); break;
    case 'I': gp_tm_num(o, hour12, 2, '0', flag); break;
    case 'j': gp_tm_num(o, tm->tm_yday + 1, 3, '0', flag); break;
    case 'k': gp_tm_num(o, tm->tm_hour, 2, ' ', flag); break;
    case 'l': gp_tm_num(o, hour12, 2, ' ', flag); break;
    case 'm': gp_tm_num(o, tm->tm_mon + 1, 2, '0', flag); break;
    case 'M': gp_tm_num(o, tm->tm_min, 2, '0', flag); break;
    case 'n': gp_tm_put(o, "\n", 1, 0); break;
    case 'p': gp_tm_put(o, tm->tm_hour < 12 ? "AM" : "PM", 2, 0); break;
    case 'P': gp_tm_put(o, tm->tm_hour < 12 ? "am" : "pm", 2, upper); break;
    case 'r': gp_tm_format(o, "%I:%M:%S %p", tm); break;
    case 'R': gp_tm_format(o, "%H:%M", tm); break;
    case 's': {
        struct tm copy = *tm;
        gp_tm_num(o, (long long)gp_mktime(&copy), 1, '0', flag);
        break;
    }
    case 'S': gp_tm_num(o, tm->tm_sec, 2, '0', flag); break;
    case 't': gp_tm_put(o, "\t", 1, 0); break;
    case 'T': gp_tm_format(o, "%H:%M:%S", tm); break;
    case 'u': gp_tm_num(o, tm->tm_wday ? tm->tm_wday : 7, 1, '0', flag); break;
    case 'U': gp_tm_num(o, (tm->tm_yday + 7 - tm->tm_wday) / 7, 2, '0', flag); break;
    case 'w': gp_tm_num(o, tm->tm_wday, 1, '0', flag); break;
    case 'W': gp_tm_num(o, (tm->tm_yday + 7 - (tm->tm_wday + 6) % 7) / 7, 2, '0', flag); break;
    case 'x': gp_tm_format(o, "%m/%d/%y", tm); break;
    case 'X': gp_tm_format(o, "%H:%M:%S", tm); break;
    case 'y': gp_tm_num(o, ((year % 100) + 100) % 100, 2, '0', flag); break;
    case 'Y': gp_tm_num(o, year, 1, '0', flag); break;
    case 'z': {
        long off = tm->tm_gmtoff, a = off < 0 ? -off : off;
        gp_tm_put(o, off < 0 ? "-" : "+", 1, 0);
        gp_tm_num(o, a / 3600 * 100 + a / 60 % 60, 4, '0', 0);
        break;
    }
    case 'Z':
        if (tm->tm_zone) gp_tm_put(o, tm->tm_zone, gp_strlen(tm->tm_zone), upper);
        break;
    case '%': gp_tm_put(o, "%", 1, 0); break;
    default: { /* not a conversion: copied as it stands, as glibc does */
        char both[2] = {'%', c};
        gp_tm_put(o, both, 2, 0);
    }
    }
}

GPUMPI_FN static void gp_tm_format(gp_tm_out *o, const char *fmt, const struct tm *tm)
{
    for (const char *p = fmt; *p; p++) {
        if (*p != '%' || !p[1]) {
            gp_tm_put(o, p, 1, 0);
            continue;
        }
        char flag = 0;
        int upper = 0;
        for (p++; *p == '-' || *p == '_' || *p == '0' || *p == '^' || *p == '#'; p++) {
            if (*p == '^') upper = 1;
            else if (*p != '#') flag = *p;
        }
        while (*p >= '1' && *p <= '9') p++; /* a field width: taken as none */
        if (*p == 'E' || *p == 'O') p++;
        if (!*p) break;
        gp_tm_conv(o, *p, flag, upper, tm);
    }
}

GPUMPI_FN size_t gp_strftime(char *s, size_t max, const char *fmt, const struct tm *tm)
{
    gp_tm_out o = {s, max, 0};
    gp_tm_format(&o, fmt, tm);
    if (o.len >= max) return 0; /* C: 0 when the result and its NUL do not fit */
    s[o.len] = 0;
    return o.len;
}
