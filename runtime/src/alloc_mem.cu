/* MPI_Alloc_mem and MPI_Free_mem: memory for messages, from the shared
 * device heap (malloc.cu), where any rank's copy can reach it: a rank's
 * private memory, where its malloc takes larger blocks first, is copied
 * by its owner alone (p2p.cu). No window or hint makes it special. */
#include "runtime.h"
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    (void)info; /* hints only: MPI-4.0 8.2 lets an implementation ignore them */
    GP_TRY(gp_check_initialized("MPI_Alloc_mem"));
    if (size < 0) return gp_err(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_ARG, "negative size %ld", (long)size);
    if (!baseptr) return gp_err(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_ARG, "baseptr is NULL");
    void *p = gp_malloc(size ? (size_t)size : 1);
    if (!p)
        return gp_err(MPI_COMM_WORLD, "MPI_Alloc_mem", MPI_ERR_NO_MEM,
                      "no device heap left for %ld bytes (raise --heap)", (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Free_mem(void *base)
{
    GP_TRY(gp_check_initialized("MPI_Free_mem"));
    gp_free(base);
    return MPI_SUCCESS;
}
