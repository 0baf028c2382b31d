#include <math.h>
#include "stencil.h"

static double profile(const struct grid *gr, int nglobal, int i, int j, int k)
{
    const double pi = 3.14159265358979323846, h = 1.0 / (nglobal + 1);
    int idx[3] = {i, j, k}, d;
    double v = 1;
    for (d = 0; d < gr->dim; d++)
        v *= sin(pi * h * (gr->start[d] + idx[d] - gr->g[d] + 1));
    return v;
}

void stencil_init(const struct grid *gr, int nglobal, double *u)
{
    int i, j, k;
    for (i = 0; i < gr->ext[0]; i++)
        for (j = 0; j < gr->ext[1]; j++)
            for (k = 0; k < gr->ext[2]; k++) {
                int owned = i >= gr->g[0] && i < gr->g[0] + gr->n[0] && j >= gr->g[1] &&
                            j < gr->g[1] + gr->n[1] && k >= gr->g[2] && k < gr->g[2] + gr->n[2];
                u[grid_idx(gr, i, j, k)] = owned ? profile(gr, nglobal, i, j, k) : 0.0;
            }
}

double stencil_step(const struct grid *gr, double r, const double *u, double *unew)
{
    int i, j, k;
    long sx = (long)gr->ext[1] * gr->ext[2], sy = gr->ext[2];
    double diag = 2.0 * gr->dim, res = 0;
    for (i = gr->g[0]; i < gr->g[0] + gr->n[0]; i++)
        for (j = gr->g[1]; j < gr->g[1] + gr->n[1]; j++) {
            long base = grid_idx(gr, i, j, 0);
            for (k = gr->g[2]; k < gr->g[2] + gr->n[2]; k++) {
                long c = base + k;
                double nb = u[c - sx] + u[c + sx] + u[c - sy] + u[c + sy], d;
                if (gr->dim == 3)
                    nb += u[c - 1] + u[c + 1];
                unew[c] = u[c] + r * (nb - diag * u[c]);
                d = unew[c] - u[c];
                res += d * d;
            }
        }
    return res;
}

double stencil_lambda(int dim, int nglobal, double r)
{
    const double pi = 3.14159265358979323846;
    return 1.0 - 2.0 * r * dim * (1.0 - cos(pi / (nglobal + 1)));
}

void stencil_compare(const struct grid *gr, int nglobal, const double *u, double scale,
                     double *maxerr, double *sum)
{
    int i, j, k;
    double m = 0, s = 0;
    for (i = gr->g[0]; i < gr->g[0] + gr->n[0]; i++)
        for (j = gr->g[1]; j < gr->g[1] + gr->n[1]; j++)
            for (k = gr->g[2]; k < gr->g[2] + gr->n[2]; k++) {
                double v = u[grid_idx(gr, i, j, k)];
                double e = fabs(v - scale * profile(gr, nglobal, i, j, k)) / scale;
                if (e > m)
                    m = e;
                s += v;
            }
    *maxerr = m;
    *sum = s;
}
