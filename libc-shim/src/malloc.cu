/* malloc on the device. Thousands of ranks allocate at once and CUDA's own
 * device heap serialises them, so the heap is an arena the launcher sizes
 * (--heap) and blocks come in power-of-two classes:
 *   - small blocks (up to 64 KiB, in classes a quarter-power of two apart) sit on the calling rank's own free lists:
 *     malloc and free take no atomics; a rank carves new blocks from the
 *     arena with one atomic step, more at a time as it keeps asking;
 *   - a block freed by another rank (a staged message freed by its
 *     receiver) goes back to the rank that carved it through a lock-free
 *     stack that rank drains when its list runs dry, so memory that moves
 *     between ranks is reused rather than lost to the arena;
 *   - big blocks share one list per class under a lock (they are rare).
 * An exhausted arena gives NULL. */
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "malloc_blocks.h"
#include "gpumpi/format.h"

#define GP_REFILL_BYTES (64u << 10) /* most a rank carves for one small class at once */

/* `bytes` more of the arena, or 0 when it would overflow. One atomic add,
 * never a retry loop: 270,000 ranks carving at once (their first malloc
 * in MPI_Init) took seconds with compare-and-swap. A carve that overflows
 * gives its bytes back; one that races with it near the end may fail. */
GPUMPI_FN static uint64_t gp_carve(uint64_t bytes)
{
    gp_heap *h = &gp_w()->heap;
    if (gp_load_relaxed64(&h->top) + bytes > h->size) return 0;
    uint64_t top = gp_fetch_add64(&h->top, bytes);
    if (top + bytes <= h->size) return (uint64_t)(uintptr_t)h->base + top;
    gp_fetch_add64(&h->top, (uint64_t)0 - bytes);
    return 0;
}

/* Blocks other ranks freed for us go back on our lists. */
GPUMPI_FN static void gp_drain_remote(gp_rank_heap *rh)
{
    uint64_t b = gp_exchange64(&rh->remote, 0);
    while (b) {
        uint64_t next = *gp_next_of(b);
        gp_block *k = (gp_block *)(uintptr_t)b;
        *gp_next_of(b) = rh->free[k->cls];
        rh->free[k->cls] = b;
        b = next;
    }
}

GPUMPI_FN static uint64_t gp_small_block(int cls)
{
    gp_rank_heap *rh = &gp_self()->heap;
    if (!rh->free[cls]) gp_drain_remote(rh);
    if (!rh->free[cls]) {
        uint64_t size = gp_class_bytes(cls), most = GP_REFILL_BYTES / size;
        uint64_t k = rh->refill[cls] ? rh->refill[cls] : 1;
        if (k > most) k = most ? most : 1;
        uint64_t run = gp_carve(k * size);
        if (!run) {
            k = 1; /* the last bytes of the arena */
            run = gp_carve(size);
            if (!run) return 0;
        }
        rh->refill[cls] = (uint16_t)(k * 2 < most ? k * 2 : most);
        for (uint64_t i = 0; i < k; i++) {
            uint64_t b = run + i * size;
            ((gp_block *)(uintptr_t)b)->cls = (uint16_t)cls;
            ((gp_block *)(uintptr_t)b)->owner = (uint32_t)gp_thread_rank();
            *gp_next_of(b) = rh->free[cls];
            rh->free[cls] = b;
        }
    }
    uint64_t b = rh->free[cls];
    rh->free[cls] = *gp_next_of(b);
    return b;
}

GPUMPI_FN static void gp_big_lock(gp_heap *h)
{
    unsigned spins = 0;
    while (!gp_cas(&h->big_lock, 0, 1)) gp_pause(&spins);
}

GPUMPI_FN static uint64_t gp_big_block(int cls)
{
    gp_heap *h = &gp_w()->heap;
    gp_big_lock(h);
    uint64_t b = h->big_free[cls];
    if (b) h->big_free[cls] = *gp_next_of(b);
    gp_store_release(&h->big_lock, 0);
    return b ? b : gp_carve(gp_class_bytes(cls));
}

/* Once per job: a program that does not check malloc's result would fault
 * with no clue why. */
GPUMPI_FN static void gp_report_exhausted(size_t n)
{
    gp_heap *h = &gp_w()->heap;
    if (!gp_cas(&h->warned, 0, 1)) return;
    char msg[200];
    int len = gp_snprintf(msg, sizeof msg,
                          "rank %d: malloc(%zu): the heap is exhausted (%llu bytes shared by all ranks); malloc "
                          "returns NULL. Raise it with ---gpumpi --heap BYTES\n",
                          gp_thread_rank(), n, (unsigned long long)h->size);
    gp_host_call(GP_HOST_WRITE, 2, msg, (size_t)len);
}

GPUMPI_FN void *gp_malloc_quiet(size_t n)
{
    int cls = gp_class_of(n);
    uint64_t b = 0;
    if (cls < GP_HEAP_CLASSES) b = cls < GP_HEAP_SMALL_CLASSES ? gp_small_block(cls) : gp_big_block(cls);
    if (!b) return 0;
    if (cls >= GP_HEAP_SMALL_CLASSES) ((gp_block *)(uintptr_t)b)->owner = (uint32_t)gp_thread_rank();
    return gp_block_hand_out(b, cls, n);
}

GPUMPI_FN void *gp_malloc(size_t n)
{
    void *p = gp_malloc_quiet(n);
    if (!p) {
        gp_report_exhausted(n);
        gp_self()->libc_errno = GP_ENOMEM;
    }
    return p;
}

