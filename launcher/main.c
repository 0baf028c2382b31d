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
 * program (the deepest call chain's frames, from nvcc's resource usage),
 * with room for the runtime; the default when the build had no figure. A
 * program built without it links this weak definition. */
#define GP_DEFAULT_STACK (16u << 10)
__attribute__((weak)) unsigned long long gpumpi_build_stack_bytes = 0; /* not const: never folded */
__attribute__((weak)) int gpumpi_build_stack_recursive = 0;

size_t gp_build_stack_bytes(int verbose)
{
    size_t need = (size_t)gpumpi_build_stack_bytes;
    size_t s = need ? need + 4096 : GP_DEFAULT_STACK; /* 4 KiB for what the figure cannot see (printf's buffers are in it) */
    if (gpumpi_build_stack_recursive && s < GP_DEFAULT_STACK) s = GP_DEFAULT_STACK;
    if (verbose)
        fprintf(stderr, "gpumpi: stack per rank %zu bytes (%s%s)\n", s,
                need ? "measured at build time" : "default: no build-time figure",
                gpumpi_build_stack_recursive ? "; the program recurses, so the figure is a floor: use --stack" : "");
    return s;
}

/* Like mpirun: the job fails if any rank does; name the first one. */
static int report(int n, const int *codes)
{
    int failed = 0, first = -1;
    for (int r = 0; r < n; r++)
        if (codes[r] != 0) {
            if (first < 0) first = r;
            failed++;
        }
    if (!failed) return 0;
    fprintf(stderr, "gpumpi: rank %d exited with status %d", first, codes[first]);
    if (failed > 1) fprintf(stderr, " (%d ranks failed)", failed);
    fprintf(stderr, "\n");
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
    rc = report(o.nranks, codes);
    free(codes);
    free(stats);
    return rc;
}
