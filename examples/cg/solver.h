/* Conjugate gradient on the distributed matrix. */
#ifndef CG_SOLVER_H
#define CG_SOLVER_H
#include "matrix.h"

/* Global dot product over the owned entries. */
double dot(MPI_Comm comm, int n, const double *x, const double *y);
/* Solves A x = b from x = 0 until ||r|| <= tol ||b|| or maxiter; x needs
 * room for the ghosts. Returns the iterations done. */
int cg_solve(const struct decomp *dc, struct matrix *a, const double *b, double *x, double tol, int maxiter,
             double *relres);

#endif
