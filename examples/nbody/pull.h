/* The interaction kernel every mode shares. */
#ifndef NBODY_PULL_H
#define NBODY_PULL_H
#include "bodies.h"

/* Bodies in NBLOCKS blocks of SIZE slots (block k at pos + k * size,
 * global index of its slot 0 first[k]), as the gathers leave them. */
struct blocks {
    const struct body_pos *pos;
    int nblocks, size;
    const long long *first;
};

/* Adds the pull of the bodies in SRC on the NT bodies TGT (global indices
 * from TFIRST) to ax/ay/az[0..nt) and returns their share of the potential
 * energy. Slots at or past NTOTAL are padding (no mass): they pull nothing
 * and are not pulled (nobody reads their acceleration). */
double pull(const struct body_pos *tgt, int nt, long long tfirst, double *ax, double *ay, double *az,
            const struct blocks *src, long long ntotal);

/* How many of the SIZE slots from global index FIRST are real bodies. */
int real_slots(long long first, int size, long long ntotal);

#endif
