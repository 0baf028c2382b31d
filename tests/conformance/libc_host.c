/* The C library calls that need the operating system, on every rank with
 * its own names: sysconf/getpagesize, mkdir/rmdir/unlink, system,
 * popen/pclose both ways, and the calendar (gmtime, localtime, mktime,
 * asctime, ctime, strftime) against glibc's results for fixed times.
 * Directories go under argv[1] if given, else /tmp. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "mpitest.h"

/* glibc's gmtime, strftime (the format below) and asctime of these times */
static const char *fmt = "%Y-%m-%d %H:%M:%S|%a %A %b %B %h|%j %U %W %V %G %g %u %w|%e %I %l %k %p %P|%y %C %D %F %T "
                         "%R %r|%c|%x %X|%z %Z|%-d %_m %^a %%|%Ey %Od";
static const struct {
    long long t;
    const char *strftime, *asctime;
    int yday, wday;
} times[] = {
    {1000000000LL,
     "2001-09-09 01:46:40|Sun Sunday Sep September Sep|252 36 36 36 2001 01 7 0| 9 01  1  1 AM am|01 20 09/09/01 "
     "2001-09-09 01:46:40 01:46 01:46:40 AM|Sun Sep  9 01:46:40 2001|09/09/01 01:46:40|+0000 GMT|9  9 SUN %|01 09",
     "Sun Sep  9 01:46:40 2001\n", 251, 0},
    {1104537600LL,
     "2005-01-01 00:00:00|Sat Saturday Jan January Jan|001 00 00 53 2004 04 6 6| 1 12 12  0 AM am|05 20 01/01/05 "
     "2005-01-01 00:00:00 00:00 12:00:00 AM|Sat Jan  1 00:00:00 2005|01/01/05 00:00:00|+0000 GMT|1  1 SAT %|05 01",
     "Sat Jan  1 00:00:00 2005\n", 0, 6},
    {1230555661LL,
     "2008-12-29 13:01:01|Mon Monday Dec December Dec|364 52 52 01 2009 09 1 1|29 01  1 13 PM pm|08 20 12/29/08 "
     "2008-12-29 13:01:01 13:01 01:01:01 PM|Mon Dec 29 13:01:01 2008|12/29/08 13:01:01|+0000 GMT|29 12 MON %|08 29",
     "Mon Dec 29 13:01:01 2008\n", 363, 1},
    {1262476800LL,
     "2010-01-03 00:00:00|Sun Sunday Jan January Jan|003 01 00 53 2009 09 7 0| 3 12 12  0 AM am|10 20 01/03/10 "
     "2010-01-03 00:00:00 00:00 12:00:00 AM|Sun Jan  3 00:00:00 2010|01/03/10 00:00:00|+0000 GMT|3  1 SUN %|10 03",
     "Sun Jan  3 00:00:00 2010\n", 2, 0},
    {-1LL,
     "1969-12-31 23:59:59|Wed Wednesday Dec December Dec|365 52 52 01 1970 70 3 3|31 11 11 23 PM pm|69 19 12/31/69 "
     "1969-12-31 23:59:59 23:59 11:59:59 PM|Wed Dec 31 23:59:59 1969|12/31/69 23:59:59|+0000 GMT|31 12 WED %|69 31",
     "Wed Dec 31 23:59:59 1969\n", 364, 3},
    {951782400LL,
     "2000-02-29 00:00:00|Tue Tuesday Feb February Feb|060 09 09 09 2000 00 2 2|29 12 12  0 AM am|00 20 02/29/00 "
     "2000-02-29 00:00:00 00:00 12:00:00 AM|Tue Feb 29 00:00:00 2000|02/29/00 00:00:00|+0000 GMT|29  2 TUE %|00 29",
     "Tue Feb 29 00:00:00 2000\n", 59, 2},
    {4102444799LL,
     "2099-12-31 23:59:59|Thu Thursday Dec December Dec|365 52 52 53 2099 99 4 4|31 11 11 23 PM pm|99 20 12/31/99 "
     "2099-12-31 23:59:59 23:59 11:59:59 PM|Thu Dec 31 23:59:59 2099|12/31/99 23:59:59|+0000 GMT|31 12 THU %|99 31",
     "Thu Dec 31 23:59:59 2099\n", 364, 4},
};

