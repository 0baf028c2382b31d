/* Command-line options of a gpumpi program: "./prog args ---gpumpi opts".
 * GPUMPI_* environment variables give the defaults, so a job script can set
 * them once; the command line wins. */
#include "options.h"
#include "gpumpi/world.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GP_DEFAULT_TIMEOUT 60.0

static void usage(FILE *to, const char *prog)
{
    fprintf(to,
            "usage: %s [program arguments] ---gpumpi [options]\n"
            "Runs this MPI program with every rank as one GPU thread.\n"
            "  -n N             run N ranks (the launcher picks the block shape)\n"
            "  -g G -b B        run G blocks of B threads: G x B ranks (with -n N: N of them)\n"
            "  --device D       the CUDA device to run on (default 0)\n"
            "  --stack BYTES    stack per rank (default: what the build measured, else 16k; suffixes k, m)\n"
            "  --heap BYTES     heap for malloc, shared by all ranks (default: most of the free GPU memory,\n"
            "                   half the machine's memory, at least 4g, on the threads backend; suffixes k, m, g)\n"
            "  --private BYTES  each rank's memory of its own, where malloc takes blocks of 1k and more first\n"
            "                   (up to half of it each) and where the globals go when they fit: on the GPU the\n"
            "                   rank's local memory, which the GPU interleaves across a warp, so that ranks\n"
            "                   sweeping their own arrays in step share cache lines (a rank working alone\n"
            "                   there touches a line per word). Default auto: a quarter of the free GPU\n"
            "                   memory over every thread the GPU holds (the GPU sets it aside for all of\n"
            "                   them), within what --heap leaves and 480k with the stack (256k on the threads\n"
            "                   backend); else at least 8k; 0: off, every block from --heap\n"
            "  --timeout SECS   deadlock watchdog: when every live rank has been blocked in MPI with no\n"
            "                   message moving for SECS seconds, report where each rank waits and end the\n"
            "                   job with status 124 (default %g; 0 turns it off)\n"
            "  --time-limit SECS  end the job, with the same report and status 124, once it has run SECS\n"
            "                   seconds, whatever the ranks do (default 0: no limit; MPIEXEC_TIMEOUT, as\n"
            "                   mpiexec reads it, sets it too)\n"
            "  --regroup US     GPU: after a blocking MPI call (waits, collectives) a rank waits up to US\n"
            "                   microseconds for the other ranks of its warp to end one too, so that they run\n"
            "                   the program's code together rather than one after another (at most 4x the\n"
            "                   call's own time or 2x the rank's work between calls; never for a rank that\n"
            "                   waits for it; default %g, 0: never)\n"
            "  --stats          at exit, messages, bytes and time in blocking MPI calls per rank (summarised)\n"
            "  --tag-output     begin every line of output with its rank and stream, as mpirun --tag-output:\n"
            "                   \"[1,RANK]<stdout>:\" or \"[1,RANK]<stderr>:\"\n"
            "  --service-thread GPU: serve the ranks' host calls (output, files) and the watchdog from a thread\n"
            "                   of their own, not the one that launched the ranks: for tools that hold the\n"
            "                   launching thread until the kernel ends, such as Nsight Compute (ncu), where\n"
            "                   the job would otherwise wait for itself\n"
            "  -v               report the launch shape and limits on stderr\n"
            "  --help           this text\n"
            "Options may also be written --name=VALUE. Without -n, -g -b or GPUMPI_NP the program runs 1 rank.\n"
            "Environment defaults (the command line overrides them):\n"
            "  GPUMPI_NP=N  GPUMPI_DEVICE=D  GPUMPI_STACK=BYTES  GPUMPI_HEAP=BYTES  GPUMPI_PRIVATE=BYTES\n"
            "  GPUMPI_TIMEOUT=SECS  GPUMPI_REGROUP=US  MPIEXEC_TIMEOUT=SECS (--time-limit)\n"
            "  GPUMPI_STATS=1  GPUMPI_TAG_OUTPUT=1  GPUMPI_VERBOSE=1  GPUMPI_SERVICE_THREAD=1\n"
            "Exit status: 0 when every rank returned 0; else the first failing rank's status (its return from\n"
            "main, silently as with mpiexec, -v names it; exit(), MPI_Abort, 134 for abort() or a failed assert,\n"
            "128+signal for a fault, 124 for a deadlock or the time limit), 2 for bad options.\n",
            prog, GP_DEFAULT_TIMEOUT, GP_DEFAULT_REGROUP_US);
}

