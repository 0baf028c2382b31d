/* The GPU backend: one CUDA thread per rank, all co-resident, launched once
 * for the whole program. The host thread serves host calls while the kernel
 * runs and never makes a CUDA call that waits for it. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#include "backend.h"
#include "globals_layout.h"
#include "gpumpi/globals.h"
#include "gpumpi/launch.h"
#include "gpu_arena.h"
#include "host_mpi.h"
#include "host_service.h"
#include "launcher_procs.h"
#include "shared_segment.h"
#include "watchdog.h"

extern __constant__ gp_world *gp_world_ptr;
extern __constant__ gp_world_hot gp_hot;
extern __constant__ int gp_block_ranks, gp_rank_base, gp_block_base, gp_sys_scope;
extern char **environ;

/* The last `service` blocks run the copy service instead of ranks; this
 * process's ranks end before world rank rank_end. */
__global__ void gp_rank_kernel(int nranks, int rank_end, int service)
{
    int first_service = (int)gridDim.x - service;
    if ((int)blockIdx.x >= first_service) {
        gp_copy_service(((int)blockIdx.x - first_service) * (int)(blockDim.x / 32) + (int)(threadIdx.x / 32),
                        rank_end - gp_rank_base);
        return;
    }
    gp_shm_block_init();
    gp_regroup_block_init(nranks);
    __syncthreads();
    int rank = gp_thread_rank();
    if ((int)threadIdx.x >= gp_block_ranks || rank >= rank_end) return;
    gp_rank_chip none = {};
    none.regroup_wants = -1;
    none.regroup_t0 = (uint32_t)clock64(); /* its work before the first call counts from here */
    *gp_chip() = none;
    /* the runtime's tables of the rank and its private memory: local
     * memory at the bottom of its stack, live until the rank ends (the
     * stack limit includes both) */
    size_t private_bytes = gp_world_ptr->private_bytes;
    char *tables = (char *)alloca(GP_TABLES_BYTES);
    gp_private_init(private_bytes ? (char *)alloca(private_bytes) : NULL, private_bytes, tables, GP_TABLES_BYTES);
    gp_globals_bases[threadIdx.x] = gp_rank_globals();
    gp_rank_run();
}

/* Dynamic shared memory of a block: one globals-block pointer per thread,
 * then each thread's gp_rank_chip. */
static size_t rank_smem(int threads) { return (sizeof(char *) + sizeof(gp_rank_chip)) * (size_t)threads; }

/* A block's threads: its ranks (o->block) rounded up to whole warps, so
 * that the copy service, whose blocks have this shape, can run (1 MiB
 * ping-pong with -n 4 on an H100: 0.39 GB/s without it). */
static int block_threads(const gp_options *o) { return (o->block + 31) / 32 * 32; }

__global__ void gp_clock_origin_kernel(gp_world *w) { w->t0_ns = gp_clock_ns(); }

__global__ void gp_globals_init_kernel(const gp_global_slot *slots, int n, char *globals, size_t stride, int nranks)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nranks; r += gridDim.x * blockDim.x)
        gp_globals_init_rank(slots, n, globals + (size_t)r * stride);
}

#define CK(call)                                                                                      \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "gpumpi: %s failed: %s (%s:%d)\n", #call, cudaGetErrorString(e_), __FILE__, \
                    __LINE__);                                                                        \
            return 1;                                                                                 \
        }                                                                                             \
    } while (0)

/* Refuse a shape that cannot be resident all at once: a rank whose block was
 * never scheduled would leave the others waiting for ever. */
static int check_coresident(const gp_options *o, const cudaDeviceProp *p, long long *room)
{
    int per_sm = 0, threads = block_threads(o);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gp_rank_kernel, threads, rank_smem(threads)));
    long long max_blocks = (long long)per_sm * p->multiProcessorCount;
    *room = max_blocks;
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, gp_rank_kernel));
    if (o->verbose)
        fprintf(stderr,
                "gpumpi: %s, %d SMs; kernel uses %d registers/thread, %zu bytes local; %d blocks of %d threads per SM; "
                "launching %d blocks of %d rank%s (%d threads) for %d ranks\n",
                p->name, p->multiProcessorCount, fa.numRegs, fa.localSizeBytes, per_sm, threads, o->grid, o->block,
                o->block == 1 ? "" : "s", threads, o->nranks);
    if (threads > p->maxThreadsPerBlock || per_sm == 0) {
        fprintf(stderr, "gpumpi: cannot run blocks of %d threads on %s (at most %d per block%s)\n", threads, p->name,
                p->maxThreadsPerBlock, per_sm == 0 ? ", fewer with this kernel's registers" : "");
        return 2;
    }
    if (o->grid > max_blocks) {
        int by_threads = p->maxThreadsPerMultiProcessor / threads;
        int by_regs = fa.numRegs ? p->regsPerMultiprocessor / (fa.numRegs * threads) : per_sm;
        const char *limit = per_sm == p->maxBlocksPerMultiProcessor              ? "blocks per SM"
                            : per_sm == by_regs && by_regs < by_threads          ? "registers per SM"
                            : per_sm == by_threads                                ? "threads per SM"
                                                                                  : "shared memory per SM";
        fprintf(stderr,
                "gpumpi: cannot run %d ranks as %d blocks of %d: all ranks must be resident at once, and %s holds at "
                "most %lld blocks of %d threads (%d SMs x %d blocks; limited by %s: %d registers/thread, %d threads/SM). "
                "Use at most %lld ranks.\n",
                o->nranks, o->grid, o->block, p->name, max_blocks, threads, p->multiProcessorCount, per_sm, limit,
                fa.numRegs, p->maxThreadsPerMultiProcessor, max_blocks * o->block);
        return 2;
    }
    return 0;
}

