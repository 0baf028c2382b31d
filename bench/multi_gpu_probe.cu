/* What one GPU thread pays to reach another GPU of the same node over
 * NVLink, for the scale-out transport's design (docs/architecture.md,
 * "Several GPUs"): not MPI, a standalone CUDA program, one process, GPUs 0
 * and 1 (or A and B given).
 *   - ping-pong between one thread on each GPU: 8 B to 4 KiB payloads plus
 *     a flag, stored into the other GPU's memory (push: each side polls its
 *     own memory) or left in the sender's (pull: each side polls the
 *     other's), the flag's store a release and its load an acquire at
 *     system scope (a payload must not be seen before its data);
 *   - an atomic exchange on the other GPU's memory (pushing an envelope
 *     onto a remote inbox), against one on local memory;
 *   - a store plus __threadfence_system against a store plus
 *     __threadfence (what a release to another GPU costs the sender);
 *   - bandwidth: cudaMemcpyPeer, and a kernel whose threads store to
 *     (push) or load from (pull) the other GPU's memory.
 * Build: nvcc -O2 -arch=sm_90 -std=c++17 bench/multi_gpu_probe.cu -o probe
 * Run:   ./probe [A B]   (prints one line a figure, `probe ...=` fields) */
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                    \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_system> sys_flag;

__device__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* One side of the ping-pong, one warp (lane 0 does the flags): waits for
 * `in` to reach i, copies the payload from `src` to `dst`, releases
 * `out` = i. Side 0 starts and times it. */
__global__ void pingpong(int side, int iters, int words, unsigned *in, unsigned *out, const unsigned *src,
                         unsigned *dst, unsigned long long *ns)
{
    unsigned long long t0 = 0;
    for (int i = 1; i <= iters; i++) {
        if (side == 1 || i > 1) {
            if (threadIdx.x == 0)
                while (sys_flag(*in).load(cuda::memory_order_acquire) < (unsigned)(side == 1 ? i : i - 1)) {
                }
            __syncwarp();
        }
        if (i == 2 && side == 0) t0 = now_ns(); /* the first round trip warms up */
        for (int w = threadIdx.x; w < words; w += 32) dst[w] = src[w] + 1;
        __syncwarp();
        if (threadIdx.x == 0) sys_flag(*out).store(i, cuda::memory_order_release);
    }
    if (side == 0 && threadIdx.x == 0) {
        while (sys_flag(*in).load(cuda::memory_order_acquire) < (unsigned)iters) {
        }
        *ns = now_ns() - t0;
    }
}

__global__ void exchange_chain(unsigned long long *word, int n, unsigned long long *ns)
{
    unsigned long long t0 = now_ns(), v = 1;
    for (int i = 0; i < n; i++) v = atomicExch_system(word, v + 1) + 1; /* each depends on the last */
    *ns = now_ns() - t0;
    word[1] = v;
}

__global__ void fenced_stores(unsigned *word, int n, int system, unsigned long long *ns)
{
    unsigned long long t0 = now_ns();
    for (int i = 0; i < n; i++) {
        ((volatile unsigned *)word)[0] = i;
        if (system)
            __threadfence_system();
        else
            __threadfence();
    }
    *ns = now_ns() - t0;
}

__global__ void copy_words(const uint4 *src, uint4 *dst, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

static float time_copy(int dev, const void *src, void *dst, size_t bytes, int kernel)
{
    CK(cudaSetDevice(dev));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float best = 1e30f;
    for (int rep = 0; rep < 5; rep++) {
        CK(cudaEventRecord(a));
        if (kernel)
            copy_words<<<264, 1024>>>((const uint4 *)src, (uint4 *)dst, bytes / 16);
        else
            CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault));
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (ms < best) best = ms;
    }
    return best;
}

