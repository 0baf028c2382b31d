/* GNU getopt, getopt_long and getopt_long_only with their state per rank:
 * options may follow operands (argv is permuted, operands moving to the
 * end, unless optstring starts with '+'; '-' returns operands as option 1),
 * "--" ends the options, a leading ':' silences messages and reports a
 * missing argument as ':'; long options may be abbreviated to a unique
 * prefix. Messages are glibc's, on stderr. */
#include "gpumpi/shim_unistd.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdio.h"
#include "libc_state.h"

GPUMPI_FN char **gp_optarg_location(void) { return &gp_libc()->optarg; }
GPUMPI_FN int *gp_optind_location(void) { return &gp_libc()->optind; }
GPUMPI_FN int *gp_opterr_location(void) { return &gp_libc()->opterr; }
GPUMPI_FN int *gp_optopt_location(void) { return &gp_libc()->optopt; }

enum { GP_PERMUTE, GP_REQUIRE_ORDER, GP_RETURN_IN_ORDER };

GPUMPI_FN static int gp_nonoption(const char *s) { return s[0] != '-' || s[1] == 0; }

GPUMPI_FN static void gp_reverse(char **v, int a, int b) /* [a, b) */
{
    for (b--; a < b; a++, b--) {
        char *t = v[a];
        v[a] = v[b];
        v[b] = t;
    }
}

/* The operands skipped so far, argv[first..last), move after the options
 * met since, argv[last..optind): a rotation keeping both orders. */
GPUMPI_FN static void gp_exchange(gp_libc_state *L, char **argv)
{
    int first = L->opt_first, last = L->opt_last, end = L->optind;
    gp_reverse(argv, first, last);
    gp_reverse(argv, last, end);
    gp_reverse(argv, first, end);
    L->opt_first = first + (end - last);
    L->opt_last = end;
}

GPUMPI_FN static int gp_long(gp_libc_state *L, int argc, char **argv, const char *optstring,
                             const struct option *longopts, int *longind, int long_only, int print,
                             const char *prefix)
{
    char *name = L->opt_next;
    size_t len = 0;
    while (name[len] && name[len] != '=') len++;
    const struct option *found = 0;
    int index = -1, ambiguous = 0, n;
    for (n = 0; longopts[n].name; n++)
        if (gp_strncmp(longopts[n].name, name, len) == 0 && gp_strlen(longopts[n].name) == len) {
            found = &longopts[n];
            index = n;
            break;
        }
    if (!found)
        for (n = 0; longopts[n].name; n++) {
            const struct option *p = &longopts[n];
            if (gp_strncmp(p->name, name, len) != 0) continue;
            if (!found) {
                found = p;
                index = n;
            } else if (long_only || p->has_arg != found->has_arg || p->flag != found->flag || p->val != found->val) {
                ambiguous = 1;
            }
        }
    if (ambiguous) {
        if (print) {
            gp_fprintf(&gp_std_files[2], "%s: option '%s%s' is ambiguous; possibilities:", argv[0], prefix, name);
            for (n = 0; longopts[n].name; n++)
                if (gp_strncmp(longopts[n].name, name, len) == 0)
                    gp_fprintf(&gp_std_files[2], " '%s%s'", prefix, longopts[n].name);
            gp_fprintf(&gp_std_files[2], "\n");
        }
        L->opt_next = 0;
        L->optind++;
        L->optopt = 0;
        return '?';
    }
    if (!found) {
        /* -x under getopt_long_only may still be the short option x */
        if (long_only && argv[L->optind][1] != '-' && gp_strchr(optstring, *name)) return -1;
        if (print) gp_fprintf(&gp_std_files[2], "%s: unrecognized option '%s%s'\n", argv[0], prefix, name);
        L->opt_next = 0;
        L->optind++;
        L->optopt = 0;
        return '?';
    }
    L->optind++;
    L->opt_next = 0;
    if (name[len] == '=') {
        if (!found->has_arg) {
            if (print)
                gp_fprintf(&gp_std_files[2], "%s: option '%s%s' doesn't allow an argument\n", argv[0], prefix,
                           found->name);
            L->optopt = found->val;
            return '?';
        }
        L->optarg = name + len + 1;
    } else if (found->has_arg == 1) {
        if (L->optind < argc) {
            L->optarg = argv[L->optind++];
        } else {
            if (print)
                gp_fprintf(&gp_std_files[2], "%s: option '%s%s' requires an argument\n", argv[0], prefix,
                           found->name);
            L->optopt = found->val;
            return optstring[0] == ':' ? ':' : '?';
        }
    }
    if (longind) *longind = index;
    if (found->flag) {
        *found->flag = found->val;
        return 0;
    }
    return found->val;
}