static void check_sysconf(void)
{
    long page = sysconf(_SC_PAGESIZE);
    CHECK(page > 0 && (page & (page - 1)) == 0, "sysconf(_SC_PAGESIZE) = %ld, not a power of two", page);
    CHECK(page == getpagesize(), "sysconf(_SC_PAGESIZE) = %ld, getpagesize() = %d", page, getpagesize());
    CHECK(sysconf(_SC_PAGE_SIZE) == page, "_SC_PAGE_SIZE %ld != _SC_PAGESIZE %ld", sysconf(_SC_PAGE_SIZE), page);
    long on = sysconf(_SC_NPROCESSORS_ONLN), conf = sysconf(_SC_NPROCESSORS_CONF);
    CHECK(on >= 1 && conf >= on, "processors online %ld, configured %ld", on, conf);
    CHECK(sysconf(_SC_CLK_TCK) > 0, "_SC_CLK_TCK %ld", sysconf(_SC_CLK_TCK));
    CHECK(sysconf(_SC_OPEN_MAX) >= 16, "_SC_OPEN_MAX %ld", sysconf(_SC_OPEN_MAX));
    errno = 0;
    long bad = sysconf(-12345);
    CHECK(bad == -1 && errno == EINVAL, "sysconf(-12345) = %ld, errno %d (want -1, EINVAL)", bad, errno);
}

/* rank-own directory: a file in it, written then read back; gone at the end */
static void check_dirs(const char *dir)
{
    char file[512], line[64];
    CHECK(mkdir(dir, 0700) == 0, "mkdir(%s): errno %d", dir, errno);
    errno = 0;
    CHECK(mkdir(dir, 0700) == -1 && errno == EEXIST, "second mkdir(%s): errno %d, want EEXIST", dir, errno);
    snprintf(file, sizeof file, "%s/data.txt", dir);
    FILE *f = fopen(file, "w");
    CHECK(f != NULL, "fopen(%s, \"w\") failed", file);
    if (f) {
        fprintf(f, "rank %d\n", rank);
        fclose(f);
    }
    f = fopen(file, "r");
    CHECK(f != NULL, "fopen(%s, \"r\") failed", file);
    if (f) {
        char want[64];
        snprintf(want, sizeof want, "rank %d\n", rank);
        CHECK(fgets(line, sizeof line, f) && strcmp(line, want) == 0, "%s read back wrong", file);
        fclose(f);
    }
    errno = 0;
    CHECK(rmdir(dir) == -1 && errno == ENOTEMPTY, "rmdir of a non-empty directory: errno %d", errno);
    CHECK(unlink(file) == 0, "unlink(%s): errno %d", file, errno);
    CHECK(rmdir(dir) == 0, "rmdir(%s): errno %d", dir, errno);
    errno = 0;
    CHECK(mkdir("/nonexistent-gpumpi/x/y", 0700) == -1 && errno == ENOENT, "mkdir under a missing parent: errno %d",
          errno);
}

static void check_commands(const char *dir)
{
    char cmd[600], line[128], want[128];
    CHECK(system(NULL) != 0, "system(NULL) says there is no shell");
    int st = system("exit 3");
    CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 3, "system(\"exit 3\") = %#x", st);
    snprintf(cmd, sizeof cmd, "exit %d", rank % 100 + 10);
    st = system(cmd);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == rank % 100 + 10, "system(\"%s\") = %#x", cmd, st);

    /* read: two lines, each a fgets, then end of file */
    snprintf(cmd, sizeof cmd, "echo hello; echo rank %d", rank);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "popen(\"%s\", \"r\") failed: errno %d", cmd, errno);
    if (p) {
        CHECK(fgets(line, sizeof line, p) && strcmp(line, "hello\n") == 0, "popen's first line wrong");
        snprintf(want, sizeof want, "rank %d\n", rank);
        CHECK(fgets(line, sizeof line, p) && strcmp(line, want) == 0, "popen's second line: '%s', want '%s'", line,
              want);
        CHECK(fgets(line, sizeof line, p) == NULL, "popen's stream does not end");
        st = pclose(p);
        CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "pclose = %#x", st);
    }
    /* a command that is slow to write, and its exit status through pclose */
    p = popen("sleep 0.2; printf 'late %d' 42; exit 5", "r");
    CHECK(p != NULL, "popen of a slow command failed");
    if (p) {
        char buf[32] = {0};
        size_t n = fread(buf, 1, sizeof buf - 1, p);
        CHECK(n == 7 && strcmp(buf, "late 42") == 0, "fread from popen: %zu bytes '%s'", n, buf);
        st = pclose(p);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 5, "pclose of 'exit 5' = %#x", st);
    }
    /* write: the command saves what the rank writes, the rank reads it back */
    char file[512];
    CHECK(mkdir(dir, 0700) == 0, "mkdir(%s): errno %d", dir, errno);
    snprintf(file, sizeof file, "%s/from_pipe.txt", dir);
    snprintf(cmd, sizeof cmd, "cat > '%s'", file);
    p = popen(cmd, "w");
    CHECK(p != NULL, "popen(\"%s\", \"w\") failed", cmd);
    if (p) {
        fprintf(p, "rank %d of %d\n", rank, size);
        fputs("second line\n", p);
        st = pclose(p);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "pclose of cat = %#x", st);
        FILE *f = fopen(file, "r");
        CHECK(f != NULL, "%s was not written", file);
        if (f) {
            snprintf(want, sizeof want, "rank %d of %d\n", rank, size);
            CHECK(fgets(line, sizeof line, f) && strcmp(line, want) == 0, "what cat saved: '%s'", line);
            CHECK(fgets(line, sizeof line, f) && strcmp(line, "second line\n") == 0, "cat's second line: '%s'", line);
            fclose(f);
        }
        unlink(file);
    }
    rmdir(dir);
}

