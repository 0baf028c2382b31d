/* launcher/host_mpi.c under a real mpirun: finds the job from mpirun's
 * environment, loads the host MPI at run time, and its collectives give the
 * right values, and an abort ends every process. Run as `mpiexec -n P
 * host_mpi_test [abort]`; prints one line a process, "host_mpi R of P
 * (FLAVOUR): bcast ok max ok"; with `abort`, process 1 aborts with 7
 * while the others wait in a barrier. */
#include <stdio.h>
#include <string.h>

#include "host_mpi.h"

int main(int argc, char **argv)
{
    gp_host_job job;
    if (!gp_host_job_detect(&job)) {
        printf("host_mpi: not started by mpirun as one of several processes\n");
        return 1;
    }
    if (gp_host_mpi_init(&job)) return 1;
    if (argc > 1 && !strcmp(argv[1], "abort")) {
        if (job.rank == 1) gp_host_mpi_abort(7);
        gp_host_mpi_barrier(); /* never completes: process 1 is gone */
        printf("host_mpi %d: the barrier completed after an abort\n", job.rank);
        return 1;
    }
    char word[32] = "";
    if (job.rank == 0) strcpy(word, "from-process-0");
    gp_host_mpi_bcast(word, sizeof word, 0);
    long long v[2] = {job.rank, -job.rank};
    gp_host_mpi_allreduce_max(v, 2);
    gp_host_mpi_barrier();
    int ok_b = !strcmp(word, "from-process-0"), ok_m = v[0] == job.size - 1 && v[1] == 0;
    printf("host_mpi %d of %d (%s): bcast %s max %s\n", job.rank, job.size, job.flavour, ok_b ? "ok" : "WRONG",
           ok_m ? "ok" : "WRONG");
    gp_host_mpi_finalize();
    return !(ok_b && ok_m);
}
