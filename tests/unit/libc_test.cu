/* Unit test of the libc-shim's C library against the host's glibc: the same
 * calls, the same results, byte for byte and bit for bit (return values,
 * end pointers, errno, stored values). Runs on the host (threads backend
 * build of the shim; libc_stub.cu stands in for the per-rank state).
 *
 *   build/tests/libc_test [seed] [random-cases]
 *
 * Covered: strtod/strtof (edge cases, halfway points printed exactly,
 * random decimal and hex strings), strtol/strtoul/strtoll/strtoull (bases,
 * overflow, errno), sscanf (a generated table of formats and inputs),
 * qsort/bsearch, rand/srand/random/rand_r and the drand48 family, the
 * string.h/strings.h functions, ctype.h, getopt/getopt_long, strerror.
 * The GPU runs the same functions through tests/conformance/libc_*.c. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_ctype.h"
#include "gpumpi/shim_errno.h"
#include "gpumpi/shim_unistd.h"
#include "gpumpi/scan.h"

#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#pragma GCC diagnostic ignored "-Wformat-security"

void stub_reset_rank(void);

static long n_cases, n_fail, n_fail_section;
static const char *section;

static void failf(const char *fmt, ...)
{
    static const char *last_section;
    if (section != last_section) n_fail_section = 0;
    last_section = section;
    n_fail++;
    if (++n_fail_section > 12) return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL [%s] ", section);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static int rndn(int n) { return (int)(rnd() % (uint64_t)n); }

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- strtod / strtof ---- */

static void check_strtod(const char *s)
{
    n_cases++;
    char *e1, *e2;
    errno = 0;
    double a = strtod(s, &e1);
    int er1 = errno;
    *gp_errno_location() = 0;
    double b = gp_strtod(s, &e2);
    int er2 = *gp_errno_location();
    if (dbits(a) != dbits(b) || e1 - s != e2 - s || er1 != er2)
        failf("strtod(\"%.200s\"): glibc %a (%016llx) end +%ld errno %d, got %a (%016llx) end +%ld errno %d", s, a,
              (unsigned long long)dbits(a), (long)(e1 - s), er1, b, (unsigned long long)dbits(b), (long)(e2 - s),
              er2);
    errno = 0;
    float fa = strtof(s, &e1);
    er1 = errno;
    *gp_errno_location() = 0;
    float fb = gp_strtof(s, &e2);
    er2 = *gp_errno_location();
    if (fbits(fa) != fbits(fb) || e1 - s != e2 - s || er1 != er2)
        failf("strtof(\"%.200s\"): glibc %a (%08x) end +%ld errno %d, got %a (%08x) end +%ld errno %d", s, fa,
              fbits(fa), (long)(e1 - s), er1, fb, fbits(fb), (long)(e2 - s), er2);
    if (atof(s) != gp_atof(s) && !(isnan(atof(s)) && isnan(gp_atof(s)))) failf("atof(\"%.200s\")", s);
}

static const char *strtod_edges[] = {
    "", " ", "+", "-", ".", "e5", ".e5", "0", "-0", "+0", "0.", ".0", "00", "0e0", "0e", "0e+", "1e", "1e+",
    "1e-", "1.5e+x", "  \t\n12.5xyz", "1", "-1", "1.0", "0.1", "0.2", "0.3", "123456789012345678901234567890",
    "3.14159265358979323846264338327950288", "1e308", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "1.797693134862315807937289714053e308", "1.797693134862315807937289714054e308",
    "1e309", "-1e309", "2.2250738585072014e-308", "2.2250738585072011e-308", "2.2250738585072012e-308",
    "2.225073858507201136057409796709131975934819546351645648e-308", "4.9406564584124654e-324",
    "4.9406564584124654e-325", "2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272e-324",
    "1e-324", "3e-324", "1e-320", "1e-400", "-1e-400", "1e-99999999999", "1e99999999999", "0e99999999",
    "0x", "0x.", "0xg", "0x1", "0X1P0", "0x1p", "0x1p+", "0x1.8p1", "0x.8p1", "0x1p-1074", "0x1p-1075",
    "0x1.0000000000001p-1075", "0x1p-1076", "0x1.fffffffffffffp1023", "0x1.fffffffffffff8p1023", "0x1p1024",
    "0x123456789abcdef0123p-50", "0x0.0000000000001p-1022", "0x1.00000000000008p0", "0x1.00000000000018p0",
    "0x1.000000000000080000001p0", "inf", "-inf", "INF", "infinity", "-Infinity", "infinit", "infx", "nan",
    "-nan", "NaN", "nan()", "nan(123)", "nan(0x7)", "nan(abc)", "nan(", "nan(1 2)", "nanx", "1,5", "1_000",
    "9007199254740993", "9007199254740992.5", "9007199254740993.0000000001", "1e23", "8.5e-323",
    "123.456e-2", "00000000000000000000000000000000000001", "0.000000000000000000000000000000000000000001e40",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "1.00000000000000011102230246251565404236316680908203126", "3.4028234663852886e38", "3.4028235677973366e38",
    "3.40282356779733661637539395458142568448e38", "1.17549435e-38", "1.4e-45", "7.006492321624085e-46",
    "7.0064923216240862e-46", "1e-46", "16777217", "33554431", "0.1e-3000", "1e+0000000000000000000000000001",
};