static void check_calendar(void)
{
    char buf[512];
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        time_t t = (time_t)times[i].t;
        struct tm g, *gs = gmtime(&t);
        CHECK(gs != NULL, "gmtime(%lld) failed", times[i].t);
        if (!gs) continue;
        g = *gs;
        CHECK(g.tm_yday == times[i].yday && g.tm_wday == times[i].wday, "gmtime(%lld): yday %d wday %d", times[i].t,
              g.tm_yday, g.tm_wday);
        CHECK(timegm(&g) == t, "timegm(gmtime(%lld)) = %lld", times[i].t, (long long)timegm(&g));
        size_t n = strftime(buf, sizeof buf, fmt, &g);
        CHECK(n == strlen(times[i].strftime) && strcmp(buf, times[i].strftime) == 0, "strftime of %lld:\n  '%s'\nwant\n  '%s'",
              times[i].t, buf, times[i].strftime);
        CHECK(strftime(buf, 10, fmt, &g) == 0, "strftime into too small a buffer did not return 0");
        CHECK(strcmp(asctime(&g), times[i].asctime) == 0, "asctime of %lld: '%s'", times[i].t, asctime(&g));

        /* local time: gmtime of the time moved by the offset localtime gives */
        struct tm l, *ls = localtime(&t);
        CHECK(ls != NULL, "localtime(%lld) failed", times[i].t);
        if (!ls) continue;
        l = *ls;
        time_t moved = t + l.tm_gmtoff;
        struct tm m = *gmtime(&moved);
        CHECK(l.tm_year == m.tm_year && l.tm_mon == m.tm_mon && l.tm_mday == m.tm_mday && l.tm_hour == m.tm_hour &&
                  l.tm_min == m.tm_min && l.tm_sec == m.tm_sec && l.tm_wday == m.tm_wday && l.tm_yday == m.tm_yday,
              "localtime(%lld) is not gmtime + its offset %ld", times[i].t, (long)l.tm_gmtoff);
        CHECK(l.tm_gmtoff > -15 * 3600 && l.tm_gmtoff < 15 * 3600, "UTC offset %ld s", (long)l.tm_gmtoff);
        struct tm l2 = l;
        CHECK(mktime(&l2) == t, "mktime(localtime(%lld)) = %lld", times[i].t, (long long)mktime(&l2));
        char want[64];
        strcpy(want, asctime(&l));
        CHECK(strcmp(ctime(&t), want) == 0, "ctime(%lld) = '%s', asctime(localtime) '%s'", times[i].t, ctime(&t), want);
        snprintf(want, sizeof want, "%lld", times[i].t);
        strftime(buf, sizeof buf, "%s", &l);
        CHECK(strcmp(buf, want) == 0, "strftime %%s of localtime(%lld) = %s", times[i].t, buf);
    }
    /* mktime normalises: 31 January + 1 day is 1 February (noon: clear of any DST change) */
    struct tm d = {0};
    d.tm_year = 121, d.tm_mon = 0, d.tm_mday = 32, d.tm_hour = 12, d.tm_isdst = -1;
    time_t t = mktime(&d);
    CHECK(t != (time_t)-1 && d.tm_mon == 1 && d.tm_mday == 1 && d.tm_yday == 31 && d.tm_wday == 1,
          "mktime of 32 January 2021: mon %d mday %d yday %d wday %d", d.tm_mon, d.tm_mday, d.tm_yday, d.tm_wday);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    /* names of this run (rank 0's clock) and this rank */
    long long stamp = 0;
    if (rank == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        stamp = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    }
    MPI_Bcast(&stamp, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    const char *base = argc > 1 ? argv[1] : "/tmp";
    char dir[400], dir2[400];
    snprintf(dir, sizeof dir, "%s/gpumpi_libc_host_%lld_%d", base, stamp, rank);
    snprintf(dir2, sizeof dir2, "%s/gpumpi_libc_host_%lld_%d_pipe", base, stamp, rank);

    check_sysconf();
    check_dirs(dir);
    check_commands(dir2);
    check_calendar();
    return mt_finish();
}
