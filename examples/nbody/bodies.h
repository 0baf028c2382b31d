/* The bodies a rank owns and the initial conditions. */
#ifndef NBODY_BODIES_H
#define NBODY_BODIES_H

/* Positions and masses travel together: what the other ranks need. */
struct body_pos {
    double x, y, z, m;
};

struct bodies {
    int nlocal;          /* slots on this rank: ceil(N / nprocs) */
    long long first;     /* global index of slot 0; slots past N are padding with mass 0 */
    long long ntotal;
    struct body_pos *pos;
    double *vx, *vy, *vz, *ax, *ay, *az;
};

/* Bodies uniform in the unit cube with small random velocities, the whole
 * system's momentum removed; the same bodies at every rank count. */
void bodies_init(struct bodies *b, long long ntotal, unsigned long long seed);
void bodies_free(struct bodies *b);

#endif