/* The exact decimal midpoint between d and the next double up: x87 long
 * double holds it exactly, glibc prints it exactly. */
static void check_halfway(double d)
{
    double up = nextafter(d, INFINITY);
    if (isinf(up) || isnan(d)) return;
    long double mid = ((long double)d + (long double)up) / 2;
    char buf[1200];
    snprintf(buf, sizeof buf, "%.780Le", mid);
    check_strtod(buf);
    /* just above and below the midpoint: flip the last non-zero digit */
    char *e = strchr(buf, 'e');
    char *last = e - 1;
    while (last > buf && *last == '0') last--;
    char save = *last;
    if (*last != '.' && *last > '0') {
        *last = (char)(save - 1);
        check_strtod(buf);
        *last = save;
    }
    /* the midpoint with a trailing 1 far beyond the last digit */
    char tail[1300];
    snprintf(tail, sizeof tail, "%.*s1%s", (int)(e - buf), buf, e);
    check_strtod(tail);
    snprintf(buf, sizeof buf, "%.17g", d);
    check_strtod(buf);
}

static double rnd_double(void)
{
    switch (rndn(5)) {
    case 0: { /* any bit pattern */
        uint64_t u = rnd();
        double d;
        memcpy(&d, &u, 8);
        return d;
    }
    case 1: return ldexp((double)(rnd() >> 11), rndn(2200) - 1100 - 53);
    case 2: return ldexp((double)(rnd() >> 11), -1074 + rndn(80)); /* subnormals */
    case 3: return (double)rndn(100000) / (1 + rndn(1000));
    default: return ldexp((double)(rnd() >> 11), 1024 - 53 - rndn(40));
    }
}

static void test_strtod(long nrandom)
{
    section = "strtod";
    for (size_t i = 0; i < sizeof strtod_edges / sizeof *strtod_edges; i++) check_strtod(strtod_edges[i]);
    char buf[2000];
    for (long i = 0; i < nrandom; i++) {
        double d = rnd_double();
        if (isnan(d)) continue;
        switch (rndn(6)) {
        case 0: snprintf(buf, sizeof buf, "%.17g", d); break;
        case 1: snprintf(buf, sizeof buf, "%.*e", rndn(25), d); break;
        case 2: snprintf(buf, sizeof buf, "%a", d); break;
        case 3: snprintf(buf, sizeof buf, "%.*f", rndn(30), d); break;
        case 4: { /* random digits and exponent */
            int n = 1 + rndn(rndn(4) ? 25 : 900), k = 0;
            if (rndn(2)) buf[k++] = '-';
            for (int j = 0; j < n; j++) {
                if (j == n / 3 && rndn(2)) buf[k++] = '.';
                buf[k++] = (char)('0' + rndn(10));
            }
            snprintf(buf + k, sizeof buf - k, "e%d", rndn(700) - 350 - n / 2);
            break;
        }
        default: check_halfway(d); continue;
        }
        check_strtod(buf);
    }
    /* floats at their halfway points */
    for (long i = 0; i < nrandom / 10; i++) {
        uint32_t u = (uint32_t)rnd() & 0x7fffffffu;
        float f;
        memcpy(&f, &u, 4);
        if (isinf(f) || isnan(f)) continue;
        double mid = ((double)f + (double)nextafterf(f, INFINITY)) / 2;
        snprintf(buf, sizeof buf, "%.120e", mid);
        check_strtod(buf);
    }
}

/* ---- strtol family ---- */

static void check_strtol(const char *s, int base)
{
    n_cases++;
    char *e1 = 0, *e2 = 0;
    int badbase = base < 0 || base == 1 || base > 36; /* glibc leaves *end alone then */
    errno = 0;
    long a = strtol(s, &e1, base);
    int er1 = errno;
    *gp_errno_location() = 0;
    long b = gp_strtol(s, &e2, base);
    int er2 = *gp_errno_location();
    if (badbase) e1 = e2 = 0;
    if (a != b || e1 != e2 || er1 != er2)
        failf("strtol(\"%s\", %d): glibc %ld +%ld errno %d, got %ld +%ld errno %d", s, base, a, (long)(e1 - s), er1,
              b, (long)(e2 - s), er2);
    errno = 0;
    unsigned long ua = strtoul(s, &e1, base);
    er1 = errno;
    *gp_errno_location() = 0;
    unsigned long ub = gp_strtoul(s, &e2, base);
    er2 = *gp_errno_location();
    if (badbase) e1 = e2 = 0;
    if (ua != ub || e1 != e2 || er1 != er2)
        failf("strtoul(\"%s\", %d): glibc %lu +%ld errno %d, got %lu +%ld errno %d", s, base, ua, (long)(e1 - s),
              er1, ub, (long)(e2 - s), er2);
    errno = 0;
    long long la = strtoll(s, &e1, base);
    unsigned long long lua = strtoull(s, 0, base);
    er1 = errno;
    *gp_errno_location() = 0;
    long long lb = gp_strtoll(s, &e2, base);
    unsigned long long lub = gp_strtoull(s, 0, base);
    er2 = *gp_errno_location();
    if (badbase) e1 = e2 = 0;
    if (la != lb || lua != lub || e1 != e2 || er1 != er2)
        failf("strtoll/strtoull(\"%s\", %d)", s, base);
    if (base == 10 && (atoi(s) != gp_atoi(s) || atol(s) != gp_atol(s) || atoll(s) != gp_atoll(s)))
        failf("atoi/atol/atoll(\"%s\")", s);
}

