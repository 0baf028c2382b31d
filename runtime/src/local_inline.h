/* MPI_Comm_rank and MPI_Comm_size of the world, and MPI_Get_count of a
 * basic type, answered inline (a program gets them through
 * inline_calls.h): they send nothing, and a call into the library costs
 * more than the answer (a function that calls another saves and restores
 * its registers: 0.3 us a call for these, 0.6 for MPI_Get_count's 64-bit
 * division, on an H100). The rest is out of line (comm.cu,
 * types_query.cu). */
#ifndef GPUMPI_LOCAL_INLINE_H
#define GPUMPI_LOCAL_INLINE_H

#include "runtime.h"

GPUMPI_FN __noinline__ int gp_comm_rank_call(MPI_Comm comm, int *rank);
GPUMPI_FN __noinline__ int gp_comm_size_call(MPI_Comm comm, int *size);
GPUMPI_FN __noinline__ int gp_get_count_general(const MPI_Status *status, MPI_Datatype datatype, int *count);

GPUMPI_FN static __forceinline__ int gp_comm_rank_inline(MPI_Comm comm, int *rank)
{
    if (comm != MPI_COMM_WORLD) return gp_comm_rank_call(comm, rank);
    if (!gp_flag(GP_RF_INIT)) return gp_check_world("MPI_Comm_rank"); /* no pointer: inline_calls.h */
    *rank = gp_thread_rank();
    return MPI_SUCCESS;
}

GPUMPI_FN static __forceinline__ int gp_comm_size_inline(MPI_Comm comm, int *size)
{
    if (comm != MPI_COMM_WORLD) return gp_comm_size_call(comm, size);
    if (!gp_flag(GP_RF_INIT)) return gp_check_world("MPI_Comm_size"); /* no pointer: inline_calls.h */
    *size = gp_hot.nranks;
    return MPI_SUCCESS;
}

/* A count that fits 32 bits is divided in 32 bits: the 64-bit division
 * is a call. */
GPUMPI_FN static __forceinline__ int gp_get_count_inline(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    unsigned size = (unsigned)gp_basic_type_size(datatype);
    if (!size || !status || !count || (unsigned long long)status->gp_count_bytes > 0x7fffffffu)
        return gp_get_count_general(status, datatype, count);
    unsigned bytes = (unsigned)status->gp_count_bytes;
    *count = bytes % size ? MPI_UNDEFINED : (int)(bytes / size);
    return MPI_SUCCESS;
}

#endif
