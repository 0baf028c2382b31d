/* Per-rank storage for the program's globals and static locals.
 *
 * The converter turns each such variable x into a template __gp_tmpl_x
 * (holding its initial value) and an offset __gp_off_x, and every use of x
 * into __gpu_global(x): rank r's copy lives at
 *     world->globals + r * world->globals_stride + __gp_off_x.
 * Each converted file registers its variables from a host constructor
 * before main runs; the launcher lays out one block per rank, sets the
 * offsets, and copies the templates into every rank's block (fixing up
 * pointers that an initializer aimed at another global's template). */
#ifndef GPUMPI_GLOBALS_H
#define GPUMPI_GLOBALS_H

#include "gpumpi/world.h"

typedef struct gp_global_desc {
    const void *tmpl;   /* the template: a symbol handle on the GPU backend */
    const void *offset; /* the size_t holding the offset: a symbol handle too */
    size_t size;
    size_t align;
    int relocate;       /* its initializer takes the address of a global */
    const char *name;   /* for messages */
} gp_global_desc;

#ifdef __cplusplus
extern "C" {
#endif
/* Called by each converted file before main; returns 0. */
int gp_register_globals(const gp_global_desc *vars, int n);
#ifdef __cplusplus
}
#endif

/* The start of the calling rank's block, set once when the rank starts:
 * on the GPU in the block's dynamic shared memory (one pointer per thread,
 * one shared-memory load per use instead of a chain of global loads), on
 * the threads backend in a thread-local variable. */
#if defined(GPUMPI_CUDA)
extern __shared__ char *gp_globals_bases[];
__device__ static __forceinline__ char *gp_globals_base(void) { return gp_globals_bases[threadIdx.x]; }
#elif defined(GPUMPI_THREADS)
extern __thread char *gp_threads_globals_base;
static inline char *gp_globals_base(void) { return gp_threads_globals_base; }
#endif
#if defined(GPUMPI_CUDA) || defined(GPUMPI_THREADS)
/* A rank's copy is its own: volatile (which C++ will not let a struct be
 * copied through) is dropped from the view of it. */
#ifdef __cplusplus
#include <type_traits>
#endif
#define __gpu_global(x) (*(std::remove_volatile<decltype(__gp_tmpl_##x)>::type *)(gp_globals_base() + __gp_off_##x))
#endif

/* The layout the launcher made, as the ranks see it (device memory on the
 * GPU backend); gp_globals_init_rank fills one rank's block from it. */
typedef struct gp_global_slot {
    const char *tmpl; /* template address as the ranks see it */
    size_t offset;
    size_t size;
    int relocate;
} gp_global_slot;

#ifdef __cplusplus
extern "C" {
#endif
GPUMPI_FN void gp_globals_init_rank(const gp_global_slot *slots, int n, char *block);
#ifdef __cplusplus
}
#endif

#endif
