/* The Laplacian (5-point in 2-D, 7-point in 3-D, Dirichlet boundary) as a
 * CSR matrix over each rank's rows. Columns index an extended vector: the
 * owned values first, then the ghost values received from each face
 * neighbour. */
#ifndef CG_MATRIX_H
#define CG_MATRIX_H
#include "decomp.h"

struct matrix {
    int nrows, ncols;        /* ncols = nrows + ghosts */
    int *rowptr, *col;
    double *val;
    /* halo: per face, the owned points sent and where the received land */
    int face_count[6], face_ghost0[6];
    int *face_send[6];
    double *sendbuf[6];
};

void matrix_build(const struct decomp *dc, struct matrix *a);
void matrix_free(struct matrix *a);
/* Fills x[nrows ...] (the ghosts) from the neighbours. */
void matrix_halo(const struct decomp *dc, struct matrix *a, double *x);
/* y = A x, x extended (the halo is exchanged first). */
void matrix_apply(const struct decomp *dc, struct matrix *a, double *x, double *y);

#endif