static void test_strtol(long nrandom)
{
    section = "strtol";
    static const char *edges[] = {"", " ", "-", "+", "0", "-0", "0x", "0X", "0xg", "0x1g", "08", "0b1", "z", "Z",
                                  "  42abc", "\t-17", "9223372036854775807", "9223372036854775808",
                                  "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
                                  "18446744073709551616", "-18446744073709551615", "-18446744073709551616",
                                  "99999999999999999999999", "0x7fffffffffffffff", "0xffffffffffffffff",
                                  "0x10000000000000000", "-0x8000000000000000", "0777", "-0777", "1_000", "+-1",
                                  "2147483648", "-2147483649", "4294967296"};
    static const int bases[] = {0, 2, 8, 10, 16, 36, 1, -1, 37, 3, 7};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        for (size_t j = 0; j < sizeof bases / sizeof *bases; j++) check_strtol(edges[i], bases[j]);
    char buf[80];
    const char *chars = "0123456789abcdefxyzXABC+- ";
    for (long i = 0; i < nrandom; i++) {
        int n = rndn(24), k = 0;
        if (rndn(3) == 0) buf[k++] = ' ';
        if (rndn(3) == 0) buf[k++] = "+-"[rndn(2)];
        if (rndn(4) == 0) buf[k++] = '0', buf[k++] = 'x';
        for (int j = 0; j < n; j++) buf[k++] = rndn(8) ? chars[rndn(10)] : chars[rndn(26)];
        buf[k] = 0;
        check_strtol(buf, bases[rndn(7)]);
    }
}

/* ---- sscanf ---- */

typedef union {
    char c[1024];
    int i;
    long l;
    long long ll;
    short h;
    signed char hh;
    float f;
    double d;
    long double ld;
    void *p;
} slot;

/* sscanf with up to 4 pointer arguments, by both libraries */
static void check_sscanf(const char *in, const char *fmt)
{
    n_cases++;
    slot a[4], b[4];
    memset(a, 0x5a, sizeof a);
    memset(b, 0x5a, sizeof b);
    int ra = sscanf(in, fmt, &a[0], &a[1], &a[2], &a[3]);
    int rb = gp_sscanf(in, fmt, &b[0], &b[1], &b[2], &b[3]);
    if (ra != rb || memcmp(a, b, sizeof a) != 0) {
        failf("sscanf(\"%s\", \"%s\"): glibc %d, got %d", in, fmt, ra, rb);
        for (int k = 0; k < 4 && n_fail_section <= 12; k++)
            if (memcmp(&a[k], &b[k], sizeof a[k]))
                printf("    arg %d: glibc %016llx %016llx \"%.20s\" / got %016llx %016llx \"%.20s\"\n", k,
                       (unsigned long long)a[k].ll, (unsigned long long)*(long long *)(a[k].c + 8), a[k].c,
                       (unsigned long long)b[k].ll, (unsigned long long)*(long long *)(b[k].c + 8), b[k].c);
    }
}

