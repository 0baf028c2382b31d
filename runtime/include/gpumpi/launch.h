/* The boundary between the launcher (host code) and the ranks. */
#ifndef GPUMPI_LAUNCH_H
#define GPUMPI_LAUNCH_H

#include "gpumpi/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the calling rank to completion (rank id from the platform layer). */
GPUMPI_FN void gp_rank_run(void);
/* As a rank starts: its private memory is [base, base + bytes) (NULL:
 * none; on the GPU local memory from alloca, which only this thread can
 * reach), the arena of its runtime tables [tables, tables + GP_TABLES_BYTES)
 * (the same kind of memory); then the start of its globals block, which
 * may be in the private memory. */
GPUMPI_FN void gp_private_init(char *base, size_t bytes, char *tables, size_t tables_bytes);
GPUMPI_FN char *gp_rank_globals(void);
/* What the copy service's warps run (numbered 0, 1, ...), until this
 * GPU's `ranks` ranks have returned. */
GPUMPI_FN void gp_copy_service(int warp, int ranks);
/* Sets up the block's on-chip state for the collectives over the world;
 * every thread of a block calls it, then the block synchronises, before
 * any rank of the block runs. */
GPUMPI_FN void gp_shm_block_init(void);
/* The warps' regroup state (warp_regroup.cu): at the kernel's start, by
 * every thread of the block; a rank that returns leaves its warp's. */
GPUMPI_FN void gp_regroup_block_init(int nranks);
GPUMPI_FN void gp_regroup_rank_exit(void);

#ifdef __cplusplus
}
#endif

#endif
