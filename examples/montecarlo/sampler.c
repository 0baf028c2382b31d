#include <stdint.h>
#include "sampler.h"

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

long long count_hits(unsigned long long seed, long long first, long long n)
{
    uint64_t key = mix64(seed);
    long long i, hits = 0;
    for (i = 0; i < n; i++) {
        uint64_t r = mix64(key + (uint64_t)(first + i));
        /* two 32-bit coordinates; the test x^2 + y^2 < 2^64 is exact in integers */
        uint64_t x = r >> 32, y = r & 0xffffffffULL;
        uint64_t x2 = x * x, y2 = y * y;
        hits += x2 + y2 >= x2; /* no carry out of 64 bits: inside */
    }
    return hits;
}
