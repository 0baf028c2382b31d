/* Direct O(N^2) gravity with Plummer softening (G = 1), three ways of
 * bringing the bodies together. */
#ifndef NBODY_FORCES_H
#define NBODY_FORCES_H
#include <mpi.h>
#include "bodies.h"

/* allgather: every rank gathers all positions (N per rank, one collective).
 * ring: blocks pass around the ranks with Sendrecv_replace (N / nprocs per
 * rank, nprocs steps). 2d: the ranks form an R x C grid; a rank gathers the
 * positions of its grid row and of its grid column, computes the pull of
 * the column's bodies on the row's, and a reduce-scatter over the row sums
 * the partial forces ((R + C) N / nprocs per rank, log-depth collectives:
 * the mode for the largest rank counts). */
enum { MODE_ALLGATHER = 0, MODE_RING = 1, MODE_2D = 2 };

/* The mode's communicators and buffers, made once for the whole run. */
struct forces {
    int mode;
    struct body_pos *work; /* allgather: all bodies; ring: the travelling block; 2d: the row's bodies */
    /* 2d only */
    MPI_Comm row, col; /* my grid row (C ranks, by column), my grid column (R ranks, by row) */
    int rows, cols;
    struct body_pos *colpos;       /* the column's bodies */
    long long *rowfirst, *colfirst; /* global index of each gathered block's slot 0 */
    double *part;                  /* partial accelerations of the row's bodies, C blocks of 3 x nlocal */
    double *acc;                   /* my bodies' share of the reduce-scatter, 3 x nlocal */
};

/* The mode's name ("allgather", "ring", "2d"), or -1 for an unknown one. */
int forces_mode(const char *name);
const char *forces_mode_name(int mode);
/* Sets F up for MODE (collective). Returns 0, or the bytes per rank it could
 * not allocate. */
long long forces_init(struct forces *f, const struct bodies *b, int mode);
/* Accelerations of the local bodies from all bodies, and the potential
 * energy of the whole system (collective). */
void forces_compute(struct forces *f, struct bodies *b, double *potential);
void forces_free(struct forces *f);

/* The 2d mode (forces_2d.c). */
long long forces_2d_init(struct forces *f, const struct bodies *b);
double forces_2d_pull(struct forces *f, struct bodies *b);
void forces_2d_free(struct forces *f);

#endif
