/* See host_mpi.h. The two implementations differ in their binary
 * interface: MPICH's handles are ints with fixed values, Open MPI's are
 * addresses of objects its library exports. Every handle goes through a
 * function pointer as an intptr_t, which both calling conventions pass in
 * the integer register an int or a pointer would take. */
#define _GNU_SOURCE
#include "host_mpi.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef intptr_t handle;

static struct {
    int (*init_thread)(int *, char ***, int, int *);
    int (*bcast)(void *, int, handle, int, handle);
    int (*allreduce)(const void *, void *, int, handle, handle, handle);
    int (*barrier)(handle);
    int (*abort_job)(handle, int);
    int (*finalize)(void);
    handle world, byte, long_long, max;
    int ready;
} H;

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

int gp_host_job_detect(gp_host_job *job)
{
    if (getenv("OMPI_COMM_WORLD_SIZE")) {
        *job = (gp_host_job){env_int("OMPI_COMM_WORLD_RANK", 0), env_int("OMPI_COMM_WORLD_SIZE", 1),
                             env_int("OMPI_COMM_WORLD_LOCAL_RANK", -1), env_int("OMPI_COMM_WORLD_LOCAL_SIZE", -1),
                             "Open MPI"};
    } else if (getenv("PMI_SIZE")) { /* MPICH's Hydra */
        *job = (gp_host_job){env_int("PMI_RANK", 0), env_int("PMI_SIZE", 1), env_int("MPI_LOCALRANKID", -1),
                             env_int("MPI_LOCALNRANKS", -1), "MPICH"};
    } else {
        return 0;
    }
    return job->size > 1;
}

static void *need(void *lib, const char *name, int *missing)
{
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "gpumpi: the host MPI library has no %s\n", name);
        *missing = 1;
    }
    return p;
}

int gp_host_mpi_init(const gp_host_job *job)
{
    int ompi = job->flavour[0] == 'O';
    const char *name = getenv("GPUMPI_HOST_MPI_LIB");
    if (!name || !*name) name = ompi ? "libmpi.so.40" : "libmpich.so.12";
    /* global: Open MPI's components look up its symbols */
    void *lib = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        fprintf(stderr,
                "gpumpi: started by %s's mpirun as process %d of %d, but cannot load its library: %s; "
                "set GPUMPI_HOST_MPI_LIB to the library's path\n",
                job->flavour, job->rank, job->size, dlerror());
        return -1;
    }
    int missing = 0;
    *(void **)&H.init_thread = need(lib, "MPI_Init_thread", &missing);
    *(void **)&H.bcast = need(lib, "MPI_Bcast", &missing);
    *(void **)&H.allreduce = need(lib, "MPI_Allreduce", &missing);
    *(void **)&H.barrier = need(lib, "MPI_Barrier", &missing);
    *(void **)&H.abort_job = need(lib, "MPI_Abort", &missing);
    *(void **)&H.finalize = need(lib, "MPI_Finalize", &missing);
    if (ompi) {
        H.world = (handle)need(lib, "ompi_mpi_comm_world", &missing);
        H.byte = (handle)need(lib, "ompi_mpi_byte", &missing);
        H.long_long = (handle)need(lib, "ompi_mpi_long_long_int", &missing);
        H.max = (handle)need(lib, "ompi_mpi_op_max", &missing);
    } else { /* MPICH's mpi.h */
        H.world = 0x44000000;
        H.byte = 0x4c00010d;
        H.long_long = 0x4c000809;
        H.max = 0x58000001;
    }
    if (missing) return -1;
    int provided = 0, argc = 0;
    char **argv = NULL;
    /* the launcher's service thread is the only one to call it */
    if (H.init_thread(&argc, &argv, 1 /* MPI_THREAD_FUNNELED in both */, &provided) != 0) {
        fprintf(stderr, "gpumpi: the host MPI (%s) did not initialise\n", name);
        return -1;
    }
    H.ready = 1;
    return 0;
}

void gp_host_mpi_bcast(void *buf, int bytes, int root) { H.bcast(buf, bytes, H.byte, root, H.world); }

void gp_host_mpi_allreduce_max(long long *values, int n)
{
    /* MPI_IN_PLACE differs between the two: send from a copy */
    long long *in = malloc(sizeof *in * (size_t)n);
    for (int i = 0; i < n; i++) in[i] = values[i];
    H.allreduce(in, values, n, H.long_long, H.max, H.world);
    free(in);
}

void gp_host_mpi_barrier(void) { H.barrier(H.world); }

void gp_host_mpi_abort(int code)
{
    if (H.ready) H.abort_job(H.world, code);
    exit(code);
}

void gp_host_mpi_finalize(void)
{
    if (H.ready) H.finalize();
    H.ready = 0;
}
