/* MPI environment: init/finalize, ranks and sizes, time, names, abort. */
#include "runtime.h"
#include "gpumpi/format.h"
#include "gpumpi/shim_string.h"

GPUMPI_VAR gp_world *gp_world_ptr;

GPUMPI_FN int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gp_rank *me = gp_self();
    if (me->init_state != 0)
        return gp_fatal("MPI_Init", MPI_ERR_OTHER, "called twice (or after MPI_Finalize)");
    me->init_state = 1;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)required;
    *provided = MPI_THREAD_SINGLE;
    return MPI_Init(argc, argv);
}

GPUMPI_FN int MPI_Initialized(int *flag)
{
    *flag = gp_self()->init_state >= 1;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Finalize(void)
{
    gp_rank *me = gp_self();
    if (me->init_state != 1)
        return gp_fatal("MPI_Finalize", MPI_ERR_OTHER, "called without MPI_Init or twice");
    /* Every rank's messages must be delivered before any rank leaves. */
    MPI_Barrier(MPI_COMM_WORLD);
    me->init_state = 2;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Finalized(int *flag)
{
    *flag = gp_self()->init_state == 2;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    char msg[128];
    int n = gp_snprintf(msg, sizeof msg, "rank %d: MPI_Abort called with error code %d\n", gp_thread_rank(),
                        errorcode);
    gp_host_call(GP_HOST_ABORT, errorcode, msg, (size_t)n);
    for (;;) gp_end_this_rank(); /* the host ends the job */
    return MPI_SUCCESS;
}

GPUMPI_VARIADIC_FN int gp_fatal(const char *fn, int errclass, const char *fmt, ...)
{
    char msg[GP_HOST_CELL_BYTES];
    int n = gp_snprintf(msg, sizeof msg, "rank %d: %s: ", gp_thread_rank(), fn);
    va_list ap;
    va_start(ap, fmt);
    n += gp_vsnprintf(msg + n, sizeof msg - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if ((size_t)n > sizeof msg - 2) n = (int)sizeof msg - 2;
    msg[n++] = '\n';
    /* exit code 1 unless the class says otherwise, like MPICH's fatal handler */
    gp_host_call(GP_HOST_ABORT, errclass ? errclass : 1, msg, (size_t)n);
    for (;;) gp_end_this_rank();
    return errclass;
}

GPUMPI_FN int gp_comm_check(const char *fn, MPI_Comm comm)
{
    if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
        return gp_fatal(fn, MPI_ERR_COMM, "invalid communicator %d", (int)comm);
    if (gp_self()->init_state != 1)
        return gp_fatal(fn, MPI_ERR_OTHER, "called %s MPI_Init", gp_self()->init_state ? "after MPI_Finalize" : "before");
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_comm_size(MPI_Comm comm) { return comm == MPI_COMM_SELF ? 1 : gp_w()->nranks; }
GPUMPI_FN int gp_comm_rank(MPI_Comm comm) { return comm == MPI_COMM_SELF ? 0 : gp_thread_rank(); }
GPUMPI_FN int gp_comm_to_world(MPI_Comm comm, int rank) { return comm == MPI_COMM_SELF ? gp_thread_rank() : rank; }
GPUMPI_FN int gp_world_to_comm(MPI_Comm comm, int world_rank) { return comm == MPI_COMM_SELF ? 0 : world_rank; }

GPUMPI_FN int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    gp_comm_check("MPI_Comm_rank", comm);
    *rank = gp_comm_rank(comm);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_size(MPI_Comm comm, int *size)
{
    gp_comm_check("MPI_Comm_size", comm);
    *size = gp_comm_size(comm);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Get_processor_name(char *name, int *resultlen)
{
    int n = (int)gp_strlen(gp_w()->processor_name);
    if (n > MPI_MAX_PROCESSOR_NAME - 1) n = MPI_MAX_PROCESSOR_NAME - 1;
    gp_memcpy(name, gp_w()->processor_name, (size_t)n);
    name[n] = 0;
    *resultlen = n;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

/* One clock for all ranks: the GPU's global timer (MPI_WTIME_IS_GLOBAL). */
GPUMPI_FN double MPI_Wtime(void) { return (double)(gp_clock_ns() - gp_w()->t0_ns) * 1e-9; }

GPUMPI_FN double MPI_Wtick(void) { return 1e-6; }