static const char *prog_name;

static void bad(const char *what, const char *arg)
{
    fprintf(stderr, "%s: ---gpumpi: %s%s%s\n", prog_name, what, arg ? ": " : "", arg ? arg : "");
    usage(stderr, prog_name);
    exit(2);
}

/* A whole number >= min, with k/m/g suffixes when `suffixes`. */
static long long parse_count(const char *opt, const char *s, int suffixes, long long min)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (suffixes && end != s && *end) {
        int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'm' || *end == 'M' ? 20 : *end == 'g' || *end == 'G' ? 30 : -1;
        if (shift >= 0 && end[1] == 0 && v < (1ll << (62 - shift))) {
            v <<= shift;
            end++;
        }
    }
    if (errno || end == s || *end || v < min) {
        char what[96];
        snprintf(what, sizeof what, "%s needs a %s number", opt, min > 0 ? "positive" : "non-negative");
        bad(what, s);
    }
    return v;
}

/* A number >= 0 of `unit`s. */
static double parse_amount(const char *opt, const char *s, const char *unit)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0) || isinf(v)) {
        char what[128]; /* the option as named, up to 63, and the rest */
        snprintf(what, sizeof what, "%s needs a number of %s >= 0", opt, unit);
        bad(what, s);
    }
    return v;
}

static int parse_flag(const char *var, const char *s)
{
    if (!strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "on") || !strcmp(s, "true")) return 1;
    if (!strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "off") || !strcmp(s, "false") || !*s) return 0;
    bad("expected 1 or 0", var);
    return 0;
}

/* The field of a byte-count option (--stack, --heap, --private), or NULL. */
static size_t *size_option(gp_options *o, const char *name)
{
    return !strcmp(name, "--stack") ? &o->stack : !strcmp(name, "--heap") ? &o->heap
         : !strcmp(name, "--private") ? &o->private_bytes : NULL;
}

/* The field of an amount option (--timeout, --time-limit, --regroup) and its unit, or NULL. */
static double *amount_option(gp_options *o, const char *name, const char **unit)
{
    *unit = !strcmp(name, "--regroup") ? "microseconds" : "seconds";
    return !strcmp(name, "--timeout") ? &o->timeout : !strcmp(name, "--time-limit") ? &o->time_limit
         : !strcmp(name, "--regroup") ? &o->regroup_us : NULL;
}

/* A byte count; --private may be 0 (off), the others not. `shown`: the
 * option as the message names it. */
static size_t parse_size(const char *name, const char *shown, const char *v)
{
    int priv = !strcmp(name, "--private");
    if (priv && !strcmp(v, "auto")) return GP_PRIVATE_AUTO;
    size_t n = (size_t)parse_count(shown, v, 1, priv ? 0 : 1);
    if (priv && n && n < GP_PRIVATE_MIN_BYTES) {
        char what[128];
        snprintf(what, sizeof what, "%s needs 0 (off), auto or at least %d bytes (8k)", shown, GP_PRIVATE_MIN_BYTES);
        bad(what, v);
    }
    return n;
}

/* Sets option `name` (as spelled on the command line) to value v. */
static void set_option(gp_options *o, const char *name, const char *v)
{
    const char *unit;
    if (!strcmp(name, "-n") || !strcmp(name, "-np"))
        o->nranks = (int)parse_count(name, v, 0, 1);
    else if (!strcmp(name, "-g"))
        o->grid = (int)parse_count(name, v, 0, 1);
    else if (!strcmp(name, "-b"))
        o->block = (int)parse_count(name, v, 0, 1);
    else if (!strcmp(name, "--device"))
        o->device = (int)parse_count(name, v, 0, 0);
    else if (size_option(o, name))
        *size_option(o, name) = parse_size(name, name, v);
    else if (amount_option(o, name, &unit))
        *amount_option(o, name, &unit) = parse_amount(name, v, unit);
    if ((!strcmp(name, "-n") || !strcmp(name, "-np") || !strcmp(name, "-g") || !strcmp(name, "-b") ||
         !strcmp(name, "--device")) &&
        parse_count(name, v, 0, 0) > 0x7fffffff)
        bad("number too large", v);
}

static int takes_value(const char *name)
{
    static const char *const with_value[] = {"-n", "-np", "-g", "-b", "--device", "--stack", "--heap", "--private", "--timeout", "--time-limit", "--regroup", 0};
    for (int i = 0; with_value[i]; i++)
        if (!strcmp(name, with_value[i])) return 1;
    return 0;
}

