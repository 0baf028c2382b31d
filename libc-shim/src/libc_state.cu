/* The C library's per-rank state (libc_state.h). */
#include "libc_state.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "runtime.h"

GPUMPI_FN int *gp_errno_location(void) { return &gp_self()->libc_errno; }

GPUMPI_FN gp_libc_state *gp_libc(void)
{
    gp_rank *me = gp_self();
    if (me->libc) return (gp_libc_state *)me->libc;
    gp_libc_state *L = (gp_libc_state *)gp_malloc(sizeof(gp_libc_state));
    if (!L) gp_fatal("libc", MPI_ERR_NO_MEM, "no heap left for the C library's per-rank state (%d bytes)",
                     (int)sizeof(gp_libc_state));
    gp_memset(L, 0, sizeof *L);
    gp_rand_seed(L, 1); /* rand() before any srand() is srand(1) */
    L->a48 = 0x5deece66dull;
    L->c48 = 0xb;
    L->optind = 1;
    L->opterr = 1;
    L->optopt = '?';
    L->null_stdin.fd = 0; /* gp_can_read: only rank 0 reads fd 0 */
    me->libc = L;
    return L;
}

GPUMPI_FN gp_FILE *gp_stdin(void)
{
    return gp_thread_rank() == 0 ? &gp_std_files[0] : &gp_libc()->null_stdin;
}
