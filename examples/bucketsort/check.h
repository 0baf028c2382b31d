/* Checks of the sorted result. */
#ifndef BUCKETSORT_CHECK_H
#define BUCKETSORT_CHECK_H
#include <stdint.h>

/* Errors on this rank: keys out of order locally, keys outside this rank's
 * bucket, and the last key of the ranks before above this rank's first. */
long long check_sorted(const uint32_t *keys, int n);

#endif
