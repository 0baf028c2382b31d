/* Counter-based random points: sample i of a run depends only on (seed,
 * i), so any split of the samples over ranks draws the same points. */
#ifndef MC_SAMPLER_H
#define MC_SAMPLER_H

/* How many of samples [first, first + n) fall inside the quarter circle. */
long long count_hits(unsigned long long seed, long long first, long long n);

#endif
