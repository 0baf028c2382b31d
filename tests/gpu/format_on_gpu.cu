/* The formatter on the GPU against the host's snprintf: the same formats
 * and values formatted by a kernel and by glibc must give the same bytes.
 * Built by nvcc, run on a GPU machine; exits 1 on any difference. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumpi/format.h"
#include "libc_state.h"

/* format.cu's %m reads errno and strerror.cu's table: one thread's worth */
__device__ int gpu_errno;
__device__ int *gp_errno_location(void) { return &gpu_errno; }
__device__ gp_libc_state *gp_libc(void) { return 0; }

#define N 16
#define W 128

__global__ void fmt_kernel(char *out)
{
    int k = 0;
    gp_snprintf(out + W * k++, W, "%.16f", 3.1415926544231239);
    gp_snprintf(out + W * k++, W, "%.16f", 0.0000000008333307);
    gp_snprintf(out + W * k++, W, "%f", 0.000081);
    gp_snprintf(out + W * k++, W, "%e", 6.02214076e23);
    gp_snprintf(out + W * k++, W, "%g|%g|%g", 1e-5, 123456789.0, 0.5);
    gp_snprintf(out + W * k++, W, "%d %u %x %lld", -42, 42u, 255, -1234567890123ll);
    gp_snprintf(out + W * k++, W, "%8.3f|%-8.2e|%+.0f", 2.5, -1.25, 2.5);
    gp_snprintf(out + W * k++, W, "%s %c %5s|%-5s|", "abc", 'z', "ab", "cd");
    gp_snprintf(out + W * k++, W, "%.3f us per lap", 1234.5678);
    gp_snprintf(out + W * k++, W, "%a", 1.0);
    gp_snprintf(out + W * k++, W, "%.20g", 0.1);
    gp_snprintf(out + W * k++, W, "%f %f", 1e300, -0.0);
}

int main(int argc, char **argv)
{
    char expect[N][W];
    int k = 0;
    snprintf(expect[k++], W, "%.16f", 3.1415926544231239);
    snprintf(expect[k++], W, "%.16f", 0.0000000008333307);
    snprintf(expect[k++], W, "%f", 0.000081);
    snprintf(expect[k++], W, "%e", 6.02214076e23);
    snprintf(expect[k++], W, "%g|%g|%g", 1e-5, 123456789.0, 0.5);
    snprintf(expect[k++], W, "%d %u %x %lld", -42, 42u, 255, -1234567890123ll);
    snprintf(expect[k++], W, "%8.3f|%-8.2e|%+.0f", 2.5, -1.25, 2.5);
    snprintf(expect[k++], W, "%s %c %5s|%-5s|", "abc", 'z', "ab", "cd");
    snprintf(expect[k++], W, "%.3f us per lap", 1234.5678);
    snprintf(expect[k++], W, "%a", 1.0);
    snprintf(expect[k++], W, "%.20g", 0.1);
    snprintf(expect[k++], W, "%f %f", 1e300, -0.0);
    /* the launcher's default stack per rank; the formatter's frame grows
     * when registers are capped (-maxrregcount), past CUDA's 1 KiB default */
    size_t stack = 16384;
    if (argc > 1) stack = (size_t)atol(argv[1]);
    cudaDeviceSetLimit(cudaLimitStackSize, stack);
    char *d, got[N][W];
    cudaMalloc(&d, sizeof got);
    cudaMemset(d, 0, sizeof got);
    fmt_kernel<<<1, 1>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("format_on_gpu: kernel failed: %s\n", cudaGetErrorString(e));
        return 1;
    }
    cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < k; i++) {
        int same = strcmp(expect[i], got[i]) == 0;
        bad += !same;
        printf("%s case %d: expected \"%s\" got \"%s\"\n", same ? "ok  " : "FAIL", i, expect[i], got[i]);
    }
    printf("format_on_gpu: %d of %d cases differ\n", bad, k);
    return bad != 0;
}