static void test_sscanf(long nrandom)
{
    section = "sscanf";
    static const char *inputs[] = {"", "   ", "42", "-42", "+7 8 9", "0x1f", "0X", "0x", "017", "-0", "12abc",
                                   "abc", "3.25", "-1.5e3x", "1e", "1e+", ".5", "-.", "inf", "-infinity", "nan",
                                   "nan(12)", "nanx", "0x1.8p3", "hello world", "  a,b;c", "%5", "% 5", "100%",
                                   "[x]", "x=12,y=13", "2147483648", "-129 70000", "1.0e400 1e-400",
                                   "18446744073709551616", "ab12cd", "  \t\n", "0x1p", "1.2.3", "12 34 56 78",
                                   "key: value", "7fffffff", "(nil)", "0x7ffd1234"};
    static const char *formats[] = {"%d", "%i", "%u", "%o", "%x", "%X", "%hhd", "%hd", "%ld", "%lld", "%jd",
                                    "%zu", "%td", "%3d", "%1d%d", "%*d%d", "%f", "%e", "%g", "%lf", "%a",
                                    "%4f", "%s", "%3s", "%c", "%3c", "%[a-z]", "%[^,]", "%[]x]", "%[^]x]",
                                    "%n", "%d%n", "x=%d,y=%d", "%d %d %d", "%d%%", "%%%d", "%s %s", "%5c%n",
                                    "%p", "key: %s", " %c", "%2[0-9]%s", "%lld%lld", "%hhu %hu", "%*s %n%s",
                                    "%d.%d.%d", "%[-a]", "%x%n"};
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
        for (size_t j = 0; j < sizeof formats / sizeof *formats; j++) check_sscanf(inputs[i], formats[j]);
    /* numbers printed by printf, read back with matching conversions */
    char in[4096], fmt[128];
    static const char *ints[] = {"d", "i", "u", "x", "o", "ld", "lld", "hd", "hhd", "lx", "llu", "zd"};
    /* no %Lf: long double is double in gpumpi (scan.h), glibc's has 64 bits */
    static const char *flts[] = {"f", "e", "g", "a", "lf", "le", "lg", "la", "lf", "lg"};
    for (long n = 0; n < nrandom; n++) {
        int k = 0, f = 0;
        int nconv = 1 + rndn(4);
        for (int c = 0; c < nconv; c++) {
            const char *sep = c ? (const char *[]){" ", ",", "  ", ":"}[rndn(4)] : "";
            k += snprintf(in + k, sizeof in - k, "%s", sep);
            f += snprintf(fmt + f, sizeof fmt - f, "%s", sep[0] == ' ' ? " " : sep);
            const char *w = rndn(4) ? "" : (const char *[]){"1", "3", "8", "20"}[rndn(4)];
            switch (rndn(3)) {
            case 0:
                k += snprintf(in + k, sizeof in - k, (const char *[]){"%lld", "%#llx", "%llx", "%#llo"}[rndn(4)],
                              (long long)rnd() >> rndn(64));
                f += snprintf(fmt + f, sizeof fmt - f, "%%%s%s", w, ints[rndn(12)]);
                break;
            case 1:
                k += snprintf(in + k, sizeof in - k, (const char *[]){"%.17g", "%a", "%e", "%.3f"}[rndn(4)],
                              rnd_double());
                f += snprintf(fmt + f, sizeof fmt - f, "%%%s%s", w, flts[rndn(10)]);
                break;
            default: {
                int len = 1 + rndn(8);
                for (int j = 0; j < len; j++) in[k++] = (char)('a' + rndn(26));
                in[k] = 0;
                f += snprintf(fmt + f, sizeof fmt - f, "%%%s%s", w, (const char *[]){"s", "[a-m]", "c"}[rndn(3)]);
            }
            }
        }
        check_sscanf(in, fmt);
    }
}

/* ---- qsort / bsearch ---- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}
static int cmp_int_r(const void *a, const void *b, void *arg)
{
    return *(int *)arg * cmp_int(a, b);
}
typedef struct {
    char key[5];
    short tag;
} rec7;
static int cmp_rec(const void *a, const void *b) { return memcmp(a, b, 5); }

static void test_qsort(void)
{
    section = "qsort";
    static int x[20000], y[20000];
    static rec7 r1[3000], r2[3000];
    static const int sizes[] = {0, 1, 2, 3, 7, 12, 13, 50, 100, 1000, 20000};
    for (int pattern = 0; pattern < 6; pattern++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            int n = sizes[s];
            for (int i = 0; i < n; i++) {
                switch (pattern) {
                case 0: x[i] = (int)rnd(); break;
                case 1: x[i] = i; break;
                case 2: x[i] = n - i; break;
                case 3: x[i] = rndn(3); break; /* many equal keys */
                case 4: x[i] = 7; break;
                default: x[i] = (i % 2) ? i : n - i; break; /* organ pipe-ish */
                }
                y[i] = x[i];
            }
            n_cases++;
            qsort(x, n, sizeof(int), cmp_int);
            gp_qsort(y, n, sizeof(int), cmp_int);
            if (memcmp(x, y, n * sizeof(int))) failf("ints: pattern %d, n %d", pattern, n);
            for (int i = 0; i < n; i += 1 + n / 50) {
                n_cases++;
                int *a = (int *)bsearch(&x[i], x, n, sizeof(int), cmp_int);
                int *b = (int *)gp_bsearch(&x[i], y, n, sizeof(int), cmp_int);
                if (!a || !b || *a != *b) failf("bsearch: pattern %d, n %d, key %d", pattern, n, x[i]);
            }
            int missing = INT_MIN;
            if (n && x[0] != INT_MIN && gp_bsearch(&missing, y, n, sizeof(int), cmp_int))
                failf("bsearch found a missing key");
        }
    /* odd-sized records: unique keys, so the order is fully determined */
    for (int i = 0; i < 3000; i++) {
        snprintf(r1[i].key, 5, "%04d", (i * 7919) % 3000 / 1);
        r1[i].key[4] = 'k';
        r1[i].tag = (short)i;
    }
    memcpy(r2, r1, sizeof r1);
    n_cases++;
    qsort(r1, 3000, sizeof(rec7), cmp_rec);
    gp_qsort(r2, 3000, sizeof(rec7), cmp_rec);
    if (memcmp(r1, r2, sizeof r1)) failf("7-byte records");
    /* qsort_r: the argument reaches the comparison (descending here) */
    for (int i = 0; i < 1000; i++) x[i] = y[i] = (int)(rnd() % 5000);
    int sign = -1;
    qsort_r(x, 1000, sizeof(int), cmp_int_r, &sign);
    gp_qsort_r(y, 1000, sizeof(int), cmp_int_r, &sign);
    n_cases++;
    if (memcmp(x, y, 1000 * sizeof(int)) || x[0] < x[999]) failf("qsort_r");
}

