#include <math.h>
#include <stdlib.h>
#include "solver.h"

double dot(MPI_Comm comm, int n, const double *x, const double *y)
{
    double s = 0, t;
    int i;
    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, comm);
    return t;
}

int cg_solve(const struct decomp *dc, struct matrix *a, const double *b, double *x, double tol, int maxiter,
             double *relres)
{
    int n = a->nrows, i, it = 0;
    double *r = malloc((n + 1) * sizeof(double));
    double *p = malloc((a->ncols + 1) * sizeof(double)); /* p is applied: it needs ghosts */
    double *q = malloc((n + 1) * sizeof(double));
    double bb, rr, rr_new, alpha, beta;
    for (i = 0; i < n; i++) {
        x[i] = 0;
        r[i] = b[i];
        p[i] = b[i];
    }
    bb = dot(dc->cart, n, b, b);
    rr = bb;
    while (it < maxiter && rr > tol * tol * bb) {
        matrix_apply(dc, a, p, q);
        alpha = rr / dot(dc->cart, n, p, q);
        for (i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        rr_new = dot(dc->cart, n, r, r);
        beta = rr_new / rr;
        rr = rr_new;
        for (i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
        it++;
    }
    *relres = bb > 0 ? sqrt(rr / bb) : 0;
    free(r);
    free(p);
    free(q);
    return it;
}
