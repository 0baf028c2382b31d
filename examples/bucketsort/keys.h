/* The keys to sort: key i of the whole run is a hash of (seed, i), so the
 * set of keys does not depend on how many ranks make them. */
#ifndef BUCKETSORT_KEYS_H
#define BUCKETSORT_KEYS_H
#include <stdint.h>

/* A 64-bit mixing function: consecutive inputs give unrelated outputs. */
uint64_t mix64(uint64_t x);
/* Keys [first, first + n) of the run with this seed. */
void keys_generate(uint64_t seed, long long first, int n, uint32_t *out);
/* Order-independent fingerprints of a set of keys: their sum and the sum
 * of their hashes (both mod 2^64). */
void keys_fingerprint(const uint32_t *k, int n, unsigned long long *sum, unsigned long long *hsum);

#endif
