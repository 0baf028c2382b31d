/* The hot calls' fast paths, compiled into the program (converted code
 * gets this header through <mpi.h.cuh>), not called in the library.
 *
 * Why: a call into the library saves and restores the registers its
 * callee uses, on every path, the fast one included, and the program's
 * operands whose addresses it takes live on the stack. At 2,048 ranks per
 * SM every word a rank's stack sees per call costs
 * (bench/primitives/tree_barrier.cu): MPI_Allreduce's frame was 13 words.
 * On a message's path each frame is a few hundred cycles. Inline, a fast
 * path shares the caller's registers and its operands need no address;
 * the rare paths stay calls into the library, whose MPI_X are the same
 * inline bodies.
 *
 * Only the paths a program's own arguments can take see the program's
 * pointers. Before MPI_Init or after MPI_Finalize a call only reports
 * that, so there the fast paths call gp_check_world, which takes
 * none: a variable whose address reaches any call lives in memory on
 * every path, and a loop like `MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, ...)`
 * then stores x and loads s through the stack on every call.
 *
 * Each macro replaces calls only: a name without parentheses (a function
 * pointer) is still the library's function. A program built with
 * -DGPUMPI_NO_INLINE_CALLS calls the library for everything. */
#ifndef GPUMPI_INLINE_CALLS_H
#define GPUMPI_INLINE_CALLS_H

#include "shm_collectives.h"
#include "shm_rooted.h"
#include "p2p_inline.h"
#include "local_inline.h"

#define MPI_Allreduce(...) gp_allreduce_inline(__VA_ARGS__)
#define MPI_Barrier(...) gp_barrier_inline(__VA_ARGS__)
#define MPI_Bcast(...) (gp_regroup_mark(), gp_regrouped(gp_bcast_inline(__VA_ARGS__)))
#define MPI_Reduce(...) (gp_regroup_mark(), gp_regrouped(gp_reduce_inline(__VA_ARGS__)))
#define MPI_Send(...) gp_send_inline(__VA_ARGS__)
#define MPI_Recv(...) (gp_regroup_mark(), gp_regrouped(gp_recv_inline(__VA_ARGS__)))
#define MPI_Comm_rank(...) gp_comm_rank_inline(__VA_ARGS__)
#define MPI_Comm_size(...) gp_comm_size_inline(__VA_ARGS__)
#define MPI_Get_count(...) gp_get_count_inline(__VA_ARGS__)

#endif