/* ---- random numbers ---- */

static void test_rand(void)
{
    section = "rand";
    static const unsigned seeds[] = {1, 0, 2, 42, 12345, 0x7fffffff, 0x80000000u, 0xffffffffu, 987654321};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        srand(seeds[s]);
        gp_srand(seeds[s]);
        for (int i = 0; i < 1000; i++) {
            n_cases++;
            int a = rand(), b = gp_rand();
            if (a != b) {
                failf("seed %u, call %d: glibc %d, got %d", seeds[s], i, a, b);
                break;
            }
        }
        srandom(seeds[s]);
        gp_srandom(seeds[s]);
        for (int i = 0; i < 100; i++)
            if (random() != gp_random()) {
                failf("random, seed %u", seeds[s]);
                break;
            }
        unsigned s1 = seeds[s], s2 = seeds[s];
        for (int i = 0; i < 100; i++) {
            n_cases++;
            if (rand_r(&s1) != gp_rand_r(&s2) || s1 != s2) {
                failf("rand_r, seed %u", seeds[s]);
                break;
            }
        }
    }
    stub_reset_rank(); /* rand before any srand: srand(1) */
    srand(1);
    for (int i = 0; i < 50; i++)
        if (rand() != gp_rand()) failf("rand without srand");

    section = "drand48";
    stub_reset_rank();
    /* glibc's drand48 state is process-wide and untouched so far only if no
     * one called it: seed both the same way first */
    srand48(0);
    gp_srand48(0);
    for (int i = 0; i < 200; i++) {
        n_cases++;
        if (dbits(drand48()) != dbits(gp_drand48()) || lrand48() != gp_lrand48() || mrand48() != gp_mrand48())
            failf("srand48(0) call %d", i);
    }
    static const long seeds48[] = {1, -1, 42, 0x7fffffff, 123456789012345l};
    for (size_t s = 0; s < sizeof seeds48 / sizeof *seeds48; s++) {
        srand48(seeds48[s]);
        gp_srand48(seeds48[s]);
        for (int i = 0; i < 100; i++) {
            n_cases++;
            if (dbits(drand48()) != dbits(gp_drand48()) || lrand48() != gp_lrand48() || mrand48() != gp_mrand48())
                failf("srand48(%ld) call %d", seeds48[s], i);
        }
    }
    unsigned short x1[3] = {1, 2, 3}, x2[3] = {1, 2, 3};
    for (int i = 0; i < 100; i++) {
        n_cases++;
        if (dbits(erand48(x1)) != dbits(gp_erand48(x2)) || nrand48(x1) != gp_nrand48(x2) ||
            jrand48(x1) != gp_jrand48(x2) || memcmp(x1, x2, sizeof x1))
            failf("erand48/nrand48/jrand48 call %d", i);
    }
    unsigned short sd[3] = {0x1234, 0x5678, 0x9abc};
    unsigned short *o1 = seed48(sd), *o2 = gp_seed48(sd);
    if (memcmp(o1, o2, 6)) failf("seed48's old state");
    for (int i = 0; i < 50; i++)
        if (lrand48() != gp_lrand48()) failf("after seed48, call %d", i);
    unsigned short p[7] = {1, 2, 3, 5, 0, 1, 77};
    lcong48(p);
    gp_lcong48(p);
    for (int i = 0; i < 50; i++)
        if (mrand48() != gp_mrand48() || dbits(erand48(x1)) != dbits(gp_erand48(x2)))
            failf("after lcong48, call %d", i);
}

/* ---- string.h, strings.h, ctype.h, strerror ---- */

static int sgn(long v) { return v < 0 ? -1 : v > 0; }

