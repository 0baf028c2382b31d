/* For the host unit tests of the libc-shim (libc_test.cu): the per-rank
 * state and the few runtime services the tested files call, for a single
 * "rank" (the test's thread), without the MPI runtime. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_stdio.h"
#include "libc_state.h"

static int stub_errno;
static gp_libc_state *stub_state;

int *gp_errno_location(void) { return &stub_errno; }

gp_libc_state *gp_libc(void)
{
    if (stub_state) return stub_state;
    gp_libc_state *L = (gp_libc_state *)calloc(1, sizeof *L);
    gp_rand_seed(L, 1);
    L->a48 = 0x5deece66dull;
    L->c48 = 0xb;
    L->optind = 1;
    L->opterr = 1;
    L->optopt = '?';
    return stub_state = L;
}

/* The test starts a fresh "rank" (as the launcher would). */
void stub_reset_rank(void)
{
    free(stub_state);
    stub_state = 0;
}

void *gp_malloc(size_t n) { return malloc(n); }
void gp_free(void *p) { free(p); }
void gp_abort(void) { abort(); }

gp_FILE gp_std_files[3] = {{0}, {1}, {2}};

/* getopt's messages go to the host's stream of the same number */
int gp_fprintf(gp_FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f->fd == 2 ? stderr : stdout, fmt, ap);
    va_end(ap);
    return n;
}
