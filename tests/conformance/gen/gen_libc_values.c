/* Writes tests/conformance/libc_values.c: tables of C library results taken
 * from the host's glibc (strtod/strtof bits, snprintf output, sscanf
 * results), which the conformance program checks on every rank. Under
 * MPICH the program checks glibc against itself (proving the tables), under
 * gpumpi it checks libc-shim, on the threads backend and on the GPU.
 *   cc -O1 gen_libc_values.c -lm -o gen && ./gen > ../libc_values.c */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The checking program, after the tables. */
static const char checks[] =
    "#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))\n"
    "/* every rank checks the first SHARED cases of each table, and its share\n"
    " * of the rest: together the ranks check every case, at any size */\n"
    "#define SHARED 24\n"
    "#define MINE(i) ((i) < SHARED || (i) % size == rank)\n"
    "\n"
    "/* what sscanf stored, as the generator rendered it */\n"
    "static void render(const char *types, int ret, void *slots, char *out, size_t cap)\n"
    "{\n"
    "    union u { int i; long long l; double d; float f; char s[64]; } *v = (union u *)slots;\n"
    "    size_t n = 0;\n"
    "    out[0] = 0;\n"
    "    for (int k = 0; k < ret && types[k]; k++) {\n"
    "        switch (types[k]) {\n"
    "        case 'i': n += snprintf(out + n, cap - n, \"%d|\", v[k].i); break;\n"
    "        case 'l': n += snprintf(out + n, cap - n, \"%lld|\", v[k].l); break;\n"
    "        case 'd': n += snprintf(out + n, cap - n, \"%a|\", v[k].d); break;\n"
    "        case 'f': n += snprintf(out + n, cap - n, \"%a|\", (double)v[k].f); break;\n"
    "        case 'c': n += snprintf(out + n, cap - n, \"%.3s|\", v[k].s); break;\n"
    "        default: n += snprintf(out + n, cap - n, \"%s|\", v[k].s); break;\n"
    "        }\n"
    "    }\n"
    "}\n"
    "\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    mt_init(&argc, &argv);\n"
    "    int i, k, n;\n"
    "    char out[512];\n"
    "    n = COUNT(strtod_cases);\n"
    "    for (k = 0; k < n; k++) {\n"
    "        i = (k + rank) % n;\n"
    "        if (!MINE(i)) continue;\n"
    "        char *end;\n"
    "        errno = 0;\n"
    "        double d = strtod(strtod_cases[i].s, &end);\n"
    "        int er = errno == ERANGE;\n"
    "        uint64_t u;\n"
    "        memcpy(&u, &d, 8);\n"
    "        CHECK(u == strtod_cases[i].d && end - strtod_cases[i].s == strtod_cases[i].end && er == strtod_cases[i].erange,\n"
    "              \"strtod(\\\"%s\\\"): %016llx end %ld erange %d, expected %016llx end %ld erange %d\", strtod_cases[i].s,\n"
    "              (unsigned long long)u, (long)(end - strtod_cases[i].s), er, (unsigned long long)strtod_cases[i].d,\n"
    "              strtod_cases[i].end, strtod_cases[i].erange);\n"
    "        errno = 0;\n"
    "        float f = strtof(strtod_cases[i].s, &end);\n"
    "        er = errno == ERANGE;\n"
    "        uint32_t w;\n"
    "        memcpy(&w, &f, 4);\n"
    "        CHECK(w == strtod_cases[i].f && er == strtod_cases[i].erange_f, \"strtof(\\\"%s\\\"): %08x erange %d, expected %08x erange %d\",\n"
    "              strtod_cases[i].s, (unsigned)w, er, (unsigned)strtod_cases[i].f, strtod_cases[i].erange_f);\n"
    "    }\n"
    "    n = COUNT(fmt_double);\n"
    "    for (k = 0; k < n; k++) {\n"
    "        i = (k + rank) % n;\n"
    "        if (!MINE(i)) continue;\n"
    "        int r = snprintf(out, sizeof out, fmt_double[i].fmt, fmt_double[i].v);\n"
    "        CHECK(r == fmt_double[i].ret && strcmp(out, fmt_double[i].out) == 0, \"snprintf(\\\"%s\\\", %a): \\\"%s\\\" (%d), expected \\\"%s\\\"\",\n"
    "              fmt_double[i].fmt, fmt_double[i].v, out, r, fmt_double[i].out);\n"
    "    }\n"
    "    n = COUNT(fmt_int);\n"
    "    for (k = 0; k < n; k++) {\n"
    "        i = (k + rank) % n;\n"
    "        if (!MINE(i)) continue;\n"
    "        int r = strstr(fmt_int[i].fmt, \"ll\") ? snprintf(out, sizeof out, fmt_int[i].fmt, fmt_int[i].v)\n"
    "                                              : snprintf(out, sizeof out, fmt_int[i].fmt, (int)fmt_int[i].v);\n"
    "        CHECK(r == fmt_int[i].ret && strcmp(out, fmt_int[i].out) == 0, \"snprintf(\\\"%s\\\", %lld): \\\"%s\\\" (%d), expected \\\"%s\\\"\",\n"
    "              fmt_int[i].fmt, fmt_int[i].v, out, r, fmt_int[i].out);\n"
    "    }\n"
    "    n = COUNT(scan_cases);\n"
    "    for (k = 0; k < n; k++) {\n"
    "        i = (k + rank) % n;\n"
    "        if (!MINE(i)) continue;\n"
    "        union { int i; long long l; double d; float f; char s[64]; } v[4];\n"
    "        memset(v, 0, sizeof v);\n"
    "        int r = sscanf(scan_cases[i].in, scan_cases[i].fmt, &v[0], &v[1], &v[2], &v[3]);\n"
    "        render(scan_cases[i].types, r, v, out, sizeof out);\n"
    "        CHECK(r == scan_cases[i].ret && strcmp(out, scan_cases[i].vals) == 0,\n"
    "              \"sscanf(\\\"%s\\\", \\\"%s\\\"): %d \\\"%s\\\", expected %d \\\"%s\\\"\", scan_cases[i].in, scan_cases[i].fmt, r, out,\n"
    "              scan_cases[i].ret, scan_cases[i].vals);\n"
    "    }\n"
    "    return mt_finish();\n"
    "}\n";

