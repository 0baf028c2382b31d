/* Run parameters of the heat example, read from an input file by rank 0
 * and broadcast to the others. */
#ifndef HEAT_PARAMS_H
#define HEAT_PARAMS_H

enum { HALO_SENDRECV = 0, HALO_ISEND = 1 };

struct heat_params {
    int dim;          /* 2 or 3 */
    int n;            /* interior points per dimension (global) */
    int steps;        /* time steps */
    int check_every;  /* print the residual every so many steps (0: at the end only) */
    int halo;         /* HALO_SENDRECV or HALO_ISEND */
    double r;         /* alpha * dt / h^2; stable when r <= 1 / (2 * dim) */
    double tol;       /* largest relative error against the exact discrete solution */
};

/* Reads PATH (lines "key value", '#' starts a comment); returns 0, or -1
 * after printing what is wrong. */
int heat_read_params(const char *path, struct heat_params *p);

/* Rank 0 reads, everybody gets the result; returns 0 or -1 on every rank. */
int heat_load_params(const char *path, struct heat_params *p);

#endif
