/* Can two launcher processes, one per GPU, see one world at one address?
 * The threads backend's several processes share one segment mapped at the
 * same address in each (docs/scale_out.md), so every pointer the runtime
 * stores is valid everywhere. This checks the GPU version of that with
 * CUDA's virtual memory management, for the CUDA backend's design:
 *   - each process makes a piece of memory on its own GPU (cuMemCreate),
 *     exports it as a file descriptor and passes it to the other
 *     (SCM_RIGHTS); process 0 reserves a range of addresses, process 1
 *     reserves the same addresses, and both map piece 0 then piece 1 there:
 *     one range, its halves on different GPUs, the same pointers in both;
 *   - ping-pong between one thread on each GPU through that range (each
 *     side polls the flag in its own half; the other side's store is a
 *     release at system scope), 8 B payload;
 *   - both GPUs adding to one counter in half 0 with system-scope atomics
 *     (and, for comparison, device-scope ones): is the sum exact?
 *   - message passing: GPU 1 writes 1 KiB into half 0, then a flag with a
 *     system-scope release; GPU 0 acquires the flag and checks every word.
 * Not MPI: a standalone program, forked into two processes before CUDA
 * starts (as two launcher processes would be started by mpirun).
 * Build: nvcc -O2 -arch=sm_90 -std=c++17 bench/multi_gpu_vmm_probe.cu -o vmm_probe -lcuda
 * Run:   ./vmm_probe   (GPUs 0 and 1; one line a figure, `vmm ...` fields) */
#include <cuda.h>
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CK(x)                                                                                    \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)
#define CU(x)                                                                        \
    do {                                                                             \
        CUresult r_ = (x);                                                           \
        if (r_ != CUDA_SUCCESS) {                                                    \
            const char *s_ = "?";                                                    \
            cuGetErrorString(r_, &s_);                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);          \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_system> sys_u32;

__device__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Layout of each half (the same offsets in both). */
struct world_half {
    unsigned flag;          /* the other side's stores, this side's polls */
    unsigned payload[2];    /* 8 bytes with the flag */
    unsigned pad[29];
    unsigned long long sum_sys, sum_dev; /* counters (world_half 0's are used) */
    unsigned mp_flag;       /* message passing: round number */
    unsigned pad2[31];
    unsigned mp_data[256];  /* 1 KiB */
};

/* One side of the ping-pong: waits for its own flag to reach i, answers
 * into the other world_half. Side 0 times rounds 2..iters. */
__global__ void pingpong(int side, int iters, world_half *mine, world_half *theirs, unsigned long long *ns)
{
    unsigned long long t0 = 0;
    for (int i = 1; i <= iters; i++) {
        if (side == 1 || i > 1)
            while (sys_u32(mine->flag).load(cuda::memory_order_acquire) < (unsigned)(side == 1 ? i : i - 1)) {
            }
        if (i == 2 && side == 0) t0 = now_ns();
        theirs->payload[0] = mine->payload[0] + 1;
        theirs->payload[1] = (unsigned)i;
        sys_u32(theirs->flag).store((unsigned)i, cuda::memory_order_release);
    }
    if (side == 0) {
        while (sys_u32(mine->flag).load(cuda::memory_order_acquire) < (unsigned)iters) {
        }
        *ns = now_ns() - t0;
    }
}

__global__ void add_counters(world_half *h0, int reps)
{
    for (int i = 0; i < reps; i++) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>(h0->sum_sys).fetch_add(1, cuda::memory_order_relaxed);
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(h0->sum_dev).fetch_add(1, cuda::memory_order_relaxed);
    }
}

/* GPU 1 writes round r's data into half 0, then the flag; GPU 0 checks.
 * Scope S of the flag's release and acquire: system (what the model
 * requires between GPUs) or device (what today's runtime uses). */
template <cuda::thread_scope S> __global__ void mp_writer(world_half *h0, int rounds)
{
    typedef cuda::atomic_ref<unsigned, S> flag;
    for (int r = 1; r <= rounds; r++) {
        if (threadIdx.x == 0)
            while (flag(h0->mp_flag).load(cuda::memory_order_acquire) != (unsigned)(2 * r - 2)) {
            }
        __syncthreads();
        for (int w = threadIdx.x; w < 256; w += blockDim.x) h0->mp_data[w] = (unsigned)(r * 1000 + w);
        __syncthreads();
        if (threadIdx.x == 0) flag(h0->mp_flag).store((unsigned)(2 * r - 1), cuda::memory_order_release);
    }
}

template <cuda::thread_scope S> __global__ void mp_reader(world_half *h0, int rounds, unsigned *bad)
{
    typedef cuda::atomic_ref<unsigned, S> flag;
    for (int r = 1; r <= rounds; r++) {
        if (threadIdx.x == 0)
            while (flag(h0->mp_flag).load(cuda::memory_order_acquire) != (unsigned)(2 * r - 1)) {
            }
        __syncthreads();
        for (int w = threadIdx.x; w < 256; w += blockDim.x)
            if (h0->mp_data[w] != (unsigned)(r * 1000 + w)) atomicAdd(bad, 1u);
        __syncthreads();
        if (threadIdx.x == 0) flag(h0->mp_flag).store((unsigned)(2 * r), cuda::memory_order_release);
    }
}

