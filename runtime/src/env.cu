/* MPI environment: init/finalize, ranks and sizes, time, names, abort. */
#include "comm_impl.h"
#include "gpumpi/format.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdio.h"

GPUMPI_CONST_VAR gp_world *gp_world_ptr;
GPUMPI_CONST_VAR gp_world_hot gp_hot;
#if defined(GPUMPI_CUDA)
__constant__ int gp_block_ranks, gp_rank_base, gp_block_base, gp_sys_scope; /* platform.h */
#endif

/* The one way a rank's MPI state is set up, whichever comes first:
 * MPI_Init or an MPI_Session_init (the world model and sessions share the
 * rank's tables). MPI_COMM_WORLD and MPI_COMM_SELF are live only inside
 * MPI_Init..MPI_Finalize; a session's communicators are made from groups. */
GPUMPI_FN void gp_rank_state_open(void) { gp_cs(); }

GPUMPI_FN int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gp_rank *me = gp_self();
    if (me->init_state != 0)
        return gp_fatal("MPI_Init", MPI_ERR_OTHER, "called twice (or after MPI_Finalize)");
    me->init_state = 1;
    gp_flag_set(GP_RF_INIT, 1);
    gp_rank_state_open();
    gp_comm_world_open(1);
    return MPI_SUCCESS;
}

/* A rank is one thread (a GPU thread cannot start others), so every level
 * is trivially honoured: there are never two threads of one rank in MPI. */
GPUMPI_FN int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    int rc = MPI_Init(argc, argv);
    gp_cs()->thread_level = level;
    *provided = level;
    return rc;
}

GPUMPI_FN int MPI_Query_thread(int *provided)
{
    GP_TRY(gp_check_initialized("MPI_Query_thread"));
    *provided = gp_cs()->thread_level;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Is_thread_main(int *flag)
{
    GP_TRY(gp_check_initialized("MPI_Is_thread_main"));
    *flag = 1;
    return MPI_SUCCESS;
}

/* Profiling control: there is no profiling layer to tell. */
GPUMPI_VARIADIC_FN int MPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Get_library_version(char *version, int *resultlen)
{
    int n = gp_snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "gpumpi (MPI %d.%d on one GPU, a rank per thread)",
                        MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
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
    GP_TRY(gp_attrs_finalize()); /* issue 9 part B (mpi3): attribute delete callbacks, while MPI still works */
    /* Every rank's messages must be delivered before any rank leaves. */
    MPI_Barrier(MPI_COMM_WORLD);
    me->init_state = 2;
    gp_flag_set(GP_RF_INIT, 0);
    gp_comm_world_open(0); /* sessions still open go on without them */
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
    gp_stdio_flush_rank(); /* this rank's output comes before the reason */
    char msg[128];
    int n = gp_snprintf(msg, sizeof msg, "rank %d: MPI_Abort called with error code %d\n", gp_thread_rank(),
                        errorcode);
    gp_host_call(GP_HOST_ABORT, errorcode, msg, (size_t)n);
    for (;;) gp_end_this_rank(); /* the host ends the job */
    return MPI_SUCCESS;
}

/* MPI is usable on this rank: the world model is initialized, or a
 * session is open. (MPI_Initialized and MPI_Finalized answer for the
 * world model alone.) */
GPUMPI_FN int gp_check_initialized(const char *fn)
{
    if (gp_flag(GP_RF_INIT | GP_RF_SESSION)) return MPI_SUCCESS; /* the rank's flags are on chip; its gp_rank a trip to L2 */
    int st = gp_self()->init_state;
    return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_OTHER, "called %s", st ? "after MPI_Finalize" : "before MPI_Init");
}

GPUMPI_FN int gp_check_world(const char *fn)
{
    if (gp_flag(GP_RF_INIT)) return MPI_SUCCESS;
    if (!gp_flag(GP_RF_SESSION)) return gp_check_initialized(fn);
    return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COMM,
                  "MPI_COMM_WORLD and MPI_COMM_SELF exist only between MPI_Init and MPI_Finalize, and this rank %s "
                  "(use a communicator made from a session's group: MPI_Comm_create_from_group)",
                  gp_self()->init_state ? "has called MPI_Finalize" : "only has sessions");
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
