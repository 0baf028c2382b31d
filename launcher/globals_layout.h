/* The registry of per-rank globals (filled before main by the converted
 * files) and the layout of each rank's globals block. */
#ifndef GPUMPI_GLOBALS_LAYOUT_H
#define GPUMPI_GLOBALS_LAYOUT_H

#include "gpumpi/globals.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every registered variable, in registration order. */
const gp_global_desc *gp_registered_globals(int *n);

/* Assigns each variable its offset in a rank's block (offsets[i]) and
 * returns the block size, a multiple of 16; offsets NULL: the size alone. */
size_t gp_globals_layout(size_t *offsets);

/* Whether every rank keeps its globals block (stride bytes) in its
 * private memory of private_bytes: one rule for both backends, said on
 * stderr when verbose. */
int gp_globals_go_private(size_t stride, size_t private_bytes, int verbose);

#ifdef __cplusplus
}
#endif

#endif