static void cstr(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if (*s == '\n') printf("\\n");
        else if (*s == '\t') printf("\\t");
        else putchar(*s);
    }
    putchar('"');
}

static void strtod_case(const char *s)
{
    char *e;
    errno = 0;
    double d = strtod(s, &e);
    int er = errno == ERANGE;
    long off = e - s;
    errno = 0;
    float f = strtof(s, &e);
    int erf = errno == ERANGE;
    uint64_t u;
    uint32_t v;
    memcpy(&u, &d, 8);
    memcpy(&v, &f, 4);
    printf("    {");
    cstr(s);
    printf(", 0x%016llxull, %ld, %d, 0x%08xu, %d},\n", (unsigned long long)u, off, er, v, erf);
}

static const char *edges[] = {"0", "-0", "1e", "0x", "0x1p-1074", "0x1p-1075", "0x1.fffffffffffffp1023",
                              "0x1.00000000000008p0", "0x1.00000000000018p0", "inf", "-Infinity", "nan", "1e309",
                              "1e-400", "2.2250738585072011e-308", "2.4703282292062327e-324",
                              "2.4703282292062328e-324", "4.9406564584124654e-324", "1.7976931348623158e308",
                              "9007199254740993", "0.1", "3.14159265358979323846", "123.456e-2", "  -12.5e+3xyz",
                              "1.00000000000000011102230246251565404236316680908203125",
                              "1.00000000000000011102230246251565404236316680908203124", "3.4028235677973366e38",
                              "7.006492321624085e-46", "1e23", "8.5e-323", ".5", "-.", "e5"};

