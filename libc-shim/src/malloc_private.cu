/* A rank's private memory: an arena only the rank itself can reach, where
 * the program's malloc, calloc and realloc take blocks first. On the GPU
 * it is the thread's local memory (the launcher makes it with alloca at
 * the bottom of the rank's stack), which the hardware interleaves across a
 * warp's lanes: word w of 32 ranks sits in one line, so 32 ranks touching
 * the same offset of their own arrays is one access, not 32. On an H200 a
 * 7-point sweep over each rank's own block ran 25.8 -> 45.8 Gcell/s at
 * 270,336 ranks there (bench/stencil.c), and a little slower at 32,768,
 * where the shared heap's lines stay in L1 (bench/README.md, session 15).
 *
 * What does not fit goes to the shared heap (malloc.cu), and so does all
 * of the runtime's own memory that other ranks read or free (staged
 * messages, envelopes, communicator maps): those call gp_malloc. MPI sends
 * from and receives into private buffers through the owner's copies
 * (p2p.cu: gp_is_shared_memory).
 *
 * One rank only, so no atomics. Blocks carry malloc.cu's header and
 * classes, the owner field GP_OWNER_PRIVATE (GP_OWNER_TABLES in the
 * runtime tables' arena), and go back on the arena's
 * own free lists. The arena's bookkeeping sits at its start. */
#include "gpumpi/shim_stdlib.h"
#include "malloc_blocks.h"
#include "gpumpi/launch.h"

/* Blocks up to 1 MiB (an arena is at most 480 KiB on the GPU). */
#define GP_PRIVATE_CLASSES 57

typedef struct gp_private_arena {
    char *top, *end;   /* not carved yet */
    uint64_t max_block; /* larger requests go to the shared heap */
    uint32_t owner;     /* what its blocks' headers say: GP_OWNER_PRIVATE or GP_OWNER_TABLES */
    uint64_t free[GP_PRIVATE_CLASSES];
} gp_private_arena;

#if defined(GPUMPI_THREADS)
__thread const char *gp_threads_private_lo, *gp_threads_private_hi;
const char *gp_threads_shared_lo, *gp_threads_shared_hi; /* set by launcher/launcher_procs.c */
#endif

/* An arena in [base, base + bytes), or NULL if that is too small to be worth one. */
GPUMPI_FN static gp_private_arena *gp_arena_make(char *base, size_t bytes, uint32_t owner, int half)
{
    uintptr_t lo = ((uintptr_t)base + 15) & ~(uintptr_t)15, hi = (uintptr_t)base + bytes;
    if (!base || hi < lo + 2048) return 0;
    gp_private_arena *a = (gp_private_arena *)lo;
    a->top = (char *)lo + ((sizeof *a + 15) & ~(size_t)15);
    a->end = (char *)hi;
    a->max_block = (uint64_t)(a->end - a->top) / (half ? 2 : 1);
    a->owner = owner;
    for (int i = 0; i < GP_PRIVATE_CLASSES; i++) a->free[i] = 0;
    return a;
}

extern "C" GPUMPI_FN void gp_private_init(char *base, size_t bytes, char *tables, size_t tables_bytes)
{
    gp_rank *me = gp_self();
    me->tables_arena = gp_arena_make(tables, tables_bytes, GP_OWNER_TABLES, 0);
    /* the launcher allows no less; one block may take half: the arena is
     * for a rank's working arrays, and one large message buffer should not
     * crowd them all out */
    me->private_arena = bytes >= GP_PRIVATE_MIN_BYTES ? gp_arena_make(base, bytes, GP_OWNER_PRIVATE, 1) : 0;
#if defined(GPUMPI_THREADS)
    gp_threads_private_lo = me->private_arena ? base : 0;
    gp_threads_private_hi = me->private_arena ? base + bytes : 0;
#endif
}

GPUMPI_FN static void *gp_arena_take(gp_private_arena *a, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    if (!a || (size_t)(a->end - a->top) < bytes) return 0;
    char *p = a->top;
    a->top += bytes;
    return p;
}

GPUMPI_FN void *gp_private_take(size_t bytes) { return gp_arena_take((gp_private_arena *)gp_self()->private_arena, bytes); }

/* A block of the arena for n bytes (its payload), or NULL when it does not fit. */
GPUMPI_FN static void *gp_arena_malloc(gp_private_arena *a, size_t n)
{
    if (!a || n > a->max_block) return 0;
    int cls = gp_class_of(n);
    if (cls >= GP_PRIVATE_CLASSES) return 0;
    uint64_t b = a->free[cls];
    if (b)
        a->free[cls] = *gp_next_of(b);
    else
        b = (uint64_t)(uintptr_t)gp_arena_take(a, gp_class_bytes(cls));
    if (!b) return 0;
    ((gp_block *)(uintptr_t)b)->owner = a->owner;
    return gp_block_hand_out(b, cls, n);
}

GPUMPI_FN void gp_private_free(gp_block *k)
{
    gp_rank *me = gp_self();
    gp_private_arena *a = (gp_private_arena *)(k->owner == GP_OWNER_TABLES ? me->tables_arena : me->private_arena);
    uint64_t b = (uint64_t)(uintptr_t)k;
    *gp_next_of(b) = a->free[k->cls];
    a->free[k->cls] = b;
}

/* The runtime's tables that only their rank reads and writes (its
 * requests, communicators, posted-receive index) in its local memory: a
 * store there stays in L1, where a store to the shared heap sends the next
 * read of the line to L2. Six MPI_Irecv, six MPI_Isend and the MPI_Waitall
 * of a halo exchange on an H200: 1,131 -> 718 us at 32,768 ranks
 * (bench/README.md, session 19). */
GPUMPI_FN void *gp_tables_malloc(size_t n)
{
    void *p = gp_arena_malloc((gp_private_arena *)gp_self()->tables_arena, n);
    return p ? p : gp_malloc(n);
}

/* Smaller blocks stay in the shared heap. Private memory pays when a
 * warp's ranks sweep their own arrays together; a small block is more
 * often a message buffer or a little table that a rank reads alone, and
 * one thread reading its own local memory touches a cache line per word
 * (a 128-byte message: 32 lines, against 1 in the shared heap). */
#define GP_PRIVATE_MIN_BLOCK 1024

/* The program's malloc: private while it fits, else shared. */
GPUMPI_FN void *gp_rank_malloc(size_t n)
{
    void *p = n >= GP_PRIVATE_MIN_BLOCK ? gp_arena_malloc((gp_private_arena *)gp_self()->private_arena, n) : 0;
    return p ? p : gp_malloc(n);
}