/* What the CUDA runtime is left of the free memory, beside the heap and
 * local memory: a tenth, at least 512 MiB. */
static size_t cuda_runtime_spare(size_t free_bytes)
{
    return free_bytes / 10 > ((size_t)512 << 20) ? free_bytes / 10 : ((size_t)512 << 20);
}

/* Local memory is what the GPU sets aside for every thread it can hold
 * (not only ours), per thread at most this: 512 KiB was refused on an H200. */
#define GP_LOCAL_MOST ((size_t)480 << 10)

/* The stack and each rank's private memory (--private) are one reservation
 * of local memory (cudaLimitStackSize): the private memory sits at the
 * bottom of the stack (alloca in gp_rank_kernel). --private auto (the
 * default) is a quarter of the free memory over every thread the GPU
 * holds (128 KiB on an H200, 72 KiB on an H100), within GP_LOCAL_MOST and
 * what --heap leaves, and shrinks while the GPU refuses the reservation:
 * no more, because the GPU sets it aside whatever the job's rank count.
 * An eighth (36 KiB on an H100, malloc blocks up to 18 KiB there) left
 * heat n 512's grids at 65,536 ranks (26 KB each) in the shared heap:
 * 1.25 s against 0.42 s with 96 KiB (session 27, bench/README.md). */
static int reserve_local_memory(gp_options *o, const cudaDeviceProp *p)
{
    size_t threads = (size_t)p->maxThreadsPerMultiProcessor * (size_t)p->multiProcessorCount;
    int automatic = o->private_bytes == GP_PRIVATE_AUTO;
    if (automatic) {
        size_t free_bytes = 0, total = 0;
        CK(cudaMemGetInfo(&free_bytes, &total));
        size_t budget = free_bytes / 4;
        if (o->heap) { /* what the heap the user asked for, the stacks and the CUDA runtime leave */
            size_t taken = o->heap + cuda_runtime_spare(free_bytes) + (o->stack + GP_TABLES_BYTES) * threads;
            size_t left = free_bytes > taken ? free_bytes - taken : 0;
            if (left < budget) budget = left;
        }
        size_t share = budget / threads, most = GP_LOCAL_MOST > o->stack ? GP_LOCAL_MOST - o->stack : 0;
        o->private_bytes = (share < most ? share : most) & ~(size_t)4095;
        if (o->private_bytes < GP_PRIVATE_MIN_BYTES) o->private_bytes = 0;
    }
    for (;;) {
        size_t local = o->stack + GP_TABLES_BYTES + 16 + (o->private_bytes ? o->private_bytes + 16 : 0); /* alloca may align up */
        cudaError_t se = cudaDeviceSetLimit(cudaLimitStackSize, local);
        if (se == cudaSuccess) break;
        cudaGetLastError();
        if (automatic && o->private_bytes) {
            o->private_bytes = o->private_bytes / 2 & ~(size_t)4095;
            if (o->private_bytes < GP_PRIVATE_MIN_BYTES) o->private_bytes = 0;
            continue;
        }
        double gib = (double)local * (double)threads / (1 << 30);
        fprintf(stderr,
                "gpumpi: cannot reserve %zu bytes of stack%s per rank (--stack%s): the GPU sets it aside for all "
                "%d x %d threads it can hold, %.1f GiB: %s\n",
                local, o->private_bytes ? " and private memory" : "", o->private_bytes ? ", --private" : "",
                p->multiProcessorCount, p->maxThreadsPerMultiProcessor, gib, cudaGetErrorString(se));
        return 2;
    }
    if (o->verbose) {
        gp_report_rank_memory(o->stack, o->private_bytes, "local memory, interleaved across a warp");
        fprintf(stderr, "gpumpi: stack, runtime tables and private memory are reserved for all %zu threads the GPU holds: %.1f GiB\n",
                threads, (double)(o->stack + GP_TABLES_BYTES + o->private_bytes) * (double)threads / (1 << 30));
    }
    return 0;
}

