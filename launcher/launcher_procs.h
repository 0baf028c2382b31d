/* Several launcher processes in one job (the threads backend under
 * mpiexec, docs/scale_out.md): process p runs world ranks [p*N, (p+1)*N)
 * of one MPI_COMM_WORLD. This finds the job, makes the processes agree,
 * and ends the whole job when one of them must. */
#ifndef GPUMPI_LAUNCHER_PROCS_H
#define GPUMPI_LAUNCHER_PROCS_H

#include "options.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_procs {
    int rank, size; /* this launcher process among the job's; size 1: it runs alone */
} gp_procs;

/* Call first thing (o's ranks shaped): alone, returns {0, 1} and does
 * nothing else. Under mpiexec with several processes it re-executes the
 * program once without address space randomisation (so that function
 * pointers and the program's own data sit at the same addresses in every
 * process: a user op stored by one rank is called by another), loads the
 * host MPI, and checks that every process runs the same program with the
 * same -n; on a mismatch each process exits with status 2, the one that
 * differs saying why. Every process then writes its output to process
 * 0's stdout and stderr. -v prints which ranks each process runs. */
gp_procs gp_procs_start(const gp_options *o);

/* Another process's open file `fd` (its pid from the host MPI), as a
 * descriptor of this one (pidfd_getfd: both on one host, as one user);
 * -1 with errno set when that is refused. */
int gp_procs_take_fd(long long pid, int fd);

/* Ends every process of the job with `status` (a rank's abort or fault,
 * the watchdog); does not return. */
void gp_procs_end_job(int status);

/* After the ranks of the whole job have returned: the host MPI's goodbye. */
void gp_procs_finish(void);

#ifdef __cplusplus
}
#endif
#endif