GPUMPI_FN static gp_block *gp_block_of(void *p, const char *fn)
{
    gp_block *k = (gp_block *)((char *)p - GP_BLOCK_HEADER);
    if (k->magic == GP_ALIGNED_MAGIC) { /* from aligned_alloc: the block it sits in */
        p = (char *)p - k->owner;
        k = (gp_block *)((char *)p - GP_BLOCK_HEADER);
    }
    if (k->magic != GP_BLOCK_MAGIC)
        gp_fatal(fn, MPI_ERR_OTHER, "%p was not returned by malloc, or was freed twice", p);
    return k;
}

GPUMPI_FN void gp_free(void *p)
{
    if (!p) return;
    gp_block *k = gp_block_of(p, "free");
    gp_block *a = (gp_block *)((char *)p - GP_BLOCK_HEADER);
    if (a != k) a->magic = 0; /* an aligned payload's own header */
    k->magic = 0;
    if (k->owner == GP_OWNER_PRIVATE || k->owner == GP_OWNER_TABLES) {
        gp_private_free(k);
        return;
    }
    uint64_t b = (uint64_t)(uintptr_t)k;
    int cls = k->cls;
    if (cls >= GP_HEAP_SMALL_CLASSES) {
        gp_heap *h = &gp_w()->heap;
        gp_big_lock(h);
        *gp_next_of(b) = h->big_free[cls];
        h->big_free[cls] = b;
        gp_store_release(&h->big_lock, 0);
        return;
    }
    if (k->owner == (uint32_t)gp_thread_rank()) {
        gp_rank_heap *rh = &gp_self()->heap;
        *gp_next_of(b) = rh->free[cls];
        rh->free[cls] = b;
        return;
    }
    uint64_t *remote = &gp_rank_of((int)k->owner)->heap.remote;
    for (;;) {
        uint64_t head = gp_load_relaxed64(remote);
        *gp_next_of(b) = head;
        if (gp_cas64_release(remote, head, b)) return;
    }
}

/* calloc from any of the allocators: the shared heap's (the runtime's own
 * zeroed tables that other ranks read), the program's (private first) or
 * the runtime tables' (the rank's local memory first). */
GPUMPI_FN static void *gp_calloc_from(void *(*alloc)(size_t), size_t count, size_t size)
{
    if (size && count > (size_t)-1 / size) {
        gp_self()->libc_errno = GP_ENOMEM;
        return 0;
    }
    void *p = alloc(count * size);
    if (p) gp_memset(p, 0, count * size);
    return p;
}

GPUMPI_FN void *gp_calloc(size_t count, size_t size) { return gp_calloc_from(gp_malloc, count, size); }
GPUMPI_FN void *gp_rank_calloc(size_t count, size_t size) { return gp_calloc_from(gp_rank_malloc, count, size); }
GPUMPI_FN void *gp_tables_calloc(size_t count, size_t size) { return gp_calloc_from(gp_tables_malloc, count, size); }

/* The program's realloc: a new or moved block comes from private memory
 * first (gp_rank_malloc). */
GPUMPI_FN void *gp_realloc(void *p, size_t n)
{
    if (!p) return gp_rank_malloc(n);
    if (n == 0) {
        gp_free(p);
        return 0;
    }
    gp_block *k = gp_block_of(p, "realloc");
    gp_block *a = (gp_block *)((char *)p - GP_BLOCK_HEADER);
    uint64_t have = a != k ? a->size : k->size; /* what the caller's pointer holds */
    if (a == k && gp_class_bytes(k->cls) - GP_BLOCK_HEADER >= n) { /* still fits */
        k->size = n;
        return p;
    }
    void *q = gp_rank_malloc(n);
    if (!q) return 0;
    gp_memcpy(q, p, have < n ? have : n);
    gp_free(p);
    return q;
}

/* Alignments up to 16 are what malloc gives anyway; larger ones take a
 * block with room to slide the payload up to the boundary, and a second
 * header just before it leads free and realloc back to the block. */
GPUMPI_FN void *gp_memalign(size_t align, size_t n)
{
    if (align <= GP_BLOCK_HEADER) return gp_malloc(n);
    if (n > ((size_t)1 << 46)) {
        gp_self()->libc_errno = GP_ENOMEM;
        return 0;
    }
    char *raw = (char *)gp_malloc(n + align + GP_BLOCK_HEADER);
    if (!raw) return 0;
    uintptr_t at = ((uintptr_t)raw + GP_BLOCK_HEADER + align - 1) & ~(uintptr_t)(align - 1);
    gp_block *a = (gp_block *)(at - GP_BLOCK_HEADER);
    a->owner = (uint32_t)(at - (uintptr_t)raw);
    a->cls = 0;
    a->magic = GP_ALIGNED_MAGIC;
    a->size = n;
    return (void *)at;
}

GPUMPI_FN static int gp_pow2(size_t x) { return x && !(x & (x - 1)); }

#define GP_EINVAL 22

/* C11 asks a power of two; glibc accepts any such alignment (and any size). */
GPUMPI_FN void *gp_aligned_alloc(size_t align, size_t n)
{
    if (!gp_pow2(align)) {
        gp_self()->libc_errno = GP_EINVAL;
        return 0;
    }
    return gp_memalign(align, n);
}

/* The error is returned; errno is left alone, as POSIX says. */
GPUMPI_FN int gp_posix_memalign(void **out, size_t align, size_t n)
{
    if (!gp_pow2(align) || align % sizeof(void *)) return GP_EINVAL;
    int saved = gp_self()->libc_errno;
    void *p = gp_memalign(align, n);
    gp_self()->libc_errno = saved;
    if (!p) return GP_ENOMEM;
    *out = p;
    return 0;
}

GPUMPI_FN void *gp_reallocarray(void *p, size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) {
        gp_self()->libc_errno = GP_ENOMEM;
        return 0;
    }
    return gp_realloc(p, n * size);
}
