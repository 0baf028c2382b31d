/* The host main of every gpumpi program: parse ---gpumpi options, run the
 * ranks on the selected backend, exit like mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "watchdog.h"

size_t gp_argv_pack(int argc, char **argv, char *blob, uintptr_t base)
{
    size_t table = (size_t)(argc + 1) * sizeof(char *);
    size_t at = table;
    for (int i = 0; i < argc; i++) {
        size_t n = strlen(argv[i]) + 1;
        if (blob) {
            memcpy(blob + at, argv[i], n);
            ((uintptr_t *)blob)[i] = base + at;
        }
        at += n;
    }
    if (blob) ((uintptr_t *)blob)[argc] = 0;
    return at;
}

/* The stack a rank needs, as gpumpicc measured it when it linked the
 * program: the deepest chain of the program's own stack frames from the
 * rank kernel (driver/stack_size.c), which gpumpicc writes into this text in
 * the linked file: "GPUMPI-BUILD-STACK:" then the bytes, then " r" when the
 * program recurses (the figure is then a floor). The runtime's own frames
 * are not in it: they get GP_RUNTIME_STACK. Volatile, so the compiler never
 * folds the text it starts with. */
#define GP_DEFAULT_STACK (16u << 10)
#define GP_RUNTIME_STACK (8u << 10)
volatile char gpumpi_build_stack_info[64] = "GPUMPI-BUILD-STACK:none";

size_t gp_build_stack_bytes(int verbose)
{
    char info[sizeof gpumpi_build_stack_info];
    for (size_t i = 0; i < sizeof info; i++) info[i] = gpumpi_build_stack_info[i];
    info[sizeof info - 1] = 0;
    const char *v = info + strlen("GPUMPI-BUILD-STACK:");
    char *end;
    unsigned long long need = strtoull(v, &end, 10);
    int measured = end != v, floor_only = measured && strchr(end, 'r') != NULL;
    /* never below the default: the figure only raises it (a large local array in main) */
    size_t s = measured ? (size_t)need + GP_RUNTIME_STACK : GP_DEFAULT_STACK;
    if (s < GP_DEFAULT_STACK) s = GP_DEFAULT_STACK;
    if (verbose) {
        if (measured)
            fprintf(stderr, "gpumpi: stack per rank %zu bytes (the program's deepest chain of frames: %llu bytes, "
                    "measured when it was linked, plus %u for the runtime; at least %u)%s\n",
                    s, need, GP_RUNTIME_STACK, GP_DEFAULT_STACK,
                    floor_only ? "; the program recurses: use --stack if ranks overflow" : "");
        else
            fprintf(stderr, "gpumpi: stack per rank %zu bytes (the default: the build measured nothing)\n", s);
    }
    return s;
}

void gp_report_rank_memory(size_t stack, size_t private_bytes, const char *where)
{
    fprintf(stderr, "gpumpi: per rank: the runtime's own tables (requests, communicators) take the first %d bytes of "
            "its local memory, the rest of them the shared heap\n", GP_TABLES_BYTES);
    if (private_bytes)
        fprintf(stderr, "gpumpi: per rank: stack %zu bytes, private memory %zu bytes (%s: malloc takes blocks of 1k "
                "up to half of it there first, the rest from the shared heap)\n", stack, private_bytes, where);
    else
        fprintf(stderr, "gpumpi: per rank: stack %zu bytes, no private memory (--private 0, or too little memory for it: "
                "malloc takes every block from the shared heap)\n", stack);
}

/* Like mpiexec: the job fails if any rank does, with the first one's
 * status. A status returned from main is the program's own answer, not a
 * failure of the job, so (as MPICH's mpiexec) nothing is printed for it:
 * programs and test suites that return a status are judged by their
 * output (MPICH's init/exitst1). -v names the rank. Aborts, faults and the
 * watchdog end the job before this, each with its reason. */
static int report(int n, const int *codes, int verbose)
{
    int failed = 0, first = -1;
    for (int r = 0; r < n; r++)
        if (codes[r] != 0) {
            if (first < 0) first = r;
            failed++;
        }
    if (!failed) return 0;
    if (verbose) {
        fprintf(stderr, "gpumpi: rank %d exited with status %d", first, codes[first]);
        if (failed > 1) fprintf(stderr, " (%d ranks failed)", failed);
        fprintf(stderr, "\n");
    }
    return codes[first] & 255 ? codes[first] & 255 : 1;
}

/* Every converted file refers to this, so objects linked without gpumpicc
 * fail with a linker error that names the fix. */
char gpumpi_link_this_object_with_gpumpicc_or_gpumpi_build;

int main(int argc, char **argv)
{
    gp_options o;
    gp_parse_options(argc, argv, &o);
    if (!o.stack) o.stack = gp_build_stack_bytes(o.verbose);
    fflush(stdout);
    int *codes = NULL;
    gp_rank_stats *stats = NULL;
    int rc = gp_backend_run(&o, &codes, &stats);
    if (rc) return rc;
    if (stats) gp_stats_report(stats, o.nranks);
    rc = report(o.nranks, codes, o.verbose);
    free(codes);
    free(stats);
    return rc;
}
