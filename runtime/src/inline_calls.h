/* The hot calls' fast paths, compiled into the program (converted code
 * gets this header through <mpi.h.cuh>), not called in the library.
 *
 * Why: at 2,048 ranks per SM every word a rank's stack sees per call
 * costs (bench/primitives/tree_barrier.cu), and a call into the library
 * saves and restores the registers its callee uses on every path, the
 * fast one included: MPI_Allreduce's frame was 13 words, and the
 * program's operands, whose addresses it took, lived on the stack too.
 * Inline, the fast path shares the caller's registers and its operands
 * need no address. The rare paths stay calls into the library.
 *
 * Each macro replaces calls only (a name without parentheses, such as a
 * function pointer, is still the library's function). A program built
 * with -DGPUMPI_NO_INLINE_CALLS calls the library for everything. */
#ifndef GPUMPI_INLINE_CALLS_H
#define GPUMPI_INLINE_CALLS_H

#include "shm_collectives.h"

#define MPI_Allreduce(...) gp_allreduce_inline(__VA_ARGS__)
#define MPI_Barrier(...) gp_barrier_inline(__VA_ARGS__)

#endif
