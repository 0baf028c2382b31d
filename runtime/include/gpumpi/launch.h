/* The boundary between the launcher (host code) and the ranks. */
#ifndef GPUMPI_LAUNCH_H
#define GPUMPI_LAUNCH_H

#include "gpumpi/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the calling rank to completion (rank id from the platform layer). */
GPUMPI_FN void gp_rank_run(void);

#ifdef __cplusplus
}
#endif

#endif
