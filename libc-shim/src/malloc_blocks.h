/* What the shared heap (malloc.cu) and a rank's private arena
 * (malloc_private.cu) have in common: the header in front of every block
 * and the size classes, so that free and realloc take any block back to
 * where it came from. */
#ifndef GPUMPI_MALLOC_BLOCKS_H
#define GPUMPI_MALLOC_BLOCKS_H

#include "runtime.h"

#define GP_BLOCK_HEADER 16
#define GP_BLOCK_MAGIC 0x6b62u
/* A header in front of an over-aligned payload inside a bigger block: its
 * owner field holds the distance back to the real payload. */
#define GP_ALIGNED_MAGIC 0x6b61u
/* The owner of a block in a rank's private arena (the program's) or its
 * tables arena (the runtime's): only that rank can reach it, so nobody
 * else frees it. */
#define GP_OWNER_PRIVATE 0xffffffffu
#define GP_OWNER_TABLES 0xfffffffeu
#define GP_ENOMEM 12

typedef struct gp_block {
    uint32_t owner; /* the rank whose lists a freed small block returns to, GP_OWNER_PRIVATE or GP_OWNER_TABLES */
    uint16_t cls;
    uint16_t magic;
    uint64_t size; /* bytes asked for: what realloc copies */
} gp_block;

/* Class c holds blocks of 64 << (c / 4) bytes plus c % 4 quarters of that:
 * 64, 80, 96, 112, 128, 160, ... so a block wastes at most a fifth. */
GPUMPI_FN static inline uint64_t gp_class_bytes(int cls)
{
    uint64_t base = (uint64_t)64 << (cls / 4);
    return base + (uint64_t)(cls % 4) * (base / 4);
}

GPUMPI_FN static inline int gp_class_of(size_t n)
{
    if (n > ((uint64_t)1 << 46)) return GP_HEAP_CLASSES;
    uint64_t need = n + GP_BLOCK_HEADER;
    int k = 0; /* need fits in 64 << k */
    while (((uint64_t)64 << k) < need) k++;
    int cls = k ? (k - 1) * 4 : 0; /* the classes between 64 << (k - 1) and 64 << k */
    while (gp_class_bytes(cls) < need) cls++;
    return cls < GP_HEAP_CLASSES ? cls : GP_HEAP_CLASSES;
}

/* Free blocks are linked through their first payload word. */
GPUMPI_FN static inline uint64_t *gp_next_of(uint64_t b) { return (uint64_t *)(uintptr_t)(b + GP_BLOCK_HEADER); }

/* Block b, of class cls, handed out for n bytes: its payload. */
GPUMPI_FN static inline void *gp_block_hand_out(uint64_t b, int cls, size_t n)
{
    gp_block *k = (gp_block *)(uintptr_t)b;
    k->cls = (uint16_t)cls;
    k->magic = GP_BLOCK_MAGIC;
    k->size = n;
    return (char *)k + GP_BLOCK_HEADER;
}

/* Gives a block back to the rank's arena it came from (malloc_private.cu). */
GPUMPI_FN void gp_private_free(gp_block *k);

#endif
