/* A backend starts the ranks, serves host calls until they end, and returns
 * each rank's exit code. The CUDA backend and the threads backend implement
 * it; main.c is common. */
#ifndef GPUMPI_BACKEND_H
#define GPUMPI_BACKEND_H

#include <stdint.h>
#include "options.h"
#include "gpumpi/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the job; fills codes[nranks] (malloc'd) and, with --stats, stats
 * (malloc'd). Returns 0, or an exit status when the job could not run at
 * all or ended abnormally (after saying why). */
int gp_backend_run(gp_options *o, int **codes, gp_rank_stats **stats);

/* The program's argv as one blob that is valid at address `base` on the
 * target: argc+1 pointers, then the strings. Returns its size; writes it
 * only when blob is not NULL. */
size_t gp_argv_pack(int argc, char **argv, char *blob, uintptr_t base);

/* -v: each rank's stack and private memory, as both backends say it
 * (where: what holds the private memory). */
void gp_report_rank_memory(size_t stack, size_t private_bytes, const char *where);

#ifdef __cplusplus
}
#endif

#endif