static void test_strings(long nrandom)
{
    section = "string";
    static const char *words[] = {"", "a", "ab", "abc", "ABC", "aBc", "hello, world", "  lead", "trail  ",
                                  "a,b,,c", ",,x,,", "x", "xyzzy", "Hello", "hello", "hellO\x80", "\xff"};
    static const char *sets[] = {"", ",", " ,", "abc", "xyz", "lo", "\x80\xff", "a-c", "ABCabc"};
    int nw = sizeof words / sizeof *words, ns = sizeof sets / sizeof *sets;
    for (int i = 0; i < nw; i++) {
        const char *s = words[i];
        for (int j = 0; j < nw; j++) {
            const char *t = words[j];
            n_cases++;
            if (sgn(strcmp(s, t)) != sgn(gp_strcmp(s, t)) || sgn(strcasecmp(s, t)) != sgn(gp_strcasecmp(s, t)) ||
                sgn(strncasecmp(s, t, 2)) != sgn(gp_strncasecmp(s, t, 2)) ||
                sgn(strncmp(s, t, 3)) != sgn(gp_strncmp(s, t, 3)) ||
                sgn(memcmp(s, t, 1)) != sgn(gp_memcmp(s, t, 1)) || strstr(s, t) != gp_strstr(s, t) ||
                strcasestr(s, t) != gp_strcasestr(s, t) || sgn(strcoll(s, t)) != sgn(gp_strcoll(s, t)))
                failf("compare/search \"%s\" \"%s\"", s, t);
        }
        for (int j = 0; j < ns; j++) {
            const char *t = sets[j];
            n_cases++;
            if (strspn(s, t) != gp_strspn(s, t) || strcspn(s, t) != gp_strcspn(s, t) ||
                strpbrk(s, t) != gp_strpbrk(s, t))
                failf("strspn/strcspn/strpbrk \"%s\" \"%s\"", s, t);
            /* strtok over the whole string, both ways */
            char b1[64], b2[64], *sv1, *sv2;
            strcpy(b1, s);
            strcpy(b2, s);
            char *p1 = strtok_r(b1, t, &sv1), *p2 = gp_strtok(b2, t);
            for (;;) {
                n_cases++;
                if ((p1 == 0) != (p2 == 0) || (p1 && p1 - b1 != p2 - b2)) {
                    failf("strtok \"%s\" \"%s\"", s, t);
                    break;
                }
                if (!p1) break;
                p1 = strtok_r(0, t, &sv1);
                p2 = gp_strtok(0, t);
            }
            strcpy(b1, s);
            strcpy(b2, s);
            char *q1 = b1, *q2 = b2;
            for (;;) {
                char *x1 = strsep(&q1, t), *x2 = gp_strsep(&q2, t);
                if ((x1 == 0) != (x2 == 0) || (x1 && x1 - b1 != x2 - b2) || (q1 == 0) != (q2 == 0)) {
                    failf("strsep \"%s\" \"%s\"", s, t);
                    break;
                }
                if (!x1) break;
            }
        }
        for (int c = -1; c < 256; c += 1) {
            if (strchr(s, c) != gp_strchr(s, c) || strrchr(s, c) != gp_strrchr(s, c) ||
                memchr(s, c, strlen(s)) != gp_memchr(s, c, strlen(s)) ||
                memrchr(s, c, strlen(s)) != gp_memrchr(s, c, strlen(s)) || index(s, c) != gp_index(s, c) ||
                rindex(s, c) != gp_rindex(s, c))
                failf("strchr family \"%s\" %d", s, c);
        }
        char *d = gp_strdup(s), *dn = gp_strndup(s, 2);
        if (strcmp(d, s) || strncmp(dn, s, 2) || strlen(dn) > 2) failf("strdup/strndup \"%s\"", s);
        free(d);
        free(dn);
        char a1[40], a2[40];
        memset(a1, 'Z', 40);
        memset(a2, 'Z', 40);
        if (stpcpy(a1, s) - a1 != gp_stpcpy(a2, s) - a2 || memcmp(a1, a2, 40)) failf("stpcpy \"%s\"", s);
        if (stpncpy(a1, s, 5) - a1 != gp_stpncpy(a2, s, 5) - a2 || memcmp(a1, a2, 40)) failf("stpncpy \"%s\"", s);
        if (strncpy(a1, s, 7) != a1 || gp_strncpy(a2, s, 7) != a2 || memcmp(a1, a2, 40)) failf("strncpy \"%s\"", s);
        strcpy(a1, "pre");
        strcpy(a2, "pre");
        strncat(a1, s, 4);
        gp_strncat(a2, s, 4);
        if (memcmp(a1, a2, 40)) failf("strncat \"%s\"", s);
        if (strxfrm(a1, s, 6) != gp_strxfrm(a2, s, 6) || memcmp(a1, a2, 40)) failf("strxfrm \"%s\"", s);
        size_t mn = strlen(s) + 1 < 10 ? strlen(s) + 1 : 10;
        if ((memccpy(a1, s, 'l', mn) == 0) != (gp_memccpy(a2, s, 'l', mn) == 0) || memcmp(a1, a2, 40))
            failf("memccpy \"%s\"", s);
    }
    /* memset / memmove / bzero over alignments */
    unsigned char m1[300], m2[300];
    for (int off = 0; off < 17; off++)
        for (int n = 0; n < 200; n += 1 + n / 8) {
            memset(m1, 1, sizeof m1);
            memset(m2, 1, sizeof m2);
            memset(m1 + off, 0xab, n);
            gp_memset(m2 + off, 0xab, n);
            for (int i = 0; i < 300; i++) m1[i] = m2[i] = (unsigned char)(m1[i] + i);
            memmove(m1 + off, m1 + 5, n);
            gp_memmove(m2 + off, m2 + 5, n);
            bzero(m1 + 3, off);
            gp_bzero(m2 + 3, off);
            n_cases++;
            if (memcmp(m1, m2, sizeof m1)) failf("memset/memmove/bzero offset %d n %d", off, n);
        }
    static const long long ffs_vals[] = {0ll, 1ll, 2ll, 12ll, -1ll, 1ll << 40, (long long)INT_MIN, LLONG_MIN};
    for (size_t i = 0; i < sizeof ffs_vals / sizeof *ffs_vals; i++) {
        long long v = ffs_vals[i];
        if (ffs((int)v) != gp_ffs((int)v) || ffsl((long)v) != gp_ffsl((long)v) || ffsll(v) != gp_ffsll(v))
            failf("ffs %lld", v);
    }
    /* GNU extras */
    for (int i = 0; i < nw; i++)
        for (int j = 0; j < nw; j++) {
            const char *h = words[i], *nd = words[j];
            n_cases++;
            if (memmem(h, strlen(h), nd, strlen(nd)) != gp_memmem(h, strlen(h), nd, strlen(nd)))
                failf("memmem \"%s\" \"%s\"", h, nd);
        }
    for (int i = 0; i < nw; i++)
        for (int c = 0; c < 256; c += 7)
            if (strchrnul(words[i], c) != gp_strchrnul(words[i], c)) failf("strchrnul \"%s\" %d", words[i], c);
    for (int sig = -1; sig < 70; sig++) {
        char want[64];
        snprintf(want, sizeof want, "%s", strsignal(sig));
        n_cases++;
        if (strcmp(want, gp_strsignal(sig))) failf("strsignal(%d): glibc \"%s\", got \"%s\"", sig, want, gp_strsignal(sig));
    }
    imaxdiv_t q1 = imaxdiv(-7, 2), q2 = gp_imaxdiv(-7, 2);
    div_t d1 = div(-7, 2), d2 = gp_div(-7, 2);
    ldiv_t l1 = ldiv(7, -2), l2 = gp_ldiv(7, -2);
    if (q1.quot != q2.quot || q1.rem != q2.rem || d1.quot != d2.quot || d1.rem != d2.rem || l1.quot != l2.quot ||
        l1.rem != l2.rem || gp_abs(-5) != 5 || gp_llabs(-5ll) != 5 || gp_labs(3) != 3)
        failf("div/abs");
    (void)nrandom;

    section = "ctype";
    for (int c = -1; c < 256; c++) {
        n_cases++;
        int bad = !isalnum(c) != !gp_isalnum(c) || !isalpha(c) != !gp_isalpha(c) ||
                  !isblank(c) != !gp_isblank(c) || !iscntrl(c) != !gp_iscntrl(c) ||
                  !isdigit(c) != !gp_isdigit(c) || !isgraph(c) != !gp_isgraph(c) ||
                  !islower(c) != !gp_islower(c) || !isprint(c) != !gp_isprint(c) ||
                  !ispunct(c) != !gp_ispunct(c) || !isspace(c) != !gp_isspace(c) ||
                  !isupper(c) != !gp_isupper(c) || !isxdigit(c) != !gp_isxdigit(c) ||
                  tolower(c) != gp_tolower(c) || toupper(c) != gp_toupper(c) ||
                  !isascii(c) != !gp_isascii(c) || toascii(c) != gp_toascii(c);
        if (bad) failf("class of %d", c);
    }

    section = "strerror";
    for (int e = -3; e < 140; e++) {
        n_cases++;
        char want[100];
        snprintf(want, sizeof want, "%s", strerror(e));
        if (strcmp(want, gp_strerror(e))) failf("strerror(%d): glibc \"%s\", got \"%s\"", e, want, gp_strerror(e));
        char b[100];
        if (strcmp(strerror_r(e, b, sizeof b), gp_strerror_r(e, b, sizeof b)) != 0) failf("strerror_r(%d)", e);
    }
}