/* The block size when -b is not given. Blocks of 128 spread a few thousand
 * ranks over every SM. Once there are ranks enough for two blocks per SM
 * of a larger size, larger blocks make the on-chip collectives faster
 * (fewer blocks in the tree, fewer climbers per SM): over 270,336 ranks on
 * an H100, MPI_Barrier took 77 us in blocks of 128, 39 in blocks of 512
 * and 31 in blocks of 1024; an 8-byte MPI_Allreduce 94, 68 and 63 us.
 * Only sizes that keep as many threads resident per SM. */
static int default_block(const gp_options *o, const cudaDeviceProp *p)
{
    int base = 0, block = 128;
    if (o->block || o->grid) return 128; /* gp_shape_ranks keeps what was given */
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&base, gp_rank_kernel, 128, rank_smem(128)) != cudaSuccess)
        return 128;
    for (int b = 256; b <= 1024; b *= 2) {
        int per_sm = 0;
        if ((long long)o->nranks < 2LL * p->multiProcessorCount * b) break;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gp_rank_kernel, b, rank_smem(b)) != cudaSuccess ||
            per_sm * b < base * 128)
            break;
        block = b;
    }
    return block;
}

/* A job of few ranks runs one rank a block, each alone in its warp: the
 * lanes of a warp issue in turn when their ranks' code diverges, and MPI
 * code diverges (a root sends, the others wait). MPICH's nonblocking3 on
 * an H200: 41.2 s at 5 ranks and 103.9 s at 10 packed in one warp, 12.0 s
 * and 18.5 s one to a warp. Up to four ranks an SM, one on each of its
 * warp schedulers; past that the ranks share warps as -b says or
 * default_block chooses (a compute-bound rank loses little to warp-mates
 * running the same code, and full occupancy needs every lane). */
static void spread_small_job(gp_options *o, const cudaDeviceProp *p)
{
    if (o->nranks > 4 * p->multiProcessorCount) return;
    o->block = 1;
    o->grid = o->nranks;
}

/* L1 and shared memory are one array per SM, split when a kernel starts.
 * The rank kernel needs little shared memory (its blocks' chips and regroup
 * words), while its ranks' stacks, tables and private memory are local
 * memory, which L1 caches: ask for no more shared memory than the blocks
 * an SM holds of this launch need (a hint the driver rounds up to a split
 * it has). At 32,768 ranks on an H200 that took 5-8% off heat, cg, nbody,
 * bucketsort and the halo exchange (bench/README.md, session 32); a GPU
 * full of ranks needs most of the shared memory anyway. GPUMPI_CARVEOUT
 * (a percent of the most shared memory an SM has, or "driver": no hint)
 * sets it by hand, to measure. */
