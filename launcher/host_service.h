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

/* Output in writes that end at lines' ends (several launcher processes share one output). */
void gp_host_service_whole_lines(void);

/* Write out the output the service holds (it buffers between polls). */
void gp_host_service_flush(void);

/* Ends the job now with `status`: serves the calls already made, flushes
 * the output, prints `reason` (if any) last, and exits. */
void gp_end_job(int status, const char *reason);
/* How gp_end_job ends the job once it has said why: NULL, _exit (one
 * process); several launcher processes end them all (launcher_procs.h). */
extern void (*gp_end_job_exit)(int status);

/* Host files behind the file calls (host_files.c). */
void gp_host_files_init(void);
/* Runs request/reply call `op` of ticket t on its k cells (request data
 * gathered into req, req_len bytes); writes the reply into the cells.
 * Returns 1 when answered, 0 when the answer must wait (a read of a pipe
 * with nothing in it yet, a command still running): a later poll gives
 * it with gp_host_answer, so the service never blocks on one rank. */
int gp_host_files_serve(gp_host_cell *const *cells, int k, const char *req, size_t req_len, uint64_t t);
/* Answers the waiting reads that can now be; returns how many. */
int gp_host_files_poll(void);
/* The files' table, shared with the commands' pipes (host_system.c). */
int gp_host_file_add(int fd);
int gp_host_file_fd(int64_t handle);
void gp_host_file_forget(int64_t handle);

/* What a rank asks of the host system (host_system.c): sysconf values,
 * the time zone, and the commands of system() and popen(), started at once,
 * waited for by later polls. Same return as gp_host_files_serve. */
int gp_host_system_serve(gp_host_cell *c, const char *req, size_t req_len, uint64_t t);
/* Answers the calls whose commands have ended; returns how many. */
int gp_host_system_poll(void);

/* The cell of ticket t, and the answer to request/reply call t once its
 * first cell holds ret, err and len. */
gp_host_cell *gp_host_cell_at(uint64_t t);
void gp_host_answer(uint64_t t);

#ifdef __cplusplus
}
#endif

#endif
