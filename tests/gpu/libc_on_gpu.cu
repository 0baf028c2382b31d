/* The device C library on the GPU against the host's glibc, in bulk: many
 * GPU threads each parse strings with strtod/strtof/strtol/strtoull and
 * sscanf, sort arrays with qsort and draw rand/rand_r/drand48 sequences;
 * the host makes the same calls with glibc and compares every result
 * (bits, end offsets, errno, stored values). The same shim sources run on
 * the threads backend in tests/unit/libc_test.cu; this catches what only
 * nvcc's code generation could break. A standalone CUDA program: the
 * per-rank state is one slot per thread here (no launcher).
 *
 *   nvcc -std=c++17 -rdc=true -arch=sm_90 -maxrregcount=32 -I runtime/include -I libc-shim/include \
 *       -I libc-shim/src tests/gpu/libc_on_gpu.cu libc-shim/src/{strtod,int_parse,scan,ctype,sort,rand,string}.cu \
 *       -o libc_on_gpu && ./libc_on_gpu [cases=20000]
 * Exits 1 on any difference. */
#if defined(LIBC_ON_GPU_EMULATE)
/* g++ build of the same file, each "thread" run in turn: checks the harness
 * without a GPU (CTest unit.libc_on_gpu_emulated) */
#define __global__
#define __device__
#define __constant__
struct gp_dim3 {
    unsigned x;
};
static gp_dim3 blockIdx, threadIdx, blockDim;
#define LAUNCH(kernel, blocks, threads, ...)                                                   \
    do {                                                                                       \
        blockDim.x = (threads);                                                                \
        for (blockIdx.x = 0; blockIdx.x < (unsigned)(blocks); blockIdx.x++)                    \
            for (threadIdx.x = 0; threadIdx.x < (unsigned)(threads); threadIdx.x++) kernel(__VA_ARGS__); \
    } while (0)
typedef int cudaError_t;
#define cudaSuccess 0
#define cudaGetErrorString(e) "error"
#define cudaDeviceSetLimit(a, b) 0
#define cudaDeviceSynchronize() 0
#define cudaMalloc(pp, n) ((*(void **)(pp) = malloc(n)) ? 0 : 1)
#define cudaMemcpy(d, s, n, k) (memcpy(d, s, n), 0)
#else
#include <cuda_runtime.h>
#define LAUNCH(kernel, blocks, threads, ...) kernel<<<(blocks), (threads)>>>(__VA_ARGS__)
#endif
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpumpi/shim_stdlib.h"
#include "gpumpi/scan.h"
#include "libc_state.h"

#define SLEN 96      /* bytes per input string */
#define MAXT 65536   /* threads (slots of per-thread state) */

/* ---- per-thread state in place of gp_rank ---- */
__device__ int dev_errno[MAXT];
__device__ gp_libc_state dev_libc[MAXT];
__device__ int dev_libc_ready[MAXT];