static int prefer_l1(int verbose, const cudaDeviceProp *p, int threads, int blocks)
{
    const char *e = getenv("GPUMPI_CARVEOUT");
    if (e && !strcmp(e, "driver")) return 0;
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, gp_rank_kernel));
    long long per_sm = (blocks + p->multiProcessorCount - 1) / p->multiProcessorCount;
    long long need = per_sm * ((long long)rank_smem(threads) + (long long)fa.sharedSizeBytes +
                               (long long)p->reservedSharedMemPerBlock);
    int pct = e ? atoi(e) : (int)((need * 100 + p->sharedMemPerMultiprocessor - 1) / p->sharedMemPerMultiprocessor);
    if (pct > 100) pct = 100;
    CK(cudaFuncSetAttribute(gp_rank_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, pct));
    int fit = 0; /* the hint must leave every block room, or the cooperative launch is refused */
    if (!e && (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, gp_rank_kernel, threads, rank_smem(threads)) !=
                   cudaSuccess ||
               (long long)fit * p->multiProcessorCount < blocks)) {
        CK(cudaFuncSetAttribute(gp_rank_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
        pct = -1;
    }
    if (verbose)
        fprintf(stderr, "gpumpi: shared memory %lld bytes an SM for %lld block%s; the rest of L1's array for caching "
                        "(carveout hint %d%%%s)\n",
                need, per_sm, per_sm == 1 ? "" : "s", pct, pct < 0 ? ": none, the driver's choice" : "");
    return 0;
}

/* The host's part while the ranks run: their host calls, the watchdog. */
static void serve_once(void)
{
    int found = gp_host_service_poll();
    gp_watchdog_check();
    gp_host_service_idle(found);
}

/* The same on a thread of its own (--service-thread), until the kernel ends. */
static int ranks_done;
static void *service_loop(void *unused)
{
    (void)unused;
    gp_host_service_low_latency();
    while (!__atomic_load_n(&ranks_done, __ATOMIC_ACQUIRE)) serve_once();
    return NULL;
}

static void *dev_zalloc(size_t bytes, const char *what);

/* This launcher process among the job's (launcher_procs.h): with several,
 * each runs its own GPU's ranks of one world, built in one range of GPU
 * memory at the same address in every process (gpu_arena.h). */
static gp_procs procs = {0, 1};

/* Zeroed device memory that every GPU of the job reaches: alone, plain
 * device memory; with several processes, this process's piece of the
 * arena (process 0's holds the world's shared arrays). */
static void *job_zalloc(size_t bytes, const char *what)
{
    return procs.size > 1 ? gp_arena_alloc(bytes ? bytes : 1, what) : dev_zalloc(bytes, what);
}

/* Each rank's copy of the globals: offsets into the converted files'
 * __gp_off_ symbols, templates copied by a kernel (before the ranks start,
 * so waiting for it here is fine). */
static int setup_globals(gp_world *hw, int first, int nranks, int verbose)
{
    int n;
    const gp_global_desc *g = gp_registered_globals(&n);
    size_t *off = (size_t *)calloc((size_t)n + 1, sizeof(size_t));
    gp_global_slot *slots = (gp_global_slot *)calloc((size_t)n + 1, sizeof(gp_global_slot));
    hw->globals_stride = gp_globals_layout(off);
    for (int i = 0; i < n; i++) {
        void *tmpl;
        cudaError_t e = cudaGetSymbolAddress(&tmpl, g[i].tmpl);
        if (e == cudaSuccess) e = cudaMemcpyToSymbol(g[i].offset, &off[i], sizeof(size_t));
        if (e != cudaSuccess) {
            fprintf(stderr, "gpumpi: cannot set up the global '%s': %s\n", g[i].name, cudaGetErrorString(e));
            return 1;
        }
        slots[i].tmpl = (const char *)tmpl;
        slots[i].offset = off[i];
        slots[i].size = g[i].size;
        slots[i].relocate = g[i].relocate;
    }
    gp_global_slot *dslots = (gp_global_slot *)dev_zalloc(sizeof(gp_global_slot) * ((size_t)n + 1), "the globals table");
    if (!dslots) return 1;
    CK(cudaMemcpy(dslots, slots, sizeof(gp_global_slot) * (size_t)n, cudaMemcpyHostToDevice));
    free(off);
    free(slots);
    hw->globals_private = gp_globals_go_private(hw->globals_stride, hw->private_bytes, verbose);
    if (hw->globals_private) { /* the ranks copy the templates as they start */
        hw->global_slots = dslots;
        hw->nglobal_slots = n;
        return 0;
    }
    /* this process's ranks' blocks: in its piece of the arena with several
     * GPUs (a send buffer among them is read from the other GPUs) */
    size_t bytes = hw->globals_stride * (size_t)nranks;
    char *mine = (char *)job_zalloc(bytes, "per-rank globals");
    if (!mine) return 1;
    hw->globals = mine - hw->globals_stride * (size_t)first; /* indexed by world rank */
    if (n > 0) {
        gp_globals_init_kernel<<<(nranks + 255) / 256, 256>>>(dslots, n, mine, hw->globals_stride, nranks);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    CK(cudaFree(dslots));
    return 0;
}

/* cudaMalloc + zero; returns the device pointer or NULL after a message. */
static void *dev_zalloc(size_t bytes, const char *what)
{
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e == cudaSuccess) e = cudaMemset(p, 0, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        fprintf(stderr, "gpumpi: cannot allocate %zu bytes of device memory for %s: %s\n", bytes, what,
                cudaGetErrorString(e));
        return NULL;
    }
    return p;
}

/* argv or environ as a NULL-terminated array in device memory. */
static char **strings_to_device(int n, char **v, const char *what)
{
    size_t bytes = gp_argv_pack(n, v, NULL, 0);
    char *dev = (char *)dev_zalloc(bytes, what);
    char *host = (char *)malloc(bytes);
    if (!dev || !host) return NULL;
    gp_argv_pack(n, v, host, (uintptr_t)dev);
    cudaError_t e = cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice);
    free(host);
    if (e != cudaSuccess) {
        fprintf(stderr, "gpumpi: cannot copy %s to the GPU: %s\n", what, cudaGetErrorString(e));
        return NULL;
    }
    return (char **)dev;
}

/* mpirun-style status for a fault that stopped the kernel: 128 + the signal
 * a CPU process would have died of. */
