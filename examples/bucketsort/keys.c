#include "keys.h"

uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void keys_generate(uint64_t seed, long long first, int n, uint32_t *out)
{
    int i;
    for (i = 0; i < n; i++)
        out[i] = (uint32_t)(mix64(mix64(seed) + (uint64_t)(first + i)) >> 32);
}

void keys_fingerprint(const uint32_t *k, int n, unsigned long long *sum, unsigned long long *hsum)
{
    unsigned long long s = 0, h = 0;
    int i;
    for (i = 0; i < n; i++) {
        s += k[i];
        h += mix64(k[i]);
    }
    *sum = s;
    *hsum = h;
}
