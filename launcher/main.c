/* The host main of every gpumpi program: parse ---gpumpi options, run the
 * ranks on the selected backend, exit like mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

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
    fflush(stdout);
    int *codes = NULL;
    int rc = gp_backend_run(&o, &codes);
    if (rc) return rc;
    rc = report(o.nranks, codes);
    free(codes);
    return rc;
}
