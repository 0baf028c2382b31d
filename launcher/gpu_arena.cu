/* See gpu_arena.h. The pieces are CUDA virtual memory allocations
 * exported as file descriptors; a process takes another's descriptor with
 * pidfd_getfd (the host MPI carries pids and descriptor numbers), so every
 * launcher process of a job must run on one host as one user. Checked on
 * two H200s before building on it: bench/multi_gpu_vmm_probe.cu. */
#define _GNU_SOURCE
#include "gpu_arena.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_mpi.h"
#include "launcher_procs.h"

/* The driver API through the runtime's entry points: programs link with
 * cudart alone. */
#define GP_DRIVER_FNS(X)                                                          \
    X(cuCtxGetDevice) X(cuMemGetAllocationGranularity) X(cuMemCreate)            \
    X(cuMemExportToShareableHandle) X(cuMemImportFromShareableHandle)            \
    X(cuMemAddressReserve) X(cuMemAddressFree) X(cuMemMap) X(cuMemSetAccess)     \
    X(cuGetErrorString)
#define GP_DECLARE(f) static decltype(&::f) p_##f;
GP_DRIVER_FNS(GP_DECLARE)

static int load_driver(void)
{
    cudaDriverEntryPointQueryResult q;
#define GP_LOAD(f)                                                                                       \
    if (cudaGetDriverEntryPointByVersion(#f, (void **)&p_##f, 12000, cudaEnableDefault, &q) != cudaSuccess || \
        q != cudaDriverEntryPointSuccess) {                                                              \
        fprintf(stderr, "gpumpi: the CUDA driver lacks %s, which several GPUs in one job need\n", #f);  \
        return -1;                                                                                       \
    }
    GP_DRIVER_FNS(GP_LOAD)
    return 0;
}

static const char *why(CUresult r)
{
    const char *s = "unknown error";
    if (p_cuGetErrorString) p_cuGetErrorString(r, &s);
    return s;
}

static char *base, *piece;
static size_t piece_size, piece_used;

/* What each process tells the others about its piece. */
typedef struct piece_offer {
    long long pid, fd, bytes, bad;
} piece_offer;

/* Every process's piece: the others' taken from them (pidfd_getfd). */
static int take_handle(const piece_offer *o, CUmemGenericAllocationHandle *h)
{
    int fd = gp_procs_take_fd(o->pid, (int)o->fd);
    if (fd < 0) {
        fprintf(stderr, "gpumpi: cannot take launcher process %lld's GPU memory (pidfd_getfd: %s); every launcher "
                "process of a job must run on one host as one user, and may need ptrace rights over the others "
                "(/proc/sys/kernel/yama/ptrace_scope 0)\n", o->pid, strerror(errno));
        return -1;
    }
    CUresult r = p_cuMemImportFromShareableHandle(h, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    close(fd);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "gpumpi: cannot open launcher process %lld's GPU memory: %s\n", o->pid, why(r));
        return -1;
    }
    return 0;
}

static void fail_all(int bad, const char *what, int proc)
{
    long long v[1] = {bad};
    gp_host_mpi_allreduce_max(v, 1);
    if (v[0]) {
        if (proc == 0 && what) fprintf(stderr, "gpumpi: %s\n", what);
        exit(1);
    }
}

char *gp_arena_open(size_t mine, int proc, int nprocs, size_t *stride)
{
    int bad = load_driver() != 0;
    fail_all(bad, "several GPUs in one job: the CUDA driver's virtual memory calls are missing", proc);
    CUdevice dev;
    p_cuCtxGetDevice(&dev);
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = (int)dev;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gran = 0;
    CUresult r = p_cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    if (r != CUDA_SUCCESS || !gran) gran = (size_t)2 << 20;
    long long largest[1] = {(long long)mine};
    gp_host_mpi_allreduce_max(largest, 1);
    piece_size = ((size_t)largest[0] + gran - 1) / gran * gran;
    CUmemGenericAllocationHandle own;
    int fd = -1;
    r = p_cuMemCreate(&own, piece_size, &prop, 0);
    if (r == CUDA_SUCCESS) r = p_cuMemExportToShareableHandle(&fd, own, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    if (r != CUDA_SUCCESS)
        fprintf(stderr, "gpumpi: launcher process %d cannot make %zu bytes of GPU memory to share: %s (lower --heap)\n",
                proc, piece_size, why(r));
    fail_all(r != CUDA_SUCCESS, NULL, proc);

    piece_offer *all = (piece_offer *)calloc((size_t)nprocs, sizeof *all);
    for (int p = 0; p < nprocs; p++) {
        if (p == proc) all[p] = (piece_offer){(long long)getpid(), fd, (long long)piece_size, 0};
        gp_host_mpi_bcast(&all[p], sizeof all[p], p);
    }
    size_t total = 0, at = 0;
    for (int p = 0; p < nprocs; p++) total += (size_t)all[p].bytes;

    /* process 0 picks the addresses; the others ask for the same ones */
    unsigned long long want = 0;
    for (int attempt = 0; attempt < 8 && !base; attempt++) {
        CUdeviceptr got = 0;
        if (proc == 0) {
            r = p_cuMemAddressReserve(&got, total, 0, 0, 0);
            want = r == CUDA_SUCCESS ? (unsigned long long)got : 0;
        }
        gp_host_mpi_bcast(&want, sizeof want, 0);
        if (!want) fail_all(1, "cannot reserve addresses for the job's GPU memory", proc);
        int ok = 1;
        if (proc != 0) {
            r = p_cuMemAddressReserve(&got, total, 0, (CUdeviceptr)want, 0);
            ok = r == CUDA_SUCCESS && got == (CUdeviceptr)want;
            if (r == CUDA_SUCCESS && !ok) p_cuMemAddressFree(got, total);
        }
        long long v[1] = {!ok};
        gp_host_mpi_allreduce_max(v, 1);
        if (!v[0]) base = (char *)(uintptr_t)want;
        else if (proc != 0 && ok) p_cuMemAddressFree(got, total); /* process 0 keeps its range so that the next differs */
    }
    fail_all(!base, "the launcher processes found no addresses free in all of them for the job's GPU memory", proc);

    bad = 0;
    for (int p = 0; p < nprocs && !bad; p++) {
        CUmemGenericAllocationHandle h = own;
        if (p != proc && take_handle(&all[p], &h) != 0) bad = 1;
        if (!bad && (r = p_cuMemMap((CUdeviceptr)(base + at), (size_t)all[p].bytes, 0, h, 0)) != CUDA_SUCCESS) {
            fprintf(stderr, "gpumpi: launcher process %d cannot map launcher process %d's GPU memory: %s\n", proc, p,
                    why(r));
            bad = 1;
        }
        if (p == proc) piece = base + at;
        at += (size_t)all[p].bytes;
    }
    if (!bad) {
        CUmemAccessDesc acc;
        memset(&acc, 0, sizeof acc);
        acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        acc.location.id = (int)dev;
        acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        if ((r = p_cuMemSetAccess((CUdeviceptr)base, total, &acc, 1)) != CUDA_SUCCESS) {
            fprintf(stderr, "gpumpi: launcher process %d's GPU cannot reach the other GPUs' memory: %s (peer access "
                    "between these GPUs is needed)\n", proc, why(r));
            bad = 1;
        }
    }
    if (!bad && cudaMemset(piece, 0, piece_size) != cudaSuccess) bad = 1;
    if (!bad && cudaDeviceSynchronize() != cudaSuccess) bad = 1;
    fail_all(bad, NULL, proc); /* also: every process has taken every descriptor */
    close(fd);
    free(all);
    *stride = piece_size;
    return base;
}

void *gp_arena_alloc(size_t bytes, const char *what)
{
    size_t at = (piece_used + 255) & ~(size_t)255;
    if (!piece || at + bytes > piece_size || at + bytes < at) {
        fprintf(stderr, "gpumpi: the job's shared GPU memory has no room for %s (%zu bytes)\n", what, bytes);
        return NULL;
    }
    piece_used = at + bytes;
    return piece + at;
}