GPUMPI_FN static int gp_getopt_any(int argc, char *const argv_in[], const char *optstring,
                                   const struct option *longopts, int *longind, int long_only)
{
    gp_libc_state *L = gp_libc();
    char **argv = (char **)argv_in;
    if (argc < 1) return -1;
    L->optarg = 0;
    if (L->optind == 0 || !L->opt_started) {
        if (L->optind == 0) L->optind = 1;
        L->opt_first = L->opt_last = L->optind;
        L->opt_next = 0;
        L->opt_started = 1;
    }
    int ordering = GP_PERMUTE;
    if (optstring[0] == '-') {
        ordering = GP_RETURN_IN_ORDER;
        optstring++;
    } else if (optstring[0] == '+') {
        ordering = GP_REQUIRE_ORDER;
        optstring++;
    }
    int print = L->opterr && optstring[0] != ':';

    if (!L->opt_next || !*L->opt_next) {
        /* the next argv element */
        if (L->opt_last > L->optind) L->opt_last = L->optind;
        if (L->opt_first > L->optind) L->opt_first = L->optind;
        if (ordering == GP_PERMUTE) {
            if (L->opt_first != L->opt_last && L->opt_last != L->optind)
                gp_exchange(L, argv);
            else if (L->opt_last != L->optind)
                L->opt_first = L->optind;
            while (L->optind < argc && gp_nonoption(argv[L->optind])) L->optind++;
            L->opt_last = L->optind;
        }
        if (L->optind != argc && gp_strcmp(argv[L->optind], "--") == 0) {
            L->optind++;
            if (L->opt_first != L->opt_last && L->opt_last != L->optind)
                gp_exchange(L, argv);
            else if (L->opt_first == L->opt_last)
                L->opt_first = L->optind;
            L->opt_last = argc;
            L->optind = argc;
        }
        if (L->optind == argc) {
            if (L->opt_first != L->opt_last) L->optind = L->opt_first;
            return -1;
        }
        if (gp_nonoption(argv[L->optind])) {
            if (ordering == GP_REQUIRE_ORDER) return -1;
            L->optarg = argv[L->optind++];
            return 1;
        }
        if (longopts) {
            char *arg = argv[L->optind];
            if (arg[1] == '-') {
                L->opt_next = arg + 2;
                return gp_long(L, argc, argv, optstring, longopts, longind, long_only, print, "--");
            }
            if (long_only && (arg[2] || !gp_strchr(optstring, arg[1]))) {
                L->opt_next = arg + 1;
                int code = gp_long(L, argc, argv, optstring, longopts, longind, long_only, print, "-");
                if (code != -1) return code;
            }
        }
        L->opt_next = argv[L->optind] + 1;
    }

    char c = *L->opt_next++;
    const char *spec = gp_strchr(optstring, c);
    if (*L->opt_next == 0) L->optind++;
    if (!spec || c == ':' || c == ';') {
        if (print) gp_fprintf(&gp_std_files[2], "%s: invalid option -- '%c'\n", argv[0], c);
        L->optopt = (unsigned char)c;
        return '?';
    }
    if (spec[1] == ':') {
        if (spec[2] == ':') { /* an optional argument: only in the same word */
            if (*L->opt_next) {
                L->optarg = L->opt_next;
                L->optind++;
            }
        } else if (*L->opt_next) {
            L->optarg = L->opt_next;
            L->optind++;
        } else if (L->optind == argc) {
            if (print) gp_fprintf(&gp_std_files[2], "%s: option requires an argument -- '%c'\n", argv[0], c);
            L->optopt = (unsigned char)c;
            c = optstring[0] == ':' ? ':' : '?';
        } else {
            L->optarg = argv[L->optind++];
        }
        L->opt_next = 0;
    }
    return (unsigned char)c;
}

GPUMPI_FN int gp_getopt(int argc, char *const argv[], const char *optstring)
{
    return gp_getopt_any(argc, argv, optstring, 0, 0, 0);
}

GPUMPI_FN int gp_getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                             int *longind)
{
    return gp_getopt_any(argc, argv, optstring, longopts, longind, 0);
}

GPUMPI_FN int gp_getopt_long_only(int argc, char *const argv[], const char *optstring,
                                  const struct option *longopts, int *longind)
{
    return gp_getopt_any(argc, argv, optstring, longopts, longind, 1);
}