int main(void)
{
    printf("/* GENERATED by tests/conformance/gen/gen_libc_values.c from glibc: do not edit.\n"
           " * The C library's results on every rank against glibc's: strtod/strtof\n"
           " * (bits, end, ERANGE), snprintf (bytes and return value), sscanf\n"
           " * (count and values). Each rank starts at its own place in each table, so\n"
           " * ranks run different cases at the same time. */\n");
    printf("#include <errno.h>\n#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"mpitest.h\"\n\n");

    printf("static const struct {\n    const char *s;\n    uint64_t d;\n    long end;\n    int erange;\n"
           "    uint32_t f;\n    int erange_f;\n} strtod_cases[] = {\n");
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) strtod_case(edges[i]);
    char buf[1200];
    for (int i = 0; i < 480; i++) {
        uint64_t u = rnd();
        double d;
        memcpy(&d, &u, 8);
        if (isnan(d) || isinf(d)) continue;
        if (i % 3 == 0) { /* nearer 1 than random bits usually are */
            int e = (int)(rnd() % 80) - 40;
            d = ldexp((double)(rnd() >> 11), e - 53);
        }
        switch (i % 4) {
        case 0: snprintf(buf, sizeof buf, "%.17g", d); break;
        case 1: snprintf(buf, sizeof buf, "%.*e", (int)(rnd() % 25), d); break;
        case 2: snprintf(buf, sizeof buf, "%a", d); break;
        default: { /* a halfway point, exactly (x87 long double holds it) */
            double up = nextafter(d, INFINITY);
            snprintf(buf, sizeof buf, "%.60Le", ((long double)d + (long double)up) / 2);
        }
        }
        strtod_case(buf);
    }
    printf("};\n\n");

    /* snprintf: one double or one long long per case */
    static const char *dfmts[] = {"%f", "%.0f", "%#.0f", "%e", "%.3e", "%E", "%g", "%G", "%#g", "%.10g", "%a",
                                  "%A", "%.3a", "%+.2f", "% 10.4f", "%-12.3e|", "%012.5g", "%.20f", "%.17g", "%5.1f"};
    static const double dvals[] = {0.0, -0.0, 1.0, 0.1, 2.5, -3.75, 1e-5, 123456789.0, 1e300, 5e-324,
                                   2.2250738585072014e-308, 1.7976931348623157e308, 0.000123456, 9.9999999,
                                   1.0 / 3, -2.0 / 3, 1e21, 6.02214076e23};
    printf("static const struct {\n    const char *fmt;\n    double v;\n    const char *out;\n    int ret;\n} "
           "fmt_double[] = {\n");
    for (size_t i = 0; i < sizeof dfmts / sizeof *dfmts; i++)
        for (size_t j = 0; j < sizeof dvals / sizeof *dvals; j++) {
            char out[512];
            int r = snprintf(out, sizeof out, dfmts[i], dvals[j]);
            printf("    {");
            cstr(dfmts[i]);
            printf(", %a, ", dvals[j]);
            cstr(out);
            printf(", %d},\n", r);
        }
    printf("};\n\n");

    static const char *ifmts[] = {"%lld", "%+lld", "% lld", "%llx", "%#llx", "%llX", "%llo", "%#llo", "%20lld",
                                  "%-20lld|", "%020lld", "%.30lld", "%llu", "%hhd", "%hd", "%d", "%u", "%x",
                                  "%#.0llx", "%.0lld"};
    static const long long ivals[] = {0, 1, -1, 42, -42, 127, 128, 255, 256, 65535, 2147483647, -2147483647 - 1,
                                      4294967295ll, 9223372036854775807ll, -9223372036854775807ll - 1,
                                      1234567890123ll};
    printf("static const struct {\n    const char *fmt;\n    long long v;\n    const char *out;\n    int ret;\n} "
           "fmt_int[] = {\n");
    for (size_t i = 0; i < sizeof ifmts / sizeof *ifmts; i++)
        for (size_t j = 0; j < sizeof ivals / sizeof *ivals; j++) {
            char out[512];
            int r;
            /* formats without ll take an int */
            if (strstr(ifmts[i], "ll"))
                r = snprintf(out, sizeof out, ifmts[i], ivals[j]);
            else
                r = snprintf(out, sizeof out, ifmts[i], (int)ivals[j]);
            printf("    {");
            cstr(ifmts[i]);
            if (ivals[j] == -9223372036854775807ll - 1)
                printf(", -9223372036854775807ll - 1, ");
            else
                printf(", %lldll, ", ivals[j]);
            cstr(out);
            printf(", %d},\n", r);
        }
    printf("};\n\n");

    /* sscanf: results rendered as text by one fixed snprintf per case */
    static const struct {
        const char *in, *fmt, *types; /* types: i int, l long long, d double, f float, s string, c 3 chars */
    } sc[] = {{"42 -17 0x1f", "%d %i %x", "iii"}, {"  3.25e2 word rest", "%lf %7s", "ds"},
              {"12abc", "%d%s", "is"}, {"abc", "%d", "i"}, {"", "%d", "i"}, {"x=5,y=-6", "x=%d,y=%d", "ii"},
              {"1e 7", "%f %d", "fi"}, {"nan inf -infinity", "%lf %lf %lf", "ddd"}, {"0x1.8p3", "%la", "d"},
              {"abcdef", "%3c%s", "cs"}, {"hello, world", "%[^,], %s", "ss"}, {"123456", "%2d%3d%d", "iii"},
              {"9223372036854775807 -5", "%lld %lld", "ll"}, {"017 017 017", "%i %o %d", "iii"},
              {"  %  7", "%% %d", "i"}, {"aaab", "%[a]%[b]", "ss"}, {"1.5,2.5", "%lf,%lf", "dd"},
              {"-0x", "%x", "i"}, {"3 4", "%*d %d", "i"}, {"0.1 0.2 0.3", "%g %lg %e", "fdf"}};
    printf("static const struct {\n    const char *in, *fmt, *types;\n    int ret;\n    const char *vals;\n} "
           "scan_cases[] = {\n");
    size_t nfixed = sizeof sc / sizeof *sc;
    static char rin[200][300], rfmt[200][80], rtypes[200][8];
    for (size_t i = 0; i < nfixed + 200; i++) {
        const char *in_i, *fmt_i, *types_i;
        if (i < nfixed) {
            in_i = sc[i].in, fmt_i = sc[i].fmt, types_i = sc[i].types;
        } else { /* printf's output read back by random conversions */
            size_t r = i - nfixed;
            int k = 0, f = 0, nconv = 1 + (int)(rnd() % 4);
            for (int c = 0; c < nconv; c++) {
                if (c) {
                    rin[r][k++] = ' ';
                    rfmt[r][f++] = ' ';
                }
                const char *w = rnd() % 4 ? "" : (const char *[]){"1", "3", "8"}[rnd() % 3];
                switch (rnd() % 5) {
                case 0:
                    k += snprintf(rin[r] + k, 300 - k, (const char *[]){"%d", "%#x", "%o", "%x"}[rnd() % 4], (int)rnd());
                    f += snprintf(rfmt[r] + f, 80 - f, "%%%s%s", w, (const char *[]){"d", "i", "x", "o", "u"}[rnd() % 5]);
                    rtypes[r][c] = 'i';
                    break;
                case 1:
                    k += snprintf(rin[r] + k, 300 - k, "%lld", (long long)rnd() >> (rnd() % 64));
                    f += snprintf(rfmt[r] + f, 80 - f, "%%%slld", w);
                    rtypes[r][c] = 'l';
                    break;
                case 2: {
                    double d = ldexp((double)(rnd() >> 11), (int)(rnd() % 200) - 150);
                    k += snprintf(rin[r] + k, 300 - k, (const char *[]){"%.17g", "%a", "%e", "%.3f"}[rnd() % 4], d);
                    f += snprintf(rfmt[r] + f, 80 - f, "%%%s%s", w, (const char *[]){"lf", "le", "lg", "la"}[rnd() % 4]);
                    rtypes[r][c] = 'd';
                    break;
                }
                case 3: {
                    double d = ldexp((double)(rnd() >> 11), (int)(rnd() % 100) - 80);
                    k += snprintf(rin[r] + k, 300 - k, (const char *[]){"%.9g", "%a", "%e"}[rnd() % 3], d);
                    f += snprintf(rfmt[r] + f, 80 - f, "%%%s%s", w, (const char *[]){"f", "e", "g"}[rnd() % 3]);
                    rtypes[r][c] = 'f';
                    break;
                }
                default: {
                    int len = 1 + (int)(rnd() % 8);
                    for (int j = 0; j < len; j++) rin[r][k++] = (char)('a' + rnd() % 26);
                    rin[r][k] = 0;
                    f += snprintf(rfmt[r] + f, 80 - f, "%%%s%s", w, (const char *[]){"s", "[a-m]"}[rnd() % 2]);
                    rtypes[r][c] = 's';
                }
                }
            }
            in_i = rin[r], fmt_i = rfmt[r], types_i = rtypes[r];
        }
        union {
            int i;
            long long l;
            double d;
            float f;
            char s[64];
        } v[4];
        memset(v, 0, sizeof v);
        int r = sscanf(in_i, fmt_i, &v[0], &v[1], &v[2], &v[3]);
        char vals[512] = "";
        size_t n = 0;
        for (int k = 0; k < r && types_i[k]; k++) {
            switch (types_i[k]) {
            case 'i': n += snprintf(vals + n, sizeof vals - n, "%d|", v[k].i); break;
            case 'l': n += snprintf(vals + n, sizeof vals - n, "%lld|", v[k].l); break;
            case 'd': n += snprintf(vals + n, sizeof vals - n, "%a|", v[k].d); break;
            case 'f': n += snprintf(vals + n, sizeof vals - n, "%a|", (double)v[k].f); break;
            case 'c': n += snprintf(vals + n, sizeof vals - n, "%.3s|", v[k].s); break;
            default: n += snprintf(vals + n, sizeof vals - n, "%s|", v[k].s); break;
            }
        }
        printf("    {");
        cstr(in_i);
        printf(", ");
        cstr(fmt_i);
        printf(", \"%s\", %d, ", types_i, r);
        cstr(vals);
        printf("},\n");
    }
    printf("};\n\n");
    fputs(checks, stdout);
    return 0;
}
