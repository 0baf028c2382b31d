/* The platform layer: the only code that differs between the CUDA backend
 * and the host-threads backend. Rank id, atomics, fences, pause. Nothing
 * else may test GPUMPI_CUDA / GPUMPI_THREADS.
 *
 * Three ways this header is compiled:
 *   - by nvcc for the GPU backend              (__CUDACC__ defined)
 *   - by g++ -x c++ for the threads backend    (GPUMPI_BACKEND_THREADS defined)
 *   - by libclang parsing the user's plain C   (neither: declarations only)
 */
#ifndef GPUMPI_PLATFORM_H
#define GPUMPI_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* A value with the tag of the collective it belongs to, 16-byte aligned
 * (gp_split_put/gp_split_get below). */
typedef struct __attribute__((aligned(16))) gp_tagged {
    uint64_t value, tag;
} gp_tagged;

/* A rank's inbox word (match.h, landing.h): the newest envelope sent to the
 * rank, or what a receive waiting there has published or been sent.
 * 16-byte aligned, changed only by the gp_inbox_* atomics below. */
typedef struct __attribute__((aligned(16))) gp_inbox {
    uint64_t head, word;
} gp_inbox;

#if defined(__CUDACC__) && !defined(GPUMPI_BACKEND_THREADS)
#define GPUMPI_CUDA 1
#define GPUMPI_FN __device__
#define GPUMPI_HD __host__ __device__ /* also called by the launcher */
#define GPUMPI_VAR __device__
/* Read-only while the ranks run, and read on every call: constant memory,
 * which no acquire fence evicts (an acquire at device scope empties L1). */
#define GPUMPI_CONST_VAR __constant__
/* nvcc 13 miscompiles a variadic device function inlined into its caller
 * (ptxas: "Unknown symbol '%VAParam'"): keep every variadic one out of line. */
#define GPUMPI_VARIADIC_FN __device__ __noinline__
/* A loop nvcc must not unroll (where unrolled copies of its body would
 * not fit in the registers -maxrregcount leaves, and spill). */
#define GP_NO_UNROLL _Pragma("unroll 1")
#elif defined(GPUMPI_BACKEND_THREADS)
#define GPUMPI_THREADS 1
#ifndef __device__
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#endif
#define GPUMPI_FN
#define GPUMPI_HD
#define GPUMPI_VAR
#define GPUMPI_CONST_VAR
#define GPUMPI_VARIADIC_FN
#define GP_NO_UNROLL
#else
/* plain C parse of user code: no bodies below are used */
#define GPUMPI_FN
#define GPUMPI_HD
#define GPUMPI_VAR
#define GPUMPI_CONST_VAR
#define GPUMPI_VARIADIC_FN
#define GP_NO_UNROLL
#endif

/* long double as converted code and the runtime hold it (the converter
 * writes `long double` as gp_ldouble, converter/rewrite_float_types.c).
 * nvcc computes a device long double as a double but keeps the host's
 * 16-byte sizeof and struct layout while indexing arrays of it by 8, so on
 * the GPU it is a plain double: sizeof, arrays, structs and MPI_LONG_DOUBLE
 * then agree. The threads backend keeps the host's x87 long double. */
#if defined(GPUMPI_CUDA)
typedef double gp_ldouble;
#else
typedef long double gp_ldouble;
#endif

#if defined(GPUMPI_CUDA) || defined(GPUMPI_THREADS)

#if defined(GPUMPI_CUDA)
/* Atomics are PTX (below), not <cuda/atomic>: that header alone doubled
 * what nvcc reads for every converted file (109k preprocessed lines
 * against 45k for a one-line program) and with it the compile time. */
#else
#include <pthread.h>
#include <sched.h>
#include <time.h>
#endif

/* The rank this thread runs as (world rank). */
#if defined(GPUMPI_CUDA)
/* Ranks per block: the first gp_block_ranks threads of a block are ranks;
 * a block is whole warps, and the threads past them leave at once. Small
 * jobs run one rank a block, alone in its warp (backend_cuda.cu). Set by
 * the launcher (env.cu defines it). */