/* ---- getopt ---- */

typedef struct {
    const char *opts;
    int is_long; /* 0 getopt, 1 getopt_long, 2 getopt_long_only */
    const char *args; /* space-separated argv after the program name */
} optcase;

static int flag_a, flag_b;
static const struct option longopts[] = {{"verbose", no_argument, 0, 'v'},
                                          {"file", required_argument, 0, 'f'},
                                          {"level", optional_argument, 0, 'l'},
                                          {"flag", no_argument, &flag_a, 7},
                                          {"flash", no_argument, &flag_b, 9},
                                          {"fil", no_argument, 0, 'F'},
                                          {"color", required_argument, 0, 1000},
                                          {"colour", required_argument, 0, 1000},
                                          {0, 0, 0, 0}};

static const optcase optcases[] = {
    {"ab:c", 0, "-a -b x -c"},          {"ab:c", 0, "-abx -c rest"},      {"ab:c", 0, "x -a y -b z w"},
    {"ab:c", 0, "-a -- -b x"},          {"ab:c", 0, "-z -a"},             {"ab:c", 0, "-a -b"},
    {":ab:c", 0, "-a -b"},              {":ab:c", 0, "-q"},               {"+ab:c", 0, "-a x -b y"},
    {"-ab:c", 0, "p -a q -b r s"},      {"a::b", 0, "-a -aval -b"},      {"ab", 0, "-"},
    {"ab", 0, "- -a"},                  {"ab", 0, "-ab -ba --"},          {"ab", 0, ""},
    {"abc:", 0, "f1 f2 -a f3 -bc f4 f5 -- -a f6"},                         {"a:", 0, "-a -- x"},
    {"vf:l::", 1, "--verbose --file=x --file y --level --level=3 rest"},   {"v", 1, "--verb --fla"},
    {"v", 1, "--flag --flash"},         {"v", 1, "--fi"},                 {"v", 1, "--fil --file=z"},
    {"v", 1, "--col=red --colo blue"},  {"v", 1, "--nope -v"},            {"v", 1, "--verbose=3"},
    {":v", 1, "--file"},                {"v", 1, "--file"},               {"vf:", 1, "a --verbose b -f c d"},
    {"v", 2, "-verbose -file x -v -fil"}, {"vx", 2, "-vx -x -flag"},      {"v", 1, "-- --verbose"},
    {"ab:", 0, "-a 1 -b 2 3 -a -- 4"},
};

