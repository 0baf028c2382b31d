/* The world barrier's structure alone, without the MPI runtime around it:
 * every thread is a rank and loops over barriers made as shm_collectives.cu
 * makes them (a ticket in shared memory, the block's last arriver climbs a
 * fan-in-32 tree of counters in global memory, the others wait for the
 * block's release), next to cooperative groups' grid.sync() as the floor.
 * Tells whether a slow barrier at full occupancy is the structure's cost
 * or the runtime's. A developer's diagnostic:
 *   nvcc -O2 -arch=sm_90 bench/primitives/tree_barrier.cu -o tree_barrier
 *   ./tree_barrier [BLOCKS=2112] [THREADS=128] [ITERS=200]
 * prints, per way of waiting, microseconds per barrier. */
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda/atomic>

namespace cg = cooperative_groups;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> dref;
typedef cuda::atomic_ref<unsigned, cuda::thread_scope_block> bref;

#define FANIN 32
#define MAX_LEVELS 6
struct tree {
    int levels, inputs[MAX_LEVELS], base[MAX_LEVELS];
    unsigned *counts, *release;
};

enum { WAIT_GATE, WAIT_POLL, GRID_SYNC };

__device__ static unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ static int gate_wait(unsigned long long *g, unsigned parity, unsigned ns)
{
    unsigned open;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
                 : "=r"(open) : "r"(smem(g)), "r"(parity), "r"(ns) : "memory");
    return (int)open;
}
__device__ static void gate_open(unsigned long long *g)
{
    asm volatile("{ .reg .b64 s; mbarrier.arrive.shared.b64 s, [%0]; }" ::"r"(smem(g)) : "memory");
}

__device__ static void pause(unsigned *spins)
{
    unsigned ns = *spins < 8 ? 32u : 256u;
    ++*spins;
    __nanosleep(ns);
}

/* The block's last arriver: up the tree until another carries the node,
 * then the release of every node it carried, top down. */
__device__ static void climb(const tree &t, unsigned gen)
{
    unsigned idx = blockIdx.x, path[MAX_LEVELS];
    int carried = 0;
    for (int level = 0; level < t.levels; level++) {
        unsigned node = idx / FANIN, first = node * FANIN;
        unsigned members = t.inputs[level] - first < FANIN ? t.inputs[level] - first : FANIN;
        unsigned at = t.base[level] + node;
        if (dref(t.counts[at]).fetch_add(1, cuda::memory_order_acq_rel) != members - 1) {
            unsigned spins = 0;
            while (dref(t.release[at]).load(cuda::memory_order_acquire) != gen + 1) pause(&spins);
            break;
        }
        t.counts[at] = 0;
        path[carried++] = at;
        idx = node;
    }
    while (carried > 0) dref(t.release[path[--carried]]).store(gen + 1, cuda::memory_order_release);
}

__global__ void barriers(tree t, int iters, int how, unsigned long long *ns, int pressure)
{
    volatile unsigned local[256], *stack = pressure ? local : 0;
    __shared__ unsigned count, release;
    __shared__ unsigned long long gate;
    if (threadIdx.x == 0) {
        count = release = 0;
        asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&gate)) : "memory");
    }
    __syncthreads();
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    unsigned long long t0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (int i = 0; i < iters; i++) {
        if (how == GRID_SYNC) {
            grid.sync();
            continue;
        }
        unsigned gen = bref(release).load(cuda::memory_order_acquire);
        unsigned mask = __activemask(), lane = threadIdx.x & 31, leader = __ffs(mask) - 1, old = 0;
        if (lane == leader) old = bref(count).fetch_add(__popc(mask), cuda::memory_order_acq_rel);
        old = __shfl_sync(mask, old, leader) + __popc(mask & ((1u << lane) - 1));
        if (old == blockDim.x - 1) {
            count = 0;
            climb(t, gen);
            bref(release).store(gen + 1, cuda::memory_order_release);
            gate_open(&gate);
        } else if (how == WAIT_GATE) {
            while (!gate_wait(&gate, gen & 1, 20000)) {
            }
            if (stack) for (int k = 0; k < pressure; k++) stack[k] += k;
        } else {
            unsigned spins = 0;
            while (bref(release).load(cuda::memory_order_acquire) != gen + 1) pause(&spins);
        }
        __syncwarp();
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned long long t1;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
        *ns = t1 - t0;
    }
}

int main(int argc, char **argv)
{
    int blocks = argc > 1 ? atoi(argv[1]) : 2112, threads = argc > 2 ? atoi(argv[2]) : 128;
    int iters = argc > 3 ? atoi(argv[3]) : 200, pressure = argc > 4 ? atoi(argv[4]) : 0;
    int carveout = argc > 5 ? atoi(argv[5]) : -1;
    if (carveout >= 0) cudaFuncSetAttribute(barriers, cudaFuncAttributePreferredSharedMemoryCarveout, carveout);
    tree t = {};
    int n = blocks, total = 0;
    while (t.levels == 0 || n > 1) {
        t.inputs[t.levels] = n;
        t.base[t.levels] = total;
        n = (n + FANIN - 1) / FANIN;
        total += n;
        t.levels++;
    }
    cudaMalloc(&t.counts, total * sizeof(unsigned));
    cudaMalloc(&t.release, total * sizeof(unsigned));
    unsigned long long *ns;
    cudaMallocManaged(&ns, sizeof *ns);
    const char *names[] = {"tree, waiters at an mbarrier gate", "tree, waiters poll a shared word", "cg grid.sync()"};
    for (int rep = 0; rep < 1; rep++)
        for (int how = 0; how < 2; how++) {
            cudaMemset(t.counts, 0, total * sizeof(unsigned));
            cudaMemset(t.release, 0, total * sizeof(unsigned));
            void *args[] = {&t, &iters, &how, &ns, &pressure};
            cudaError_t e = cudaLaunchCooperativeKernel((void *)barriers, blocks, threads, args);
            if (e == cudaSuccess) e = cudaDeviceSynchronize();
            if (e != cudaSuccess) {
                printf("tree_barrier: %s\n", cudaGetErrorString(e));
                return 1;
            }
            printf("tree_barrier %d x %d threads (%d levels), %d stack words touched, carveout %d: %-36s %8.2f us per barrier\n", blocks, threads,
                   t.levels, pressure, carveout, names[how], *ns / 1e3 / iters);
        }
    return 0;
}
