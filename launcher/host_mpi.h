/* The host MPI a job runs under when mpirun started one launcher process
 * per GPU (docs/scale_out.md): found from mpirun's environment and loaded
 * at run time, so a program built once runs alone or under mpirun, with
 * Open MPI or MPICH, and gpumpi needs neither to build. The launchers use
 * it to agree at start (addresses, handles), to end the job together, and
 * later to carry messages between nodes. Host code only. */
#ifndef GPUMPI_HOST_MPI_H
#define GPUMPI_HOST_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gp_host_job {
    int rank, size;             /* this launcher process among the job's */
    int local_rank, local_size; /* among those on this node (-1: not told) */
    const char *flavour;        /* "Open MPI" or "MPICH" */
} gp_host_job;

/* 1 when mpirun (Open MPI's or MPICH's) started this process as one of
 * several, with *job filled from its environment; 0 when it runs alone. */
int gp_host_job_detect(gp_host_job *job);

/* Loads the host MPI's library (GPUMPI_HOST_MPI_LIB names it, else the
 * flavour's usual one) and initialises it. 0, or -1 with the reason
 * written to stderr. */
int gp_host_mpi_init(const gp_host_job *job);

/* Collectives over the launcher processes, all of them blocking. */
void gp_host_mpi_bcast(void *buf, int bytes, int root);
void gp_host_mpi_allreduce_max(long long *values, int n);
void gp_host_mpi_barrier(void);

/* Ends every process of the job with `code` (MPI_Abort, a failing rank). */
void gp_host_mpi_abort(int code);
void gp_host_mpi_finalize(void);

#ifdef __cplusplus
}
#endif
#endif
