#include <cstdio>
extern __shared__ char *bases[];
typedef void vfn_t(int *, int *, ...);
__device__ vfn_t *g_s, *g_e;
extern __device__ void user_register(void);
extern __device__ int sink;
__device__ __noinline__ void call_it(vfn_t *f) { int c = 7, code = 9; f(&c, &code); }
__global__ void k(int which)
{
    bases[threadIdx.x] = (char *)(long)(1000 + threadIdx.x);
    __syncthreads();
    user_register();
    int c = 7, code = 9;
    if (which == 0) g_s(&c, &code);
    if (which == 1) call_it(g_s);
    if (which == 2) call_it(g_e);
}
int main(int argc, char **argv)
{
    int w = argv[1][0] - '0';
    k<<<1, 32, 32 * sizeof(char *)>>>(w);
    cudaError_t e = cudaDeviceSynchronize();
    int h = 0;
    cudaMemcpyFromSymbol(&h, sink, sizeof h);
    printf("variant %d: %s, sink %d (want 1017)\n", w, cudaGetErrorString(e), h);
    return 0;
}
