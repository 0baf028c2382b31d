/* rand, srand, random, srandom, rand_r and the drand48 family, giving
 * glibc's sequences for the same seeds; every rank has its own generators.
 * rand() is glibc's TYPE_3 additive generator: 31 words seeded by the
 * Park-Miller LCG, r[i] = r[i-31] + r[i-3] mod 2^32, output r >> 1, the
 * first 310 outputs discarded. */
#include "gpumpi/shim_stdlib.h"
#include "libc_state.h"

GPUMPI_FN static uint32_t gp_random_step(gp_libc_state *L)
{
    uint32_t v = (uint32_t)L->rand_tbl[L->rand_f] + (uint32_t)L->rand_tbl[L->rand_r];
    L->rand_tbl[L->rand_f] = (int32_t)v;
    if (++L->rand_f == 31) L->rand_f = 0;
    if (++L->rand_r == 31) L->rand_r = 0;
    return v >> 1;
}

GPUMPI_FN void gp_rand_seed(gp_libc_state *L, unsigned seed)
{
    int32_t word = (int32_t)(seed == 0 ? 1 : seed);
    L->rand_tbl[0] = word;
    for (int i = 1; i < 31; i++) {
        /* 16807 * word mod (2^31 - 1) without overflow (Schrage) */
        long hi = word / 127773, lo = word % 127773;
        long w = 16807 * lo - 2836 * hi;
        if (w < 0) w += 2147483647;
        word = (int32_t)w;
        L->rand_tbl[i] = word;
    }
    L->rand_f = 3;
    L->rand_r = 0;
    for (int i = 0; i < 310; i++) gp_random_step(L);
}

GPUMPI_FN long gp_random(void) { return (long)gp_random_step(gp_libc()); }

GPUMPI_FN void gp_srandom(unsigned seed) { gp_rand_seed(gp_libc(), seed); }
GPUMPI_FN int gp_rand(void) { return (int)gp_random(); }
GPUMPI_FN void gp_srand(unsigned seed) { gp_rand_seed(gp_libc(), seed); }

/* POSIX's example generator as glibc extends it to 31 bits: three LCG steps,
 * 11 + 10 + 10 bits. */
GPUMPI_FN int gp_rand_r(unsigned *seed)
{
    unsigned next = *seed;
    unsigned r;
    next = next * 1103515245u + 12345u;
    r = (next / 65536) % 2048;
    next = next * 1103515245u + 12345u;
    r = (r << 10) ^ ((next / 65536) % 1024);
    next = next * 1103515245u + 12345u;
    r = (r << 10) ^ ((next / 65536) % 1024);
    *seed = next;
    return (int)r;
}

/* ---- drand48: X' = a X + c mod 2^48 ---- */

#define GP_MASK48 0xffffffffffffull

GPUMPI_FN static uint64_t gp_x48_load(const unsigned short x[3])
{
    return (uint64_t)x[0] | (uint64_t)x[1] << 16 | (uint64_t)x[2] << 32;
}

GPUMPI_FN static void gp_x48_store(unsigned short x[3], uint64_t v)
{
    x[0] = (unsigned short)v;
    x[1] = (unsigned short)(v >> 16);
    x[2] = (unsigned short)(v >> 32);
}

GPUMPI_FN static uint64_t gp_step48(gp_libc_state *L, uint64_t x) { return (L->a48 * x + L->c48) & GP_MASK48; }

/* X / 2^48, exactly (48 bits fit a double) */
GPUMPI_FN static double gp_unit48(uint64_t x) { return (double)x * (1.0 / 281474976710656.0); }

GPUMPI_FN double gp_drand48(void)
{
    gp_libc_state *L = gp_libc();
    L->x48 = gp_step48(L, L->x48);
    return gp_unit48(L->x48);
}

GPUMPI_FN double gp_erand48(unsigned short x[3])
{
    uint64_t v = gp_step48(gp_libc(), gp_x48_load(x));
    gp_x48_store(x, v);
    return gp_unit48(v);
}

GPUMPI_FN long gp_lrand48(void)
{
    gp_libc_state *L = gp_libc();
    L->x48 = gp_step48(L, L->x48);
    return (long)(L->x48 >> 17);
}

GPUMPI_FN long gp_nrand48(unsigned short x[3])
{
    uint64_t v = gp_step48(gp_libc(), gp_x48_load(x));
    gp_x48_store(x, v);
    return (long)(v >> 17);
}

GPUMPI_FN long gp_mrand48(void)
{
    gp_libc_state *L = gp_libc();
    L->x48 = gp_step48(L, L->x48);
    return (long)(int32_t)(uint32_t)(L->x48 >> 16);
}

GPUMPI_FN long gp_jrand48(unsigned short x[3])
{
    uint64_t v = gp_step48(gp_libc(), gp_x48_load(x));
    gp_x48_store(x, v);
    return (long)(int32_t)(uint32_t)(v >> 16);
}

GPUMPI_FN void gp_srand48(long seed)
{
    gp_libc_state *L = gp_libc();
    L->x48 = ((uint64_t)(uint32_t)seed << 16) | 0x330e;
    L->a48 = 0x5deece66dull;
    L->c48 = 0xb;
}

GPUMPI_FN unsigned short *gp_seed48(unsigned short seed[3])
{
    gp_libc_state *L = gp_libc();
    gp_x48_store(L->seed48_old, L->x48);
    L->x48 = gp_x48_load(seed);
    L->a48 = 0x5deece66dull;
    L->c48 = 0xb;
    return L->seed48_old;
}

GPUMPI_FN void gp_lcong48(unsigned short param[7])
{
    gp_libc_state *L = gp_libc();
    L->x48 = gp_x48_load(param);
    L->a48 = gp_x48_load(param + 3);
    L->c48 = param[6];
}