static int fault_status(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorHardwareStackError: /* stack overflow */
        return 128 + 11;              /* SIGSEGV */
    case cudaErrorAssert:
    case cudaErrorLaunchFailure:      /* a trap instruction ends up here */
        return 128 + 6;               /* SIGABRT */
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidPc:
        return 128 + 4;               /* SIGILL */
    case cudaErrorLaunchTimeout:
        return 128 + 9;               /* SIGKILL: the display watchdog killed it */
    default:
        return 1;
    }
}

/* Pinned host memory the GPU reads and writes while the kernel runs;
 * returns the host pointer and sets *dev to the device's view. */
static void *mapped_zalloc(size_t bytes, void **dev, const char *what)
{
    void *h = NULL;
    cudaError_t e = cudaHostAlloc(&h, bytes ? bytes : 1, cudaHostAllocMapped);
    if (e == cudaSuccess) {
        memset(h, 0, bytes ? bytes : 1);
        e = cudaHostGetDevicePointer(dev, h, 0);
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "gpumpi: cannot allocate %zu bytes of mapped host memory for %s: %s\n", bytes, what,
                cudaGetErrorString(e));
        return NULL;
    }
    return h;
}


/* This process's part of the arrays by world rank (ranks first .. first +
 * local - 1), from `alloc`, set in hw as those ranks index them
 * (gp_world_hot.ranks). With several processes each calls this first in
 * its piece of the arena, so every part is one piece from the next: a
 * rank's own state, slots and inbox are on its own GPU. */
static int make_rank_parts(gp_world *hw, int first, int local, void *(*alloc)(size_t, const char *))
{
    gp_rank *ranks = (gp_rank *)alloc(sizeof(gp_rank) * (size_t)local, "per-rank state");
    gp_msg *slots = (gp_msg *)alloc(sizeof(gp_msg) * GP_SLOTS_PER_RANK * (size_t)local, "message slots");
    gp_inbox *inbox = (gp_inbox *)alloc(sizeof(gp_inbox) * (size_t)local, "inboxes");
    if (!ranks || !slots || !inbox) return 1;
    hw->ranks = ranks - first;
    hw->slots = slots - (size_t)first * GP_SLOTS_PER_RANK;
    hw->inbox = inbox - first;
    return 0;
}

/* The world's other arrays every rank of the job reaches, from `alloc`
 * (process 0 makes them; with several processes the others get their
 * addresses from it). */
static int make_shared_world(gp_world *hw, int n, int stats, void *(*alloc)(size_t, const char *))
{
    hw->exit_codes = (int *)alloc(sizeof(int) * n, "exit codes");
    hw->exited = (uint32_t *)alloc(sizeof(uint32_t) * n, "exit flags");
    hw->tree.values = (char *)alloc(((size_t)hw->tree.all_inputs + 1) * GP_TREE_BYTES, "the collectives tree");
    if (hw->tree.values) hw->tree.result = (uint64_t *)(hw->tree.values + (size_t)hw->tree.all_inputs * GP_TREE_BYTES);
    uint32_t *counts = (uint32_t *)alloc(sizeof(uint32_t) * gp_tree_counts_len(&hw->tree), "the collectives tree");
    gp_tagged *tagged = (gp_tagged *)alloc(sizeof(gp_tagged) * gp_tree_tagged_len(&hw->tree), "the collectives tree");
    if (counts && tagged) gp_tree_carve(&hw->tree, counts, tagged);
    hw->rooted.counts = (uint32_t *)alloc(sizeof(uint32_t) * gp_rooted_counts_len(&hw->rooted), "the broadcast tree");
    hw->rooted.values = (uint64_t *)alloc(sizeof(uint64_t) * gp_rooted_values_len(&hw->rooted), "the broadcast tree");
    hw->rooted.slots = (gp_rooted_slot *)alloc(sizeof(gp_rooted_slot) * GP_ROOTED_SLOTS, "the broadcast tree");
    if (stats) hw->stats = (gp_rank_stats *)alloc(sizeof(gp_rank_stats) * (size_t)n, "--stats");
    hw->ctx_counter = (uint32_t *)alloc(sizeof(uint32_t), "the context ids");
    return !hw->exit_codes || !hw->exited || !hw->tree.values ||
           !hw->tree.counts || !hw->tree.word_in || !hw->rooted.counts || !hw->rooted.values || !hw->rooted.slots ||
           (stats && !hw->stats) || !hw->ctx_counter;
}

/* What make_shared_world takes from an arena piece: the same calls,
 * counted (256-byte aligned each, as gp_arena_alloc carves them). */
