/* The host end of the host-call ring: serves the ranks' output and aborts
 * while they run. Never waits on the GPU. */
#ifndef GPUMPI_HOST_SERVICE_H
#define GPUMPI_HOST_SERVICE_H

#include "gpumpi/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cells as the host sees them; sets every cell free for its first ticket. */
void gp_host_service_init(gp_host_cell *cells);

/* Serve every call that is ready, in ticket order. Returns how many. */
int gp_host_service_poll(void);

/* Sleep a little when a poll found nothing (grows to ~1 ms when idle). */
void gp_host_service_idle(int found);

#ifdef __cplusplus
}
#endif

#endif
