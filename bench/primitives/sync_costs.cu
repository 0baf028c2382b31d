/* What one thread's synchronisation primitives cost on the GPU, each in a
 * dependent loop (one thread, nobody else running): the cost model behind
 * the runtime's message path. A developer's diagnostic:
 *   nvcc -O2 -arch=sm_90 -rdc=true bench/primitives/sync_costs.cu -o sync_costs && ./sync_costs */
#include <cstdio>
#include <cuda/atomic>

#define REPS 4096
typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> dref;

__device__ unsigned long long cell[64 * 32];
__device__ __noinline__ int far_call(int x) { return x * 3 + 1; }
__device__ __noinline__ void far_call_ptr(int *p) { p[1] = p[0] + 1; }
/* a dependent walk through words the pointer points to, one load each */
__device__ __noinline__ unsigned long long walk(unsigned long long *const *p, int n)
{
    for (int i = 0; i < n; i++) p = (unsigned long long *const *)*p;
    return (unsigned long long)p;
}
/* the same walk with ld.local on the stack addresses of the words */
__device__ __noinline__ unsigned long long walk_local(unsigned long long a, int n)
{
    for (int i = 0; i < n; i++) asm volatile("ld.local.u64 %0, [%0];" : "+l"(a)::"memory");
    return a;
}

__global__ void costs(double *out)
{
    unsigned long long *c = cell, v = 1;
    int k = 0;
    long long t;
#define MEASURE(i, body)                                        \
    t = clock64();                                              \
    for (int r = 0; r < REPS; r++) { body; }                    \
    out[i] = (double)(clock64() - t) / REPS;
    MEASURE(0, v += c[(v & 1) * 32])                                                    /* plain load (L1) */
    MEASURE(1, v += dref(c[(v & 1) * 32]).load(cuda::memory_order_relaxed))             /* relaxed load */
    MEASURE(2, v += dref(c[(v & 1) * 32]).load(cuda::memory_order_acquire))             /* acquire load */
    MEASURE(3, v += dref(c[(v & 1) * 32]).load(cuda::memory_order_acquire); v += c[64 + (v & 1)] + c[128 + (v & 1)])
    MEASURE(4, dref(c[(v & 1) * 32]).store(v, cuda::memory_order_release); v++)          /* release store */
    MEASURE(5, v += dref(c[(v & 1) * 32]).compare_exchange_strong(v, v + 1, cuda::memory_order_release))
    MEASURE(6, v += dref(c[(v & 1) * 32]).exchange(v, cuda::memory_order_acq_rel))
    MEASURE(7, v += dref(c[(v & 1) * 32]).fetch_add(1, cuda::memory_order_relaxed))
    MEASURE(8, __threadfence(); v++)
    MEASURE(9, c[256 + (v & 7)] = v; __threadfence(); v++)                               /* store then fence */
    MEASURE(10, k = far_call(k))
    int loc[2] = {k, 0};
    MEASURE(11, far_call_ptr(loc); loc[0] = loc[1])
    MEASURE(12, v += c[(v & 1) * 32]; v += c[64 + (v & 1)]; v += c[128 + (v & 1)])        /* 3 dependent L1 loads */
    volatile unsigned long long stk[32]; /* indexed by a loaded value: local memory, not registers */
    for (int i = 0; i < 32; i++) stk[i] = i & 1;
    MEASURE(13, v += stk[v & 7]; v += stk[8 + (v & 7)])                                  /* 2 dependent stack loads */
    MEASURE(14, v += dref(c[(v & 1) * 32]).load(cuda::memory_order_acquire); v += stk[v & 7]; v += stk[8 + (v & 7)])
    MEASURE(15, v += dref(c[(v & 1) * 32]).load(cuda::memory_order_acquire);
            asm volatile("prefetch.global.L1 [%0];" ::"l"(c + 64)); asm volatile("prefetch.global.L1 [%0];" ::"l"(c + 128));
            v += c[64 + (v & 1)]; v += c[128 + (v & 1)])
    MEASURE(16, v += dref(c[(v & 1) * 32]).load(cuda::memory_order_acquire); v += c[64 + (v & 1)]; v += c[128 + (v & 1)])
    /* a ring of pointers in the stack, walked through generic pointers and
     * with ld.local; the same ring in global memory through generic ones */
    unsigned long long ring[8], lring[8];
    size_t base = __cvta_generic_to_local(lring);
    for (int i = 0; i < 8; i++) {
        ring[i] = (unsigned long long)&ring[(i + 3) & 7];
        lring[i] = base + 8 * ((i + 3) & 7);
    }
    for (int i = 0; i < 8; i++) cell[512 + i] = (unsigned long long)&cell[512 + ((i + 3) & 7)];
    MEASURE(17, v += walk((unsigned long long *const *)&ring[v & 1], 8) & 1)
    MEASURE(18, v += walk_local(base + 8 * (v & 1), 8) & 1)
    MEASURE(19, v += walk((unsigned long long *const *)&cell[512 + (v & 1)], 8) & 1)
    __shared__ unsigned long long sring[8];
    for (int i = 0; i < 8; i++) sring[i] = (unsigned long long)&sring[(i + 3) & 7];
    MEASURE(20, v += walk((unsigned long long *const *)&sring[v & 1], 8) & 1)
    out[17] /= 8; out[18] /= 8; out[19] /= 8; out[20] /= 8;
    out[21] = (double)(v + k + loc[0] + ring[0] + lring[0]);
}

int main()
{
    const char *names[] = {"plain load (L1 hit)", "relaxed load (gpu scope)", "acquire load",
                           "acquire load + 2 dependent plain loads", "release store", "CAS release",
                           "exchange acq_rel", "fetch_add relaxed", "__threadfence", "store + __threadfence",
                           "call to a __noinline__ function", "call with a local-memory argument",
                           "3 dependent plain loads", "2 dependent stack (local) loads",
                           "acquire load + 2 dependent stack loads", "acquire + 2 prefetched dependent loads",
                           "acquire + the same 2 dependent loads",
                           "a load through a generic pointer into the stack", "ld.local",
                           "a load through a generic pointer into global",
                           "a load through a generic pointer into shared"};
    double *d, h[22];
    cudaMalloc(&d, sizeof h);
    for (int pass = 0; pass < 2; pass++) costs<<<1, 1>>>(d); /* the first pass warms the code */
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int clk;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    for (int i = 0; i < 21; i++)
        printf("sync_costs: %-40s %7.1f cycles %7.3f us\n", names[i], h[i], h[i] / (clk * 1e-3));
    return 0;
}