static int split(const char *args, char *store, char **argv)
{
    int n = 0;
    argv[n++] = (char *)"prog";
    strcpy(store, args);
    for (char *t = strtok(store, " "); t; t = strtok(0, " ")) argv[n++] = t;
    argv[n] = 0;
    return n;
}

static void test_getopt(void)
{
    section = "getopt";
    for (size_t i = 0; i < sizeof optcases / sizeof *optcases; i++) {
        const optcase *c = &optcases[i];
        char s1[256], s2[256], *v1[32], *v2[32];
        int n = split(c->args, s1, v1);
        split(c->args, s2, v2);
        optind = 0; /* glibc: start over */
        opterr = 0;
        stub_reset_rank();
        *gp_opterr_location() = 0;
        flag_a = flag_b = 0;
        char trace1[2000] = "", trace2[2000] = "";
        for (int pass = 0; pass < 2; pass++) {
            char *t = pass ? trace2 : trace1;
            char **v = pass ? v2 : v1;
            if (pass) flag_a = flag_b = 0;
            for (int k = 0; k < 40; k++) {
                int idx = -1, r;
                if (pass == 0)
                    r = c->is_long == 0 ? getopt(n, v, c->opts)
                        : c->is_long == 1 ? getopt_long(n, v, c->opts, longopts, &idx)
                                          : getopt_long_only(n, v, c->opts, longopts, &idx);
                else
                    r = c->is_long == 0 ? gp_getopt(n, v, c->opts)
                        : c->is_long == 1 ? gp_getopt_long(n, v, c->opts, longopts, &idx)
                                          : gp_getopt_long_only(n, v, c->opts, longopts, &idx);
                const char *arg = pass ? *gp_optarg_location() : optarg;
                int ind = pass ? *gp_optind_location() : optind, oo = pass ? *gp_optopt_location() : optopt;
                size_t len = strlen(t);
                snprintf(t + len, 2000 - len, "[%d %s %d %d %d %d%d]", r, arg ? arg : "-", ind,
                         r == '?' || r == ':' ? oo : 0, idx, flag_a, flag_b);
                if (r == -1) break;
            }
            size_t len = strlen(t);
            for (int k = 0; k < n; k++) len += snprintf(t + len, 2000 - len, " %s", v[k]);
        }
        n_cases++;
        if (strcmp(trace1, trace2)) failf("\"%s\" %s\n    glibc %s\n    got   %s", c->opts, c->args, trace1, trace2);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) rng = strtoull(argv[1], 0, 0) | 1;
    long nrandom = argc > 2 ? strtol(argv[2], 0, 0) : 20000;
    test_strtod(nrandom);
    test_strtol(nrandom);
    test_sscanf(nrandom);
    test_qsort();
    test_rand();
    test_strings(nrandom);
    test_getopt();
    if (n_fail) {
        printf("libc_test: %ld of %ld cases differ from glibc\n", n_fail, n_cases);
        return 1;
    }
    printf("libc_test: OK: %ld cases match glibc\n", n_cases);
    return 0;
}
