/* The explicit heat step (a Jacobi sweep) and its exact discrete solution. */
#ifndef HEAT_STENCIL_H
#define HEAT_STENCIL_H
#include "grid.h"

/* u = prod_d sin(pi x_d) on the owned points, zero everywhere else (the
 * ghost layers on the domain's edge are the Dirichlet boundary). */
void stencil_init(const struct grid *gr, int nglobal, double *u);
/* unew = u + r * (sum of the 2 dim neighbours - 2 dim u) on the owned
 * points; returns sum (unew - u)^2 over them. */
double stencil_step(const struct grid *gr, double r, const double *u, double *unew);
/* The initial profile is an eigenvector of the discrete Laplacian, so after
 * k steps u = lambda^k u0 exactly; this is lambda. */
double stencil_lambda(int dim, int nglobal, double r);
/* Largest |u - scale u0| / scale over the owned points, and their sum. */
void stencil_compare(const struct grid *gr, int nglobal, const double *u, double scale,
                     double *maxerr, double *sum);

#endif