int main(int argc, char **argv)
{
    int A = argc > 2 ? atoi(argv[1]) : 0, B = argc > 2 ? atoi(argv[2]) : 1, n = 0;
    CK(cudaGetDeviceCount(&n));
    if (n < 2 || A >= n || B >= n || A == B) {
        fprintf(stderr, "probe: needs two GPUs (this machine has %d)\n", n);
        return 1;
    }
    int can_ab, can_ba, atomics, rank;
    CK(cudaDeviceCanAccessPeer(&can_ab, A, B));
    CK(cudaDeviceCanAccessPeer(&can_ba, B, A));
    CK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, A, B));
    CK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, A, B));
    printf("probe gpus=%d,%d peer_access=%d,%d native_atomics=%d perf_rank=%d\n", A, B, can_ab, can_ba, atomics,
           rank);
    if (!can_ab || !can_ba) return 1;
    CK(cudaSetDevice(A));
    CK(cudaDeviceEnablePeerAccess(B, 0));
    CK(cudaSetDevice(B));
    CK(cudaDeviceEnablePeerAccess(A, 0));

    enum { MAXW = 1024 }; /* 4 KiB */
    unsigned *mem[2];
    unsigned long long *ns;
    CK(cudaMallocManaged(&ns, 64));
    int dev[2] = {A, B};
    for (int s = 0; s < 2; s++) {
        CK(cudaSetDevice(dev[s]));
        CK(cudaMalloc(&mem[s], 4 * (64 + 2 * MAXW)));
    }
    const int iters = 20000;
    for (int push = 1; push >= 0; push--) {
        for (int bytes = 8; bytes <= 4 * MAXW; bytes *= 8) {
            int words = bytes / 4;
            for (int s = 0; s < 2; s++) {
                CK(cudaSetDevice(dev[s]));
                CK(cudaMemset(mem[s], 0, 4 * (64 + 2 * MAXW)));
                CK(cudaDeviceSynchronize());
            }
            /* flag of side s at word 0 of the memory it polls; payload at 64 */
            for (int s = 0; s < 2; s++) {
                int o = 1 - s;
                unsigned *in = push ? mem[s] : mem[o] + 32, *out = push ? mem[o] : mem[s] + 32;
                unsigned *src = mem[s] + 64, *dst = push ? mem[o] + 64 + MAXW : mem[s] + 64 + MAXW;
                if (!push) src = mem[o] + 64 + MAXW; /* pull: read the other's, write our own */
                CK(cudaSetDevice(dev[s]));
                pingpong<<<1, 32>>>(s, iters, words, in, out, src, dst, ns);
                CK(cudaGetLastError());
            }
            for (int s = 0; s < 2; s++) {
                CK(cudaSetDevice(dev[s]));
                CK(cudaDeviceSynchronize());
            }
            printf("probe pingpong mode=%s bytes=%d half_rtt_us=%.3f\n", push ? "push" : "pull", bytes,
                   ns[0] / 1e3 / (2.0 * (iters - 1)));
        }
    }
    for (int remote = 0; remote < 2; remote++) {
        CK(cudaSetDevice(A));
        exchange_chain<<<1, 1>>>((unsigned long long *)(remote ? mem[1] : mem[0]), 10000, ns);
        CK(cudaDeviceSynchronize());
        printf("probe atomic_exch where=%s us=%.3f\n", remote ? "peer" : "local", ns[0] / 1e3 / 10000);
    }
    for (int sys = 0; sys < 2; sys++) {
        CK(cudaSetDevice(A));
        fenced_stores<<<1, 1>>>(mem[0], 10000, sys, ns);
        CK(cudaDeviceSynchronize());
        printf("probe store_fence scope=%s us=%.3f\n", sys ? "system" : "device", ns[0] / 1e3 / 10000);
    }
    size_t sizes[2] = {(size_t)1 << 20, (size_t)256 << 20};
    for (int k = 0; k < 2; k++) {
        void *a, *b;
        CK(cudaSetDevice(A));
        CK(cudaMalloc(&a, sizes[k]));
        CK(cudaSetDevice(B));
        CK(cudaMalloc(&b, sizes[k]));
        float memcpy_ms = time_copy(A, a, b, sizes[k], 0);
        float push_ms = time_copy(A, a, b, sizes[k], 1); /* A's threads store into B */
        float pull_ms = time_copy(A, b, a, sizes[k], 1); /* A's threads load from B */
        printf("probe bandwidth bytes=%zu memcpy_GBs=%.1f kernel_push_GBs=%.1f kernel_pull_GBs=%.1f\n", sizes[k],
               sizes[k] / memcpy_ms / 1e6, sizes[k] / push_ms / 1e6, sizes[k] / pull_ms / 1e6);
        CK(cudaFree(b));
        CK(cudaSetDevice(A));
        CK(cudaFree(a));
    }
    return 0;
}