static void send_fd(int sock, int fd, unsigned long long word)
{
    char buf[CMSG_SPACE(sizeof(int))];
    memset(buf, 0, sizeof buf);
    struct iovec io = {&word, sizeof word};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    if (fd >= 0) {
        m.msg_control = buf;
        m.msg_controllen = sizeof buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    if (sendmsg(sock, &m, 0) < 0) { perror("sendmsg"); exit(1); }
}

static int recv_fd(int sock, unsigned long long *word)
{
    char buf[CMSG_SPACE(sizeof(int))];
    struct iovec io = {word, sizeof *word};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = buf;
    m.msg_controllen = sizeof buf;
    if (recvmsg(sock, &m, 0) <= 0) { perror("recvmsg"); exit(1); }
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    int fd = -1;
    if (c && c->cmsg_type == SCM_RIGHTS) memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

static void barrier(int sock)
{
    unsigned long long w = 0;
    send_fd(sock, -1, 0);
    recv_fd(sock, &w);
}

static int run(int p, int sock)
{
    CK(cudaSetDevice(p));
    CK(cudaFree(0));
    CUdevice dev;
    CU(cuCtxGetDevice(&dev));
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = (int)dev;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gran = 0;
    CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    size_t piece = (sizeof(world_half) + gran - 1) / gran * gran;
    CUmemGenericAllocationHandle mine, theirs;
    CU(cuMemCreate(&mine, piece, &prop, 0));
    int fd = -1;
    CU(cuMemExportToShareableHandle(&fd, mine, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    /* process 0 picks the range and sends it with its piece; process 1
     * asks for the same addresses and answers with its piece and whether
     * it got them */
    CUdeviceptr base = 0;
    unsigned long long word = 0;
    if (p == 0) {
        CU(cuMemAddressReserve(&base, 2 * piece, 0, 0, 0));
        send_fd(sock, fd, (unsigned long long)base);
    }
    int other_fd = recv_fd(sock, &word);
    if (p == 1) {
        CUdeviceptr want = (CUdeviceptr)word;
        CUresult r = cuMemAddressReserve(&base, 2 * piece, 0, want, 0);
        int same = r == CUDA_SUCCESS && base == want;
        send_fd(sock, fd, (unsigned long long)same);
        if (!same) {
            printf("vmm same_address=no (asked %#llx, got %#llx)\n", (unsigned long long)want, (unsigned long long)base);
            return 1;
        }
    } else if (!word) {
        printf("vmm same_address=no\n");
        return 1;
    }
    CU(cuMemImportFromShareableHandle(&theirs, (void *)(uintptr_t)other_fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    CU(cuMemMap(base + (CUdeviceptr)(p * piece), piece, 0, mine, 0));
    CU(cuMemMap(base + (CUdeviceptr)((1 - p) * piece), piece, 0, theirs, 0));
    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    acc.location.id = (int)dev;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU(cuMemSetAccess(base, 2 * piece, &acc, 1));
    world_half *h[2] = {(world_half *)base, (world_half *)(base + piece)};
    CK(cudaMemset(h[p], 0, sizeof(world_half)));
    CK(cudaDeviceSynchronize());
    if (p == 0) printf("vmm same_address=yes base=%#llx piece_bytes=%zu\n", (unsigned long long)base, piece);
    barrier(sock);

    unsigned long long *ns;
    CK(cudaMallocManaged(&ns, sizeof *ns));
    const int iters = 20000;
    pingpong<<<1, 1>>>(p, iters, h[p], h[1 - p], ns);
    CK(cudaDeviceSynchronize());
    if (p == 0) printf("vmm pingpong_8B_half_rtt_us=%.2f\n", (double)*ns / (iters - 1) / 2 / 1000.0);
    barrier(sock);

    const int blocks = 64, threads = 128, reps = 200;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    add_counters<<<blocks, threads>>>(h[0], reps);
    CK(cudaEventRecord(e1));
    CK(cudaDeviceSynchronize());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    barrier(sock);
    if (p == 0) {
        unsigned long long got[2];
        CK(cudaMemcpy(got, &h[0]->sum_sys, sizeof got, cudaMemcpyDeviceToHost));
        unsigned long long want = 2ull * blocks * threads * reps;
        printf("vmm atomics_both_gpus want=%llu sys_scope=%llu (%s) device_scope=%llu (%s) gpu0_ms=%.2f\n", want,
               got[0], got[0] == want ? "exact" : "LOST", got[1], got[1] == want ? "exact" : "LOST", ms);
    }
    barrier(sock);

    unsigned *bad;
    CK(cudaMallocManaged(&bad, sizeof *bad));
    const int rounds = 20000;
    for (int sys = 1; sys >= 0; sys--) {
        *bad = 0;
        if (p == 0) CK(cudaMemset(&h[0]->mp_flag, 0, sizeof(unsigned)));
        CK(cudaDeviceSynchronize());
        barrier(sock);
        if (p == 0) {
            if (sys) mp_reader<cuda::thread_scope_system><<<1, 256>>>(h[0], rounds, bad);
            else mp_reader<cuda::thread_scope_device><<<1, 256>>>(h[0], rounds, bad);
        } else {
            if (sys) mp_writer<cuda::thread_scope_system><<<1, 256>>>(h[0], rounds);
            else mp_writer<cuda::thread_scope_device><<<1, 256>>>(h[0], rounds);
        }
        CK(cudaDeviceSynchronize());
        if (p == 0)
            printf("vmm message_passing scope=%s rounds=%d words_checked=%d stale_words=%u\n", sys ? "system" : "device",
                   rounds, rounds * 256, *bad);
        barrier(sock);
    }
    return 0;
}

int main()
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) { perror("socketpair"); return 1; }
    fflush(stdout);
    pid_t child = fork(); /* before CUDA starts: a CUDA context does not survive fork */
    if (child < 0) { perror("fork"); return 1; }
    int rc = run(child == 0 ? 1 : 0, child == 0 ? sv[1] : sv[0]);
    fflush(stdout);
    if (child == 0) _exit(rc);
    int st = 0;
    waitpid(child, &st, 0);
    return rc || !WIFEXITED(st) || WEXITSTATUS(st);
}