static size_t counted_bytes;
static void *count_bytes(size_t bytes, const char *what)
{
    (void)what;
    counted_bytes += (bytes + 255) & ~(size_t)255;
    return (void *)(uintptr_t)256; /* never dereferenced */
}
static size_t shared_bytes(const gp_world *hw, int n, int stats, int local, int leader)
{
    gp_world scratch = *hw;
    counted_bytes = 0;
    make_rank_parts(&scratch, 0, local, count_bytes);
    if (leader) make_shared_world(&scratch, n, stats, count_bytes);
    return counted_bytes;
}

/* What the globals take outside private memory for this process's ranks. */
static size_t globals_bytes(size_t private_bytes, int local)
{
    size_t stride = gp_globals_layout(NULL);
    return gp_globals_go_private(stride, private_bytes, 0) ? 0 : stride * (size_t)local;
}

int gp_backend_run(gp_options *o, int **codes_out, gp_rank_stats **stats_out)
{
    cudaDeviceProp p;
    int ndev = 0;
    *stats_out = NULL;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "gpumpi: no CUDA GPU found; build with --backend=threads to run on host threads\n");
        return 1;
    }
    procs = gp_procs_start(o);
    int dev = procs.size > 1 ? (o->device + procs.rank) % ndev : o->device; /* one GPU a launcher process */
    if (dev >= ndev) {
        fprintf(stderr, "gpumpi: --device %d: there %s only %d CUDA device%s (0-%d)\n", dev, ndev == 1 ? "is" : "are",
                ndev, ndev == 1 ? "" : "s", ndev - 1);
        return 2;
    }
    CK(cudaGetDeviceProperties(&p, dev));
    CK(cudaSetDevice(dev));
    CK(cudaFree(0));
    int shape_chosen = !o->block && !o->grid;
    gp_shape_ranks(o, default_block(o, &p));
    if (shape_chosen) spread_small_job(o, &p);
    int local = o->nranks, first = procs.rank * local, n = local * procs.size, leader = procs.rank == 0;
    if (o->verbose && procs.size > 1) /* the rank-to-GPU map, a line from each process */
        fprintf(stderr, "gpumpi: world ranks %d to %d run on GPU %d (%s, PCI %04x:%02x:%02x) of launcher process %d\n",
                first, first + local - 1, dev, p.name, p.pciDomainID, p.pciBusID, p.pciDeviceID, procs.rank);
    if (procs.size > 1 && local % o->block) {
        if (leader)
            fprintf(stderr, "gpumpi: with several GPUs each runs whole blocks: -n %d is not a multiple of the block "
                    "size %d (give -b, or an -n that is)\n", local, o->block);
        gp_host_mpi_barrier();
        exit(2);
    }
    long long max_blocks = 0;
    int rc = check_coresident(o, &p, &max_blocks);
    if (rc) return rc;
    /* The copy service takes extra blocks of whole warps, up to 32 warps,
     * as many as fit beside the ranks (with several GPUs each has its own,
     * for its own ranks' receives). */
    int threads = block_threads(o);
    long long room = max_blocks - o->grid, want = (1024 + threads - 1) / threads;
    int service = (int)(room < want ? room : want);
    if (o->verbose && leader) {
        if (service)
            fprintf(stderr, "gpumpi: copy service: %d extra block%s (%d warps)\n", service, service > 1 ? "s" : "",
                    service * (threads / 32));
        else
            fprintf(stderr, "gpumpi: copy service: off (no room for one more block of whole warps)\n");
    }
    rc = reserve_local_memory(o, &p);
    if (rc) return rc;

    gp_world hw;
    memset(&hw, 0, sizeof hw);
    hw.nranks = n;
    hw.private_bytes = o->private_bytes;
    gp_tree_layout(&hw.tree, n / o->block + (n % o->block != 0)); /* one input per block */
    gp_rooted_layout(&hw.rooted, n);
    /* beside the heap: the world's shared arrays (process 0) and the globals */
    size_t beside = shared_bytes(&hw, n, o->stats, local, leader) + globals_bytes(o->private_bytes, local);
    if (!o->heap) { /* most of what is left, keeping some for the CUDA runtime */
        size_t free_bytes = 0, total = 0;
        CK(cudaMemGetInfo(&free_bytes, &total));
        size_t keep = cuda_runtime_spare(free_bytes) + beside;
        o->heap = free_bytes > 2 * keep ? free_bytes - keep : free_bytes / 2;
    }
    size_t proc_stride = 0;
    char *arena = procs.size > 1 ? gp_arena_open(beside + o->heap + 4096, procs.rank, procs.size, &proc_stride) : NULL;
    if (make_rank_parts(&hw, first, local, job_zalloc)) return 1;
    /* the runtime finds another process's part one piece away (gp_rank_elem) */
    if (procs.size > 1 && (char *)(hw.ranks + first) != arena + (size_t)procs.rank * proc_stride) {
        fprintf(stderr, "gpumpi: internal error: the ranks' state is not at the start of this GPU's piece\n");
        return 1;
    }
    if (leader && make_shared_world(&hw, n, o->stats, job_zalloc)) return 1;
    if (procs.size > 1) {
        gp_world mine = hw;
        gp_host_mpi_bcast(&hw, sizeof hw, 0); /* the shared arrays' addresses, the same in every process */
        hw.ranks = mine.ranks, hw.slots = mine.slots, hw.inbox = mine.inbox;
        gp_end_job_exit = gp_procs_end_job;
        gp_host_service_whole_lines();
    }
    hw.argc = o->app_argc;
    snprintf(hw.processor_name, sizeof hw.processor_name, "%s", p.name);
    int envc = 0;
    while (environ[envc]) envc++;
    hw.argv = strings_to_device(o->app_argc, o->app_argv, "the program arguments");
    hw.envp = strings_to_device(envc, environ, "the environment");
    if (service) hw.copy_jobs = (gp_copy_job *)dev_zalloc(sizeof(gp_copy_job) * GP_COPY_JOBS, "copy jobs");
    gp_world *w = (gp_world *)dev_zalloc(sizeof(gp_world), "the world");
    if (!hw.argv || !hw.envp || (service && !hw.copy_jobs) || !w) return 1;
    if (setup_globals(&hw, first, local, leader && o->verbose)) return 1;
    if (o->verbose && leader) fprintf(stderr, "gpumpi: shared heap %zu bytes (--heap)%s\n", o->heap,
                                      procs.size > 1 ? " on each GPU" : "");
    hw.heap.base = (char *)job_zalloc(o->heap, "the heap (--heap)");
    hw.heap.size = o->heap;
    if (!hw.heap.base) return 1;

    gp_host_cell *cells_host;
    CK(cudaHostAlloc((void **)&cells_host, sizeof(gp_host_cell) * GP_HOST_CELLS, cudaHostAllocMapped));
    gp_host_service_init(cells_host, n, o->tag_output);
    CK(cudaHostGetDevicePointer((void **)&hw.host_cells, cells_host, 0));
    /* the watchdog's records: host memory every GPU of the job writes and
     * process 0's watchdog reads, over every rank */
    gp_block_rec *recs_host;
    if (procs.size > 1) {
        size_t bytes = (sizeof(gp_block_rec) * (size_t)n + 4095) & ~(size_t)4095;
        recs_host = (gp_block_rec *)gp_segment_open(bytes, procs.rank);
        gp_host_mpi_barrier(); /* process 0's zeros first */
        CK(cudaHostRegister(recs_host, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable));
        CK(cudaHostGetDevicePointer((void **)&hw.block_recs, recs_host, 0));
    } else {
        recs_host = (gp_block_rec *)mapped_zalloc(sizeof(gp_block_rec) * (size_t)n, (void **)&hw.block_recs, "the watchdog");
        if (!recs_host) return 1;
    }
    gp_watchdog_init(recs_host, n, leader ? o->timeout : 0, leader ? o->time_limit : 0);

    CK(cudaMemcpy(w, &hw, sizeof hw, cudaMemcpyHostToDevice));
    CK(cudaMemcpyToSymbol(gp_world_ptr, &w, sizeof w));
    gp_world_hot hot = {hw.ranks, hw.slots, hw.inbox, hw.stats, hw.nranks, hw.rooted.shape.all_inputs,
                        hw.rooted.slots, hw.rooted.counts, hw.rooted.values, 0, proc_stride, local, procs.rank, arena};
    {
        int khz = 0;
        CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
        double cycles = o->regroup_us * 1e-3 * khz;
        hot.regroup_cycles = cycles > 4e9 ? 4000000000u : (uint32_t)cycles;
        if (o->verbose && leader)
            fprintf(stderr, "gpumpi: warps regroup after blocking calls for up to %g us (--regroup)\n", o->regroup_us);
    }
    CK(cudaMemcpyToSymbol(gp_hot, &hot, sizeof hot));
    gp_clock_origin_kernel<<<1, 1>>>(w);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    {
        /* the host's clocks at the ranks' clock origin: time(), gettimeofday(), clock_gettime() */
        struct timespec mono, real;
        clock_gettime(CLOCK_MONOTONIC, &mono);
        clock_gettime(CLOCK_REALTIME, &real);
        uint64_t origin[2] = {(uint64_t)real.tv_sec * 1000000000ull + (uint64_t)real.tv_nsec,
                              (uint64_t)mono.tv_sec * 1000000000ull + (uint64_t)mono.tv_nsec};
        static_assert(offsetof(gp_world, monotonic0_ns) == offsetof(gp_world, realtime0_ns) + 8, "world layout");
        CK(cudaMemcpy((char *)w + offsetof(gp_world, realtime0_ns), origin, sizeof origin, cudaMemcpyHostToDevice));
    }
    int block_base = first / o->block, rank_end = first + local;
    CK(cudaMemcpyToSymbol(gp_block_ranks, &o->block, sizeof o->block));
    CK(cudaMemcpyToSymbol(gp_rank_base, &first, sizeof first));
    CK(cudaMemcpyToSymbol(gp_block_base, &block_base, sizeof block_base));
    /* the memory model orders one GPU's writes for another at system
     * scope only (platform.h); GPUMPI_SCOPE=device keeps device scope
     * there too, to measure what it costs */
    const char *scope = getenv("GPUMPI_SCOPE");
    int sys_scope = procs.size > 1 && !(scope && !strcmp(scope, "device"));
    CK(cudaMemcpyToSymbol(gp_sys_scope, &sys_scope, sizeof sys_scope));
    if (procs.size > 1) gp_host_mpi_barrier(); /* every GPU's world is ready before any rank sends */

    /* From here on nothing may wait for the kernel: a non-blocking stream,
     * and only cudaStreamQuery while it runs. A cooperative launch fails
     * instead of starting blocks that cannot all be resident. */
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    if (prefer_l1(o->verbose && leader, &p, threads, o->grid + service)) return 1;
    void *args[] = {&n, &rank_end, &service};
    CK(cudaLaunchCooperativeKernel((void *)gp_rank_kernel, dim3(o->grid + service), dim3(threads), args,
                                   rank_smem(threads), s));
    cudaError_t st;
    if (o->service_thread) {
        /* --service-thread: the loop below on a thread of its own; this one
         * only watches the stream (under ncu its launch returned only now) */
        pthread_t t;
        if (pthread_create(&t, NULL, service_loop, NULL) != 0) {
            fprintf(stderr, "gpumpi: --service-thread: cannot start a thread\n");
            return 1;
        }
        while ((st = cudaStreamQuery(s)) == cudaErrorNotReady) usleep(200);
        __atomic_store_n(&ranks_done, 1, __ATOMIC_RELEASE);
        pthread_join(t, NULL);
    } else {
        gp_host_service_low_latency();
        while ((st = cudaStreamQuery(s)) == cudaErrorNotReady) serve_once();
    }
    gp_host_service_poll();
    gp_host_service_flush(); /* what the last poll gathered */
    if (st != cudaSuccess) {
        /* A device fault (illegal address, trap, failed device assert, stack
         * overflow) ends every rank at once. Output already in the host-call
         * ring still goes out first; the GPU does not say which thread
         * faulted. */
        char reason[512];
        snprintf(reason, sizeof reason,
                 "gpumpi: the GPU stopped the ranks: %s (%s); the job ends with status %d. The GPU does not say "
                 "which rank faulted: run it under compute-sanitizer to find out.\n",
                 cudaGetErrorString(st), cudaGetErrorName(st), fault_status(st));
        gp_end_job(fault_status(st), reason);
    }
    if (procs.size > 1) {
        /* process 0's watchdog looks at every rank of the job until all
         * have returned (its own may be done while others are stuck) */
        for (int all = 0; leader && !all;) {
            all = 1;
            for (int r = 0; r < n && all; r++)
                all = __atomic_load_n((uint64_t *)&recs_host[r].state, __ATOMIC_ACQUIRE) == GP_REC_EXITED;
            if (!all) {
                gp_watchdog_check();
                usleep(1000);
            }
        }
        gp_host_mpi_barrier();
    }
    int *codes = (int *)malloc(sizeof(int) * n);
    uint32_t *exited = (uint32_t *)malloc(sizeof(uint32_t) * n);
    CK(cudaMemcpy(codes, hw.exit_codes, sizeof(int) * n, cudaMemcpyDefault));
    CK(cudaMemcpy(exited, hw.exited, sizeof(uint32_t) * n, cudaMemcpyDefault));
    for (int r = 0; r < n; r++)
        if (!exited[r]) codes[r] = 1; /* ended without returning: should not happen */
    free(exited);
    *codes_out = codes;
    if (o->stats && leader) {
        gp_rank_stats *st_host = (gp_rank_stats *)malloc(sizeof(gp_rank_stats) * (size_t)n);
        CK(cudaMemcpy(st_host, hw.stats, sizeof(gp_rank_stats) * (size_t)n, cudaMemcpyDefault));
        *stats_out = st_host;
    }
    if (procs.size > 1) {
        o->nranks = n; /* main judges the whole job, the same in every process */
        if (!leader) o->verbose = 0;
        gp_host_mpi_barrier(); /* nobody unmaps a GPU's memory another still reads */
        gp_procs_finish();
    }
    return 0;
}
