/* Command-line options of a gpumpi program: "./prog args ---gpumpi opts". */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GP_DEFAULT_STACK (16u << 10)

static void usage(FILE *to, const char *prog)
{
    fprintf(to,
            "usage: %s [program arguments] ---gpumpi [options]\n"
            "Runs this MPI program with every rank as one GPU thread.\n"
            "  -n N          run N ranks (the launcher picks the block shape)\n"
            "  -g G -b B     run G blocks of B threads: G x B ranks (with -n N: N of them)\n"
            "  --stack BYTES stack per rank (default %u; suffixes k, m)\n"
            "  --heap BYTES  heap for malloc, shared by all ranks (default: most of the free GPU memory,\n"
            "                4g on the threads backend; suffixes k, m, g)\n"
            "  -v            report the launch shape and limits on stderr\n"
            "  --help        this text\n"
            "Without ---gpumpi options the program runs 1 rank.\n",
            prog, GP_DEFAULT_STACK);
}

static void bad(const char *prog, const char *what, const char *arg)
{
    fprintf(stderr, "%s: ---gpumpi: %s%s%s\n", prog, what, arg ? ": " : "", arg ? arg : "");
    usage(stderr, prog);
    exit(2);
}

static long long parse_count(const char *prog, const char *opt, const char *s, int suffixes)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (suffixes && *end) {
        int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20 : *end == 'g' || *end == 'G' ? 30 : -1;
        if (shift >= 0 && end[1] == 0) {
            v <<= shift;
            end++;
        }
    }
    if (errno || end == s || *end || v <= 0) {
        char what[64];
        snprintf(what, sizeof what, "%s needs a positive number", opt);
        bad(prog, what, s);
    }
    return v;
}

void gp_parse_options(int argc, char **argv, gp_options *o)
{
    memset(o, 0, sizeof *o);
    o->stack = GP_DEFAULT_STACK;
    o->heap = 0; /* the backend picks */
    const char *prog = argv[0];
    int split = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "---gpumpi") == 0) {
            split = i;
            break;
        }
    o->app_argc = split;
    o->app_argv = argv;
    for (int i = split + 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int needs_value = !strcmp(a, "-n") || !strcmp(a, "-g") || !strcmp(a, "-b") || !strcmp(a, "--stack") ||
                          !strcmp(a, "--heap");
        if (needs_value && !v) bad(prog, "option needs a value", a);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, prog);
            exit(0);
        } else if (!strcmp(a, "-n")) {
            o->nranks = (int)parse_count(prog, a, v, 0);
            i++;
        } else if (!strcmp(a, "-g")) {
            o->grid = (int)parse_count(prog, a, v, 0);
            i++;
        } else if (!strcmp(a, "-b")) {
            o->block = (int)parse_count(prog, a, v, 0);
            i++;
        } else if (!strcmp(a, "--stack")) {
            o->stack = (size_t)parse_count(prog, a, v, 1);
            i++;
        } else if (!strcmp(a, "--heap")) {
            o->heap = (size_t)parse_count(prog, a, v, 1);
            i++;
        } else if (!strcmp(a, "-v")) {
            o->verbose = 1;
        } else {
            bad(prog, "unknown option", a);
        }
    }
    if ((o->grid == 0) != (o->block == 0) && o->nranks == 0)
        bad(prog, "-g and -b go together (or use -n)", NULL);
    if (o->grid && o->block && o->nranks && (long long)o->grid * o->block < o->nranks)
        bad(prog, "-n asks for more ranks than -g x -b provides", NULL);
    if (o->grid && o->block && (long long)o->grid * o->block > 0x7fffffff) bad(prog, "-g x -b is too large", NULL);
}

void gp_shape_ranks(gp_options *o, int default_block)
{
    if (o->grid && o->block) {
        if (!o->nranks) o->nranks = o->grid * o->block;
        return;
    }
    if (!o->nranks) o->nranks = 1;
    if (!o->block) o->block = o->nranks < default_block ? o->nranks : default_block;
    o->grid = (o->nranks + o->block - 1) / o->block;
}