static void from_environment(gp_options *o)
{
    static const struct {
        const char *var, *opt;
    } vars[] = {{"GPUMPI_NP", "-n"},         {"GPUMPI_DEVICE", "--device"},   {"GPUMPI_STACK", "--stack"},
                {"GPUMPI_HEAP", "--heap"},   {"GPUMPI_PRIVATE", "--private"}, {"GPUMPI_TIMEOUT", "--timeout"},
                {"GPUMPI_REGROUP", "--regroup"}, {"MPIEXEC_TIMEOUT", "--time-limit"}, {0, 0}};
    for (int i = 0; vars[i].var; i++) {
        const char *v = getenv(vars[i].var);
        if (v && *v) {
            char name[64];
            snprintf(name, sizeof name, "%s (from %s)", vars[i].opt, vars[i].var);
            /* parse under the option's name; messages say where it came from */
            const char *unit;
            if (amount_option(o, vars[i].opt, &unit))
                *amount_option(o, vars[i].opt, &unit) = parse_amount(name, v, unit);
            else if (size_option(o, vars[i].opt))
                *size_option(o, vars[i].opt) = parse_size(vars[i].opt, name, v);
            else {
                long long n = parse_count(name, v, 0, vars[i].opt[1] == 'n' ? 1 : 0);
                if (n > 0x7fffffff) bad("number too large", vars[i].var);
                if (vars[i].opt[1] == 'n') o->nranks = (int)n; else o->device = (int)n;
            }
        }
    }
    const char *v;
    if ((v = getenv("GPUMPI_STATS"))) o->stats = parse_flag("GPUMPI_STATS", v);
    if ((v = getenv("GPUMPI_TAG_OUTPUT"))) o->tag_output = parse_flag("GPUMPI_TAG_OUTPUT", v);
    if ((v = getenv("GPUMPI_VERBOSE"))) o->verbose = parse_flag("GPUMPI_VERBOSE", v);
    if ((v = getenv("GPUMPI_SERVICE_THREAD"))) o->service_thread = parse_flag("GPUMPI_SERVICE_THREAD", v);
}

void gp_parse_options(int argc, char **argv, gp_options *o)
{
    memset(o, 0, sizeof *o);
    o->timeout = GP_DEFAULT_TIMEOUT;
    o->regroup_us = GP_DEFAULT_REGROUP_US;
    o->private_bytes = GP_PRIVATE_AUTO;
    prog_name = argv[0];
    int split = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "---gpumpi") == 0) {
            split = i;
            break;
        }
    o->app_argc = split;
    o->app_argv = argv;
    from_environment(o);
    int cmd_n = 0, cmd_gb = 0; /* -n and -g/-b given on the command line override the environment's -n */
    for (int i = split + 1; i < argc; i++) {
        const char *a = argv[i];
        char name[64];
        const char *v = NULL;
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            v = eq + 1;
            if (!takes_value(name)) bad("option takes no value", a);
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            usage(stdout, prog_name);
            exit(0);
        } else if (takes_value(name)) {
            if (!v) {
                if (i + 1 >= argc) bad("option needs a value", a);
                v = argv[++i];
            }
            set_option(o, name, v);
            if (name[1] == 'n') cmd_n = 1;
            if (!strcmp(name, "-g") || !strcmp(name, "-b")) cmd_gb = 1;
        } else if (!strcmp(name, "--stats")) {
            o->stats = 1;
        } else if (!strcmp(name, "--tag-output")) {
            o->tag_output = 1;
        } else if (!strcmp(name, "--service-thread")) {
            o->service_thread = 1;
        } else if (!strcmp(name, "-v") || !strcmp(name, "--verbose")) {
            o->verbose = 1;
        } else {
            bad("unknown option", a);
        }
    }
    if (cmd_gb && !cmd_n) o->nranks = 0; /* -g -b alone: G x B ranks, whatever GPUMPI_NP says */
    if ((o->grid == 0) != (o->block == 0) && o->nranks == 0) bad("-g and -b go together (or use -n)", NULL);
    if (o->grid && o->block && (long long)o->grid * o->block > 0x7fffffff) bad("-g x -b is too large", NULL);
    if (o->grid && o->block && o->nranks && (long long)o->grid * o->block < o->nranks)
        bad("-n asks for more ranks than -g x -b provides", NULL);
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
