/* gpumpi's device malloc (libc-shim/src/malloc.cu) against CUDA's device
 * malloc: every thread is a rank doing many small allocations and frees.
 * A standalone CUDA program (no launcher): it sets up the gp_world that
 * malloc.cu needs, an arena and the per-rank state, itself.
 *
 *   nvcc -std=c++17 -rdc=true -arch=sm_90 -O3 -maxrregcount=32 \
 *       -I runtime/include -I libc-shim/include -I runtime/src -I libc-shim/src \
 *       bench/malloc_bench.cu libc-shim/src/malloc.cu libc-shim/src/malloc_private.cu \
 *       libc-shim/src/format.cu libc-shim/src/strerror.cu libc-shim/src/string.cu -o malloc_bench
 *   ./malloc_bench [ranks=65536] [rounds=64] [live=8] [block=128]
 *
 * Each round a rank allocates `live` blocks of 16..256 bytes (sizes vary by
 * rank and round), writes a word into each, checks and frees them in
 * reverse order; a second pass frees in allocation order. One op = one
 * malloc + one free. Prints Mops/s for both allocators and both orders,
 * and "malloc_bench verified" when every block held its data and none was
 * NULL. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "gpumpi/shim_stdlib.h"
#include "libc_state.h"

__constant__ gp_world *gp_world_ptr;
__constant__ gp_world_hot gp_hot;
__constant__ int gp_block_ranks, gp_rank_base, gp_block_base, gp_sys_scope; /* platform.h: blocks of 256 ranks, one GPU */

/* format.cu's %m reads errno (each rank's own) and strerror.cu's table. */
__device__ int *gp_errno_location(void) { return &gp_self()->libc_errno; }
__device__ gp_libc_state *gp_libc(void) { return 0; }

/* The two runtime services malloc.cu reaches on its rare paths. */
__device__ int gp_fatal(const char *fn, int errclass, const char *fmt, ...)
{
    printf("malloc_bench: fatal in %s (class %d): %s\n", fn, errclass, fmt);
    __trap();
    return errclass;
}
__device__ void gp_host_call(int op, int arg, const void *data, size_t len)
{
    (void)op, (void)arg;
    printf("%.*s", (int)len, (const char *)data);
}

#define MAX_LIVE 32

__device__ unsigned long long bad_count;

template <int GPUMPI>
__global__ void bench_kernel(int nranks, int rounds, int live, int block, int fifo)
{
    int rank = blockIdx.x * blockDim.x + threadIdx.x;
    if (rank >= nranks) return;
    void *p[MAX_LIVE];
    unsigned bad = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < live; i++) {
            size_t n = 16 + (size_t)((rank * 7 + r * 13 + i * 29) % (block * 2 - 15)); /* 16 .. 2*block */
            p[i] = GPUMPI ? gp_malloc(n) : malloc(n);
            if (!p[i]) {
                bad++;
                continue;
            }
            *(int *)p[i] = rank ^ (r * 64 + i);
        }
        for (int k = 0; k < live; k++) {
            int i = fifo ? k : live - 1 - k;
            if (!p[i]) continue;
            if (*(int *)p[i] != (rank ^ (r * 64 + i))) bad++;
            if (GPUMPI)
                gp_free(p[i]);
            else
                free(p[i]);
        }
    }
    if (bad) atomicAdd(&bad_count, bad);
}

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "malloc_bench: %s: %s\n", #x, cudaGetErrorString(e_));            \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static double run(int gpumpi, int nranks, int rounds, int live, int block, int fifo)
{
    int threads = 256, blocks = (nranks + threads - 1) / threads;
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    if (gpumpi)
        bench_kernel<1><<<blocks, threads>>>(nranks, rounds, live, block, fifo);
    else
        bench_kernel<0><<<blocks, threads>>>(nranks, rounds, live, block, fifo);
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    return (double)nranks * rounds * live / (ms * 1e-3) / 1e6;
}

int main(int argc, char **argv)
{
    int nranks = argc > 1 ? atoi(argv[1]) : 65536;
    int rounds = argc > 2 ? atoi(argv[2]) : 64;
    int live = argc > 3 ? atoi(argv[3]) : 8;
    int block = argc > 4 ? atoi(argv[4]) : 128;
    if (live > MAX_LIVE) live = MAX_LIVE;
    size_t arena = (size_t)nranks * live * (2 * block + 64) * 4 + ((size_t)256 << 20);

    /* gpumpi's heap: an arena and the per-rank free lists, as the launcher
     * sets them up (zeroed ranks, heap base and size) */
    gp_world hw;
    memset(&hw, 0, sizeof hw);
    hw.nranks = nranks;
    CK(cudaMalloc(&hw.ranks, sizeof(gp_rank) * (size_t)nranks));
    CK(cudaMemset(hw.ranks, 0, sizeof(gp_rank) * (size_t)nranks));
    CK(cudaMalloc(&hw.heap.base, arena));
    hw.heap.size = arena;
    gp_world *dw;
    CK(cudaMalloc(&dw, sizeof hw));
    CK(cudaMemcpy(dw, &hw, sizeof hw, cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(gp_world_ptr, &dw, sizeof dw));
    gp_world_hot hot = {hw.ranks, 0, 0, 0, nranks};
    CK(cudaMemcpyToSymbol(gp_hot, &hot, sizeof hot));
    int block_ranks = 256; /* run()'s blocks */
    CK(cudaMemcpyToSymbol(gp_block_ranks, &block_ranks, sizeof block_ranks));
    /* CUDA's heap: big enough for every live block at once */
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, arena));
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));

    printf("malloc_bench: %d ranks x %d rounds x %d live blocks of 16..%d bytes\n", nranks, rounds, live,
           2 * block);
    run(1, nranks, 1, live, block, 0); /* warm-up: first carves, module load */
    run(0, nranks, 1, live, block, 0);
    double g_lifo = run(1, nranks, rounds, live, block, 0), c_lifo = run(0, nranks, rounds, live, block, 0);
    double g_fifo = run(1, nranks, rounds, live, block, 1), c_fifo = run(0, nranks, rounds, live, block, 1);
    printf("%-28s %14s %14s\n", "order", "gpumpi Mops/s", "CUDA Mops/s");
    printf("%-28s %14.1f %14.1f\n", "free in reverse order", g_lifo, c_lifo);
    printf("%-28s %14.1f %14.1f\n", "free in allocation order", g_fifo, c_fifo);
    printf("malloc ranks=%d rounds=%d live=%d gpumpi_lifo_Mops=%.1f cuda_lifo_Mops=%.1f gpumpi_fifo_Mops=%.1f "
           "cuda_fifo_Mops=%.1f\n",
           nranks, rounds, live, g_lifo, c_lifo, g_fifo, c_fifo);
    unsigned long long bad;
    CK(cudaMemcpyFromSymbol(&bad, bad_count, sizeof bad));
    if (bad) {
        printf("malloc_bench: %llu blocks were NULL or lost their data\n", bad);
        return 1;
    }
    printf("malloc_bench verified\n");
    return 0;
}