extern __constant__ int gp_block_ranks;
/* With several GPUs in one job (one launcher process each), this GPU's
 * first world rank and first block of the world's (0 alone). */
extern __constant__ int gp_rank_base, gp_block_base;
__device__ static __forceinline__ int gp_thread_rank(void)
{
    return gp_rank_base + (int)(blockIdx.x * (unsigned)gp_block_ranks + threadIdx.x);
}
#else
extern __thread int gp_threads_rank;
static inline int gp_thread_rank(void) { return gp_threads_rank; }
#endif

/* Atomics on words shared by ranks: device scope on one GPU. With several
 * GPUs in one job (one launcher process each) the memory model orders
 * what one GPU writes for another only at system scope, so there the
 * launcher sets gp_sys_scope and every shared-word atomic and fence takes
 * system scope (a fence costs 0.59 us there against 0.20 on an H200). One
 * GPU keeps device scope. Each operation is one asm statement holding
 * both forms, predicated on gp_sys_scope: no branch in the code around it.
 * Chosen by a C branch per operation instead, one GPU lost 10% (H200,
 * 32,768 ranks: cg 128 0.383 -> 0.424 s, heat n 256 0.082 -> 0.089 s;
 * barrier over 270,336 ranks 7.7 -> 8.3 us). On the threads backend the
 * "device" is the process, so device and system scope are the same. */
