/* Direct O(N^2) gravity with Plummer softening (G = 1). */
#ifndef NBODY_FORCES_H
#define NBODY_FORCES_H
#include "bodies.h"

enum { MODE_ALLGATHER = 0, MODE_RING = 1 };

/* Accelerations of the local bodies from all bodies, and the potential
 * energy of the whole system. allgather: every rank gathers all positions
 * (N per rank); ring: blocks pass around the ranks with Sendrecv_replace
 * (N / nprocs per rank, nprocs steps). */
void forces_compute(struct bodies *b, int mode, struct body_pos *work, double *potential);
/* Room the mode needs in WORK, in bodies. */
long long forces_work_size(const struct bodies *b, int mode);

#endif
