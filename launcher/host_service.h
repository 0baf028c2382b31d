/* The host end of the host-call ring: serves the ranks' output, files and
 * the end of the job while they run. Never waits on the GPU. */
#ifndef GPUMPI_HOST_SERVICE_H
#define GPUMPI_HOST_SERVICE_H

#include "gpumpi/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cells as the host sees them; sets every cell free for its first ticket.
 * With tag_output every line of output begins "[1,RANK]<stdout>:". */
void gp_host_service_init(gp_host_cell *cells, int nranks, int tag_output);

/* Serve every call that is ready, in ticket order. Returns how many. */
int gp_host_service_poll(void);

/* The GPU backend: no rank threads share the host's cores, so the service
 * may poll eagerly and sleep precisely. */
void gp_host_service_low_latency(void);

/* Sleep a little when a poll found nothing (grows to ~1 ms when idle). */
void gp_host_service_idle(int found);

/* Write out the output the service holds (it buffers between polls). */
void gp_host_service_flush(void);

/* Ends the job now with `status`: serves the calls already made, flushes
 * the output, prints `reason` (if any) last, and exits. */
void gp_end_job(int status, const char *reason);

/* Host files behind the file calls (host_files.c). */
void gp_host_files_init(void);
/* Runs request/reply call `op` on the k cells from first (request data
 * gathered into req, req_len bytes); writes the reply into the cells. */
void gp_host_files_serve(gp_host_cell *const *cells, int k, const char *req, size_t req_len);

#ifdef __cplusplus
}
#endif

#endif