#if defined(GPUMPI_CUDA)
extern __constant__ int gp_sys_scope;
/* GP_SCOPE_ASM(k, GP_PICK(op, rest)): `op.sys rest` if operand %k (gp_sys_scope) is set, else `op.gpu rest` */
#define GP_PICK(op, rest) "@p " op ".sys" rest "; @!p " op ".gpu" rest ";"
#define GP_SCOPE_ASM(k, body) "{ .reg .pred p; setp.ne.s32 p, %" #k ", 0; " body " }"
/* sem: "ld.acquire", "st.relaxed", "atom.acq_rel"...; T: the PTX type; C: its operand constraint */
#define GP_LOAD(sem, T, C, p)                                                                                          \
    gp_ptx_##T v;                                                                                                      \
    asm volatile(GP_SCOPE_ASM(2, GP_PICK(sem, "." #T " %0, [%1]")) : "=" C(v) : "l"(p), "r"(gp_sys_scope) : "memory"); \
    return v
#define GP_STORE(sem, T, C, p, v)                                                                                      \
    asm volatile(GP_SCOPE_ASM(2, GP_PICK(sem, "." #T " [%0], %1")) ::"l"(p), C(v), "r"(gp_sys_scope) : "memory")
#define GP_RMW(sem, opT, T, C, p, v)                                                                                   \
    gp_ptx_##T old;                                                                                                    \
    asm volatile(GP_SCOPE_ASM(3, GP_PICK(sem, "." opT " %0, [%1], %2"))                                                \
                 : "=" C(old) : "l"(p), C(v), "r"(gp_sys_scope) : "memory");                                           \
    return old
#define GP_CAS(sem, T, C, p, expect, want)                                                                             \
    gp_ptx_##T old;                                                                                                    \
    asm volatile(GP_SCOPE_ASM(4, GP_PICK(sem, ".cas." #T " %0, [%1], %2, %3"))                                         \
                 : "=" C(old) : "l"(p), C(expect), C(want), "r"(gp_sys_scope) : "memory");                             \
    return old == expect
typedef uint32_t gp_ptx_b32;
typedef uint64_t gp_ptx_b64;
__device__ static __forceinline__ uint32_t gp_load_acquire(uint32_t *p) { GP_LOAD("ld.acquire", b32, "r", p); }
__device__ static __forceinline__ void gp_store_release(uint32_t *p, uint32_t v) { GP_STORE("st.release", b32, "r", p, v); }
__device__ static __forceinline__ uint32_t gp_fetch_add(uint32_t *p, uint32_t v) { GP_RMW("atom.acq_rel", "add.u32", b32, "r", p, v); }
__device__ static __forceinline__ uint64_t gp_fetch_add64(uint64_t *p, uint64_t v) { GP_RMW("atom.acq_rel", "add.u64", b64, "l", p, v); }
__device__ static __forceinline__ int gp_cas(uint32_t *p, uint32_t expect, uint32_t want) { GP_CAS("atom.acq_rel", b32, "r", p, expect, want); }
/* Relaxed loads for values that need no ordering; release-only
 * read-modify-writes for publishing. (Polling stays with acquire loads: on
 * an H100 a relaxed poll plus an acquire fence after it is 0.35 us slower
 * per hand-off than acquire polling.) */
__device__ static __forceinline__ uint32_t gp_load_relaxed(uint32_t *p) { GP_LOAD("ld.relaxed", b32, "r", p); }
__device__ static __forceinline__ uint64_t gp_load_relaxed64(uint64_t *p) { GP_LOAD("ld.relaxed", b64, "l", p); }
__device__ static __forceinline__ int gp_cas64_release(uint64_t *p, uint64_t expect, uint64_t want) { GP_CAS("atom.release", b64, "l", p, expect, want); }
__device__ static __forceinline__ uint64_t gp_load_acquire64(uint64_t *p) { GP_LOAD("ld.acquire", b64, "l", p); }
__device__ static __forceinline__ uint64_t gp_exchange64(uint64_t *p, uint64_t v) { GP_RMW("atom.acq_rel", "exch.b64", b64, "l", p, v); }
/* Takes a word another thread published, publishing nothing itself: no
 * release fence (on an H100 an acq_rel exchange cost 0.52 us, a fence alone 0.33). */
__device__ static __forceinline__ uint64_t gp_take64_acquire(uint64_t *p, uint64_t v) { GP_RMW("atom.acquire", "exch.b64", b64, "l", p, v); }
/* After a release fence every store (relaxed ones included) publishes what
 * came before the fence: one fence can hand over several words. (An
 * acquire or release fence is fence.acq_rel in PTX, as libcu++ makes it.) */
__device__ static __forceinline__ void gp_fence_release(void)
{
    asm volatile(GP_SCOPE_ASM(0, GP_PICK("fence.acq_rel", "")) ::"r"(gp_sys_scope) : "memory");
}
/* What another thread published before the relaxed read just made is
 * visible after it. */
__device__ static __forceinline__ void gp_fence_acquire(void) { gp_fence_release(); }
__device__ static __forceinline__ uint64_t gp_exchange64_relaxed(uint64_t *p, uint64_t v) { GP_RMW("atom.relaxed", "exch.b64", b64, "l", p, v); }
__device__ static __forceinline__ void gp_store_relaxed(uint32_t *p, uint32_t v) { GP_STORE("st.relaxed", b32, "r", p, v); }
__device__ static __forceinline__ void gp_store_relaxed64(uint64_t *p, uint64_t v) { GP_STORE("st.relaxed", b64, "l", p, v); }
__device__ static __forceinline__ int gp_cas64(uint64_t *p, uint64_t expect, uint64_t want) { GP_CAS("atom.acq_rel", b64, "l", p, expect, want); }
#undef GP_LOAD
#undef GP_STORE
#undef GP_RMW
#undef GP_CAS
/* System scope: words in mapped pinned memory that the host reads or writes. */
__device__ static __forceinline__ uint64_t gp_sys_load_acquire64(uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.acquire.sys.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ static __forceinline__ void gp_sys_store_release64(uint64_t *p, uint64_t v)
{
    asm volatile("st.release.sys.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
#else
static inline uint32_t gp_load_acquire(uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void gp_store_release(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static inline uint32_t gp_fetch_add(uint32_t *p, uint32_t v) { return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL); }
static inline uint64_t gp_fetch_add64(uint64_t *p, uint64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL); }
static inline int gp_cas(uint32_t *p, uint32_t expect, uint32_t want)
{
    return __atomic_compare_exchange_n(p, &expect, want, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline uint32_t gp_load_relaxed(uint32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline uint64_t gp_load_relaxed64(uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline int gp_cas64_release(uint64_t *p, uint64_t expect, uint64_t want)
{
    return __atomic_compare_exchange_n(p, &expect, want, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}
static inline uint64_t gp_load_acquire64(uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline uint64_t gp_exchange64(uint64_t *p, uint64_t v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL); }
static inline uint64_t gp_take64_acquire(uint64_t *p, uint64_t v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQUIRE); }
static inline void gp_fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static inline void gp_fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
static inline uint64_t gp_exchange64_relaxed(uint64_t *p, uint64_t v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
static inline void gp_store_relaxed(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
static inline void gp_store_relaxed64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
static inline int gp_cas64(uint64_t *p, uint64_t expect, uint64_t want)
{
    return __atomic_compare_exchange_n(p, &expect, want, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline uint64_t gp_sys_load_acquire64(uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void gp_sys_store_release64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
#endif

/* A value and a 32-bit tag in a gp_tagged's two words as halves, each
 * half with the tag beside it: two relaxed 64-bit accesses, each of them
 * whole, so a reader takes the value only when both halves carry the tag.
 * A look is a plain load, not a compare-and-swap: many ranks can poll one
 * word without queueing at it. */
GPUMPI_FN static inline uint64_t gp_split_half(uint64_t half, uint32_t tag) { return (half & 0xffffffffu) | (uint64_t)tag << 32; }
#if defined(GPUMPI_CUDA)
__device__ static __forceinline__ void gp_split_put(gp_tagged *p, uint64_t value, uint32_t tag)
{
    asm volatile(GP_SCOPE_ASM(3, GP_PICK("st.relaxed", ".v2.u64 [%0], {%1, %2}")) ::"l"(p),
                 "l"(gp_split_half(value, tag)), "l"(gp_split_half(value >> 32, tag)), "r"(gp_sys_scope)
                 : "memory");
}
__device__ static __forceinline__ void gp_split_load(gp_tagged *p, uint64_t *a, uint64_t *b)
{
    asm volatile(GP_SCOPE_ASM(3, GP_PICK("ld.relaxed", ".v2.u64 {%0, %1}, [%2]"))
                 : "=l"(*a), "=l"(*b) : "l"(p), "r"(gp_sys_scope) : "memory");
}
#else
static inline void gp_split_put(gp_tagged *p, uint64_t value, uint32_t tag)
{
    __atomic_store_n(&p->value, gp_split_half(value, tag), __ATOMIC_RELAXED);
    __atomic_store_n(&p->tag, gp_split_half(value >> 32, tag), __ATOMIC_RELAXED);
}
static inline void gp_split_load(gp_tagged *p, uint64_t *a, uint64_t *b)
{
    *a = __atomic_load_n(&p->value, __ATOMIC_RELAXED);
    *b = __atomic_load_n(&p->tag, __ATOMIC_RELAXED);
}
#endif
/* 1 and the value if *p carries tag in both halves, else 0. */
GPUMPI_FN static inline int gp_split_get(gp_tagged *p, uint32_t tag, uint64_t *value)
{
    uint64_t a, b;
    gp_split_load(p, &a, &b);
    if ((uint32_t)(a >> 32) != tag || (uint32_t)(b >> 32) != tag) return 0;
    *value = (a & 0xffffffffu) | b << 32;
    return 1;
}

/* The inbox's atomics (gp_inbox, above): an exchange, one acquiring (a
 * drain reads the envelopes it took), a compare-and-swap returning what
 * was there, and a poll of the head alone, which may tear. GP_HAVE_LANDING: the
 * 16-byte atomics a landing needs (landing.h) exist; without them (CUDA
 * before sm_90) the inbox is its head alone and no receive publishes a
 * landing. */
#if defined(GPUMPI_CUDA) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900)
#define GP_HAVE_LANDING 1
#define GP_INBOX_XCHG(sem)                                                                                            \
    asm volatile("{ .reg .pred p; .reg .b128 d, s; setp.ne.s32 p, %5, 0; mov.b128 s, {%2, %3}; "                      \
                 GP_PICK(sem, ".exch.b128 d, [%4], s") " mov.b128 {%0, %1}, d; }"                                      \
                 : "=l"(o.head), "=l"(o.word) : "l"(head), "l"(word), "l"(p), "r"(gp_sys_scope) : "memory")
__device__ static __forceinline__ gp_inbox gp_inbox_exchange(gp_inbox *p, uint64_t head, uint64_t word)
{
    gp_inbox o;
    GP_INBOX_XCHG("atom.relaxed");
    return o;
}
__device__ static __forceinline__ gp_inbox gp_inbox_take_acquire(gp_inbox *p)
{
    gp_inbox o;
    uint64_t head = 0, word = 0;
    GP_INBOX_XCHG("atom.acquire");
    return o;
}
#undef GP_INBOX_XCHG
__device__ static __forceinline__ gp_inbox gp_inbox_cas(gp_inbox *p, gp_inbox expect, gp_inbox want)
{
    gp_inbox o;
    asm volatile("{ .reg .pred p; .reg .b128 d, c, s; setp.ne.s32 p, %7, 0; mov.b128 c, {%2, %3}; "
                 "mov.b128 s, {%4, %5}; " GP_PICK("atom.relaxed", ".cas.b128 d, [%6], c, s") " mov.b128 {%0, %1}, d; }"
                 : "=l"(o.head), "=l"(o.word)
                 : "l"(expect.head), "l"(expect.word), "l"(want.head), "l"(want.word), "l"(p), "r"(gp_sys_scope)
                 : "memory");
    return o;
}
#elif defined(GPUMPI_CUDA)
#define GP_HAVE_LANDING 0
__device__ static __forceinline__ gp_inbox gp_inbox_exchange(gp_inbox *p, uint64_t head, uint64_t word)
{
    gp_inbox o = {gp_exchange64_relaxed(&p->head, head), 0};
    (void)word;
    return o;
}
__device__ static __forceinline__ gp_inbox gp_inbox_take_acquire(gp_inbox *p)
{
    gp_inbox o = {gp_take64_acquire(&p->head, 0), 0};
    return o;
}
__device__ static __forceinline__ gp_inbox gp_inbox_cas(gp_inbox *p, gp_inbox expect, gp_inbox want)
{
    gp_inbox o = {0, 0};
    asm volatile(GP_SCOPE_ASM(4, GP_PICK("atom.relaxed", ".cas.b64 %0, [%1], %2, %3"))
                 : "=l"(o.head) : "l"(&p->head), "l"(expect.head), "l"(want.head), "r"(gp_sys_scope) : "memory");
    return o;
}
#else
/* cmpxchg16b (-mcx16) on x86-64 */
#define GP_HAVE_LANDING 1
typedef unsigned __int128 gp_u128;
static inline gp_u128 gp_inbox_pack(uint64_t head, uint64_t word) { return (gp_u128)word << 64 | head; }
static inline gp_inbox gp_inbox_unpack(gp_u128 v)
{
    gp_inbox o = {(uint64_t)v, (uint64_t)(v >> 64)};
    return o;
}
static inline gp_inbox gp_inbox_peek(gp_inbox *p)
{
    gp_inbox o = {__atomic_load_n(&p->head, __ATOMIC_RELAXED), __atomic_load_n(&p->word, __ATOMIC_RELAXED)};
    return o;
}
static inline gp_inbox gp_inbox_cas(gp_inbox *p, gp_inbox expect, gp_inbox want)
{
    return gp_inbox_unpack(__sync_val_compare_and_swap((gp_u128 *)p, gp_inbox_pack(expect.head, expect.word),
                                                       gp_inbox_pack(want.head, want.word)));
}
static inline gp_inbox gp_inbox_exchange(gp_inbox *p, uint64_t head, uint64_t word)
{
    gp_inbox was = gp_inbox_peek(p), want = {head, word};
    for (;;) {
        gp_inbox got = gp_inbox_cas(p, was, want);
        if (got.head == was.head && got.word == was.word) return was;
        was = got;
    }
}
static inline gp_inbox gp_inbox_take_acquire(gp_inbox *p) { return gp_inbox_exchange(p, 0, 0); }
#endif
GPUMPI_FN static inline uint64_t gp_inbox_head(gp_inbox *p) { return gp_load_relaxed64(&p->head); }

/* A warp of threads working together (the copy service): lane id, width,
 * and a value from lane 0. On the threads backend a "warp" is one thread. */
#if defined(GPUMPI_CUDA)
__device__ static __forceinline__ int gp_lane_id(void) { return (int)(threadIdx.x & 31); }
__device__ static __forceinline__ int gp_warp_width(void) { return 32; }
__device__ static __forceinline__ uint64_t gp_warp_bcast64(uint64_t v) { return __shfl_sync(0xffffffffu, v, 0); }
__device__ static __forceinline__ unsigned gp_warp_ballot(int p) { return __ballot_sync(0xffffffffu, p); }
/* Whether p holds on every lane of mask (each of them calls it). */
__device__ static __forceinline__ int gp_warp_all(unsigned mask, int p) { return __all_sync(mask, p); }
__device__ static __forceinline__ int gp_lowest_bit(unsigned x) { return __ffs(x) - 1; }
__device__ static __forceinline__ void gp_warp_sync(void) { __syncwarp(); }
__device__ static __forceinline__ void gp_fence(void)
{
    asm volatile(GP_SCOPE_ASM(0, "@p membar.sys; @!p membar.gl;") ::"r"(gp_sys_scope) : "memory");
}
#else
static inline int gp_lane_id(void) { return 0; }
static inline int gp_warp_width(void) { return 1; }
static inline uint64_t gp_warp_bcast64(uint64_t v) { return v; }
static inline unsigned gp_warp_ballot(int p) { return p != 0; }
static inline int gp_warp_all(unsigned mask, int p) { (void)mask; return p; }
static inline int gp_lowest_bit(unsigned x) { return __builtin_ctz(x); }
static inline void gp_warp_sync(void) {}
static inline void gp_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#endif

/* A block: ranks that share fast on-chip memory (one CUDA thread block).
 * Collectives over MPI_COMM_WORLD combine inside a block before they touch
 * global memory. On the threads backend a block is one rank, and its
 * "on-chip" variables are the thread's own. Lanes of a warp exchange values
 * with shuffles; `mask` names the lanes taking part (all of them must). */
#if defined(GPUMPI_CUDA)
#define GPUMPI_BLOCK_VAR __shared__
__device__ static __forceinline__ int gp_block_index(void) { return gp_block_base + (int)blockIdx.x; }
__device__ static __forceinline__ int gp_block_width(void) { return gp_block_ranks; }
__device__ static __forceinline__ int gp_block_thread(void) { return (int)threadIdx.x; }
__device__ static __forceinline__ uint32_t gp_block_load_acquire(uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.acquire.cta.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ static __forceinline__ void gp_block_store_release(uint32_t *p, uint32_t v)
{
    asm volatile("st.release.cta.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ static __forceinline__ uint32_t gp_block_fetch_add(uint32_t *p, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.acq_rel.cta.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
/* Adds 1 per calling thread to *count and returns the value this thread
 * saw; threads of a warp that arrive together add with one atomic. */
__device__ static __forceinline__ uint32_t gp_block_take_ticket(uint32_t *count)
{
    unsigned mask = __activemask(), lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    uint32_t old = 0;
    if ((int)lane == leader) old = gp_block_fetch_add(count, (uint32_t)__popc(mask));
    old = __shfl_sync(mask, old, leader);
    return old + (uint32_t)__popc(mask & ((1u << lane) - 1));
}
/* The lanes of the calling thread's warp that are here now, together. */
__device__ static __forceinline__ unsigned gp_warp_here(void) { return __activemask(); }
__device__ static __forceinline__ uint64_t gp_warp_shfl64(unsigned mask, uint64_t v, int src) { return __shfl_sync(mask, v, src); }
__device__ static __forceinline__ uint64_t gp_warp_down64(unsigned mask, uint64_t v, int off) { return __shfl_down_sync(mask, v, off); }
/* The lanes of mask whose v is this lane's. */
__device__ static __forceinline__ unsigned gp_warp_match64(unsigned mask, uint64_t v) { return __match_any_sync(mask, v); }
__device__ static __forceinline__ int gp_popc(unsigned x) { return __popc(x); }
/* Brings the lanes of mask back in step, so the code after runs once per
 * warp, not once per lane. Only where every lane of mask is known to get
 * here without waiting on anything else. */
__device__ static __forceinline__ void gp_warp_converge(unsigned mask) { __syncwarp(mask); }
/* A gate ranks of a block wait at until one of them opens it. Opened
 * phases count up from 0; a waiter for phase k passes k's parity. From
 * sm_80 on it is an mbarrier in shared memory expecting one arrival per
 * phase, and on sm_90 a waiter sleeps in hardware until it opens, so it
 * may sleep long without adding latency (shm_collectives.cu says what
 * that measured); before sm_80 a counter, polled. */
#if __CUDA_ARCH__ >= 800
__device__ static __forceinline__ unsigned gp_smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ static __forceinline__ void gp_gate_init(uint64_t *gate)
{
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(gp_smem_addr(gate)) : "memory");
}
__device__ static __forceinline__ void gp_gate_open(uint64_t *gate)
{
    /* arrive: release at block scope */
    asm volatile("{ .reg .b64 state; mbarrier.arrive.shared.b64 state, [%0]; }" ::"r"(gp_smem_addr(gate)) : "memory");
}
#else
__device__ static __forceinline__ void gp_gate_init(uint64_t *gate) { *gate = 0; }
__device__ static __forceinline__ void gp_gate_open(uint64_t *gate)
{
    __threadfence_block();
    atomicAdd((unsigned long long *)gate, 1ull);
}
#endif
/* 1 once phase `parity` has opened (acquire at block scope), else 0 after
 * up to about ns nanoseconds. */
__device__ static __forceinline__ int gp_gate_wait(uint64_t *gate, unsigned parity, unsigned ns)
{
    unsigned open;
#if __CUDA_ARCH__ >= 900
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
                 : "=r"(open) : "r"(gp_smem_addr(gate)), "r"(parity), "r"(ns) : "memory");
#elif __CUDA_ARCH__ >= 800
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(open) : "r"(gp_smem_addr(gate)), "r"(parity) : "memory");
    if (!open) __nanosleep(ns < 256 ? ns : 256);
#else
    open = (*(volatile uint64_t *)gate & 1) != parity;
    __threadfence_block();
    if (!open) __nanosleep(ns < 256 ? ns : 256);
#endif
    return (int)open;
}
#else
/* thread_local, not __thread: converted code defines __thread away
 * (gpumpi/converted.h) and may see block variables after that */
#define GPUMPI_BLOCK_VAR thread_local
static inline int gp_block_index(void) { return gp_threads_rank; }
static inline int gp_block_width(void) { return 1; }
static inline int gp_block_thread(void) { return 0; }
static inline uint32_t gp_block_load_acquire(uint32_t *p) { return *p; }
static inline void gp_block_store_release(uint32_t *p, uint32_t v) { *p = v; }
static inline uint32_t gp_block_fetch_add(uint32_t *p, uint32_t v) { uint32_t o = *p; *p += v; return o; }
static inline uint32_t gp_block_take_ticket(uint32_t *count) { return (*count)++; }
static inline unsigned gp_warp_here(void) { return 1; }
static inline uint64_t gp_warp_shfl64(unsigned mask, uint64_t v, int src) { (void)mask; (void)src; return v; }
static inline uint64_t gp_warp_down64(unsigned mask, uint64_t v, int off) { (void)mask; (void)off; return v; }
static inline unsigned gp_warp_match64(unsigned mask, uint64_t v) { (void)v; return mask; }
static inline int gp_popc(unsigned x) { return __builtin_popcount(x); }
static inline void gp_warp_converge(unsigned mask) { (void)mask; }
/* A block is one rank here: nobody else ever waits at its gates. */
static inline void gp_gate_init(uint64_t *gate) { *gate = 0; }
static inline void gp_gate_open(uint64_t *gate) { ++*gate; }
static inline int gp_gate_wait(uint64_t *gate, unsigned parity, unsigned ns) { (void)ns; return (*gate & 1) != parity; }
#endif

/* Back off while waiting for another rank. On the GPU a short sleep frees
 * issue slots for the warps doing work; on the threads backend a waiting rank
 * must give up its core (CI runs 64 ranks on 2 cores). */
GPUMPI_FN static inline void gp_pause_upto(unsigned *spins, unsigned max_ns)
{
#if defined(GPUMPI_CUDA)
    /* measured on an H100: sleeping 32 ns between polls costs a flag
     * ping-pong nothing, 2 us costs 1 us */
    unsigned ns = *spins < 8 ? 32u : (*spins < 64 ? 256u : 2000u);
    __nanosleep(ns < max_ns ? ns : max_ns);
#else
    (void)max_ns;
    if (*spins < 16) {
        sched_yield();
    } else {
        struct timespec ts = {0, *spins < 256 ? 20000L : 200000L};
        nanosleep(&ts, 0);
    }
#endif
    (*spins)++;
}

GPUMPI_FN static inline void gp_pause(unsigned *spins) { gp_pause_upto(spins, 2000u); }

/* Nanoseconds on a clock shared by all ranks (the GPU's global timer). */
GPUMPI_FN static inline uint64_t gp_clock_ns(void)
{
#if defined(GPUMPI_CUDA)
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
#endif
}

/* Can another rank read this address? On the GPU a thread's local memory
 * (its stack, and the private memory malloc takes blocks from first) is
 * its own; the shared heap and mapped memory are not. The threads backend
 * treats its ranks' private arenas alike (any thread could read them), so
 * that their path through MPI is the GPU's and is tested without one. */
#if defined(GPUMPI_THREADS)
extern __thread const char *gp_threads_private_lo, *gp_threads_private_hi;
/* With several launcher processes (under mpiexec) only the segment they
 * all map at one address is readable by every rank: as on the GPU, the
 * rest (a thread's stack, the process's own data) is its owner's. */
extern const char *gp_threads_shared_lo, *gp_threads_shared_hi;
#endif
GPUMPI_FN static inline int gp_is_shared_memory(const void *p)
{
#if defined(GPUMPI_CUDA)
    return __isGlobal(p);
#else
    if (gp_threads_shared_lo) return (const char *)p >= gp_threads_shared_lo && (const char *)p < gp_threads_shared_hi;
    return (const char *)p < gp_threads_private_lo || (const char *)p >= gp_threads_private_hi;
#endif
}

/* End the calling rank now (its state is already recorded). */
GPUMPI_FN static inline void gp_end_this_rank(void)
{
#if defined(GPUMPI_CUDA)
    asm volatile("exit;");
#else
    pthread_exit(0);
#endif
}

#endif /* GPUMPI_CUDA || GPUMPI_THREADS */
#endif