__device__ static int tid(void) { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ int *gp_errno_location(void) { return &dev_errno[tid()]; }
__device__ gp_libc_state *gp_libc(void)
{
    gp_libc_state *L = &dev_libc[tid()];
    if (!dev_libc_ready[tid()]) {
        memset(L, 0, sizeof *L);
        gp_rand_seed(L, 1);
        L->a48 = 0x5deece66dull;
        L->c48 = 0xb;
        L->optind = 1;
        L->opterr = 1;
        dev_libc_ready[tid()] = 1;
    }
    return L;
}

/* ---- results ---- */
typedef struct {
    uint64_t d;
    uint32_t f;
    int dend, fend, derr, ferr;
    long long l;
    unsigned long long ul;
    int lend, lerr, base;
    int scan_ret;
    long long scan_i;
    double scan_d;
    char scan_s[16];
} res_t;

__constant__ int bases[6] = {0, 10, 16, 8, 2, 36};

__global__ void parse_kernel(const char *in, int n, res_t *out)
{
    int i = tid();
    if (i >= n) return;
    const char *s = in + (size_t)i * SLEN;
    res_t *r = &out[i];
    char *e;
    *gp_errno_location() = 0;
    double d = gp_strtod(s, &e);
    r->derr = *gp_errno_location();
    r->dend = (int)(e - s);
    memcpy(&r->d, &d, 8);
    *gp_errno_location() = 0;
    float f = gp_strtof(s, &e);
    r->ferr = *gp_errno_location();
    r->fend = (int)(e - s);
    memcpy(&r->f, &f, 4);
    r->base = bases[i % 6];
    *gp_errno_location() = 0;
    r->l = gp_strtoll(s, &e, r->base);
    r->ul = gp_strtoull(s, 0, r->base);
    r->lerr = *gp_errno_location();
    r->lend = (int)(e - s);
    memset(r->scan_s, 0, sizeof r->scan_s);
    r->scan_i = 0;
    r->scan_d = 0;
    if (i % 2)
        r->scan_ret = gp_sscanf(s, "%lli %lg %15[^ ]", &r->scan_i, &r->scan_d, r->scan_s);
    else
        r->scan_ret = gp_sscanf(s, "%lf%15s", &r->scan_d, r->scan_s);
}

__device__ static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

#define SORTN 500
#define DRAWS 40

__global__ void misc_kernel(int n, uint32_t *arrays, int *rands, int *rand_rs, long *lrand48s)
{
    int i = tid();
    if (i >= n) return;
    gp_qsort(arrays + (size_t)i * SORTN, SORTN, sizeof(uint32_t), cmp_u32);
    gp_srand((unsigned)i * 2654435761u);
    unsigned seed = (unsigned)i;
    gp_srand48(i - 7);
    for (int k = 0; k < DRAWS; k++) {
        rands[i * DRAWS + k] = gp_rand();
        rand_rs[i * DRAWS + k] = gp_rand_r(&seed);
        lrand48s[i * DRAWS + k] = gp_lrand48();
    }
}

/* ---- host: inputs and glibc's answers ---- */
static uint64_t rng = 0x1234567887654321ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void make_input(char *s, int i)
{
    uint64_t u = rnd();
    double d;
    memcpy(&d, &u, 8);
    if (isnan(d) || isinf(d)) d = ldexp((double)(u >> 11), (int)(rnd() % 200) - 100);
    switch (i % 8) {
    case 0: snprintf(s, SLEN, "%.17g rest", d); break;
    case 1: snprintf(s, SLEN, "%a", d); break;
    case 2: snprintf(s, SLEN, "  %.*e", (int)(rnd() % 20), d); break;
    case 3: { /* a halfway point between two doubles, to 40 digits */
        double up = nextafter(d, INFINITY);
        snprintf(s, SLEN, "%.40Le", ((long double)d + (long double)up) / 2);
        break;
    }
    case 4: snprintf(s, SLEN, "%lld %g word", (long long)rnd() >> (rnd() % 64), d); break;
    case 5: snprintf(s, SLEN, "%#llx %a x", (unsigned long long)rnd() >> (rnd() % 64), d); break;
    case 6: { /* random characters from a number's alphabet */
        const char *al = "0123456789.eE+-xXpPinfatyINF ";
        int n = 1 + (int)(rnd() % 30);
        for (int k = 0; k < n; k++) s[k] = al[rnd() % 29];
        s[n] = 0;
        break;
    }
    default: snprintf(s, SLEN, "%.*g", 1 + (int)(rnd() % 17), ldexp(1.0, (int)(rnd() % 2100) - 1075)); break;
    }
}

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "libc_on_gpu: %s: %s\n", #x, cudaGetErrorString(e_));             \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static long bad, cases;
static void mismatch(const char *what, const char *s)
{
    if (bad++ < 20) printf("FAIL %s: \"%s\"\n", what, s);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    if (n > MAXT) n = MAXT;
    size_t stack = 16384; /* the launcher's default per rank */
    CK(cudaDeviceSetLimit(cudaLimitStackSize, stack));
    (void)stack;
    char *in = (char *)calloc((size_t)n, SLEN);
    for (int i = 0; i < n; i++) make_input(in + (size_t)i * SLEN, i);
    char *din;
    res_t *dres;
    CK(cudaMalloc(&din, (size_t)n * SLEN));
    CK(cudaMalloc(&dres, sizeof(res_t) * n));
    CK(cudaMemcpy(din, in, (size_t)n * SLEN, cudaMemcpyHostToDevice));
    LAUNCH(parse_kernel, (n + 127) / 128, 128, din, n, dres);
    CK(cudaDeviceSynchronize());
    res_t *got = (res_t *)malloc(sizeof(res_t) * n);
    CK(cudaMemcpy(got, dres, sizeof(res_t) * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        const char *s = in + (size_t)i * SLEN;
        res_t *g = &got[i];
        char *e;
        errno = 0;
        double d = strtod(s, &e);
        uint64_t db;
        memcpy(&db, &d, 8);
        cases++;
        if (db != g->d || e - s != g->dend || errno != g->derr) mismatch("strtod", s);
        errno = 0;
        float f = strtof(s, &e);
        uint32_t fb;
        memcpy(&fb, &f, 4);
        if (fb != g->f || e - s != g->fend || errno != g->ferr) mismatch("strtof", s);
        errno = 0;
        long long l = strtoll(s, &e, g->base);
        unsigned long long ul = strtoull(s, 0, g->base);
        if (l != g->l || ul != g->ul || e - s != g->lend || errno != g->lerr) mismatch("strtoll/strtoull", s);
        long long si = 0;
        double sd = 0;
        char ss[16];
        memset(ss, 0, sizeof ss);
        int sr = i % 2 ? sscanf(s, "%lli %lg %15[^ ]", &si, &sd, ss) : sscanf(s, "%lf%15s", &sd, ss);
        uint64_t sdb, gdb;
        memcpy(&sdb, &sd, 8);
        memcpy(&gdb, &g->scan_d, 8);
        if (sr != g->scan_ret || si != g->scan_i || sdb != gdb || memcmp(ss, g->scan_s, 16)) mismatch("sscanf", s);
    }

    /* qsort, rand, rand_r, lrand48 on every thread */
    int m = n < 4096 ? n : 4096;
    uint32_t *arr = (uint32_t *)malloc(sizeof(uint32_t) * SORTN * m);
    for (size_t k = 0; k < (size_t)SORTN * m; k++) arr[k] = (uint32_t)rnd() % (k % 3 ? 1000000u : 50u);
    uint32_t *darr;
    int *drand, *drand_r;
    long *dl48;
    CK(cudaMalloc(&darr, sizeof(uint32_t) * SORTN * m));
    CK(cudaMalloc(&drand, sizeof(int) * DRAWS * m));
    CK(cudaMalloc(&drand_r, sizeof(int) * DRAWS * m));
    CK(cudaMalloc(&dl48, sizeof(long) * DRAWS * m));
    CK(cudaMemcpy(darr, arr, sizeof(uint32_t) * SORTN * m, cudaMemcpyHostToDevice));
    LAUNCH(misc_kernel, (m + 127) / 128, 128, m, darr, drand, drand_r, dl48);
    CK(cudaDeviceSynchronize());
    uint32_t *sorted = (uint32_t *)malloc(sizeof(uint32_t) * SORTN * m);
    int *r1 = (int *)malloc(sizeof(int) * DRAWS * m), *r2 = (int *)malloc(sizeof(int) * DRAWS * m);
    long *r3 = (long *)malloc(sizeof(long) * DRAWS * m);
    CK(cudaMemcpy(sorted, darr, sizeof(uint32_t) * SORTN * m, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r1, drand, sizeof(int) * DRAWS * m, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r2, drand_r, sizeof(int) * DRAWS * m, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r3, dl48, sizeof(long) * DRAWS * m, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) {
        uint32_t *a = arr + (size_t)i * SORTN;
        qsort(a, SORTN, sizeof(uint32_t), [](const void *x, const void *y) {
            uint32_t p = *(const uint32_t *)x, q = *(const uint32_t *)y;
            return p < q ? -1 : p > q;
        });
        cases++;
        if (memcmp(a, sorted + (size_t)i * SORTN, sizeof(uint32_t) * SORTN)) mismatch("qsort", "array");
        srand((unsigned)i * 2654435761u);
        unsigned seed = (unsigned)i;
        srand48(i - 7);
        for (int k = 0; k < DRAWS; k++) {
            cases++;
            if (rand() != r1[i * DRAWS + k]) mismatch("rand", "");
            if (rand_r(&seed) != r2[i * DRAWS + k]) mismatch("rand_r", "");
            if (lrand48() != r3[i * DRAWS + k]) mismatch("lrand48", "");
        }
    }
    printf("libc_on_gpu: %ld of %ld cases differ from glibc (%d threads parsing, %d sorting and drawing)\n", bad,
           cases, n, m);
    return bad != 0;
}
