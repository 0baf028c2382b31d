/* One range of GPU memory at the same address in every launcher process
 * of a job (the CUDA backend under mpiexec, docs/scale_out.md): each
 * process makes a piece on its own GPU, and every process maps every piece
 * at the same place and lets its GPU reach the whole range (over NVLink or
 * PCIe). Every pointer into it is then valid on every GPU of the job, as
 * the threads backend's shared segment is in every process. */
#ifndef GPUMPI_GPU_ARENA_H
#define GPUMPI_GPU_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over the launcher processes (host_mpi), on the current CUDA
 * device: this process's piece holds at least `mine` bytes, zero-filled,
 * which gp_arena_alloc hands out; on failure every process prints why and
 * exits. The pieces are of one size (the largest asked for), in process
 * order from the range's start: what every process allocates first, in
 * the same order and sizes, is one piece apart from process to process
 * (the arrays by rank, gp_world_hot.proc_stride). Returns the range's
 * start; *stride: the pieces' size. */
char *gp_arena_open(size_t mine, int proc, int nprocs, size_t *stride);

/* Zero-filled bytes from this process's piece, 256-byte aligned; NULL
 * (after saying what did not fit) when the piece is full. */
void *gp_arena_alloc(size_t bytes, const char *what);

#ifdef __cplusplus
}
#endif
#endif
