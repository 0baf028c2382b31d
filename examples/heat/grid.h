/* The domain decomposition: a Cartesian communicator over the ranks and
 * the block of the global grid each rank owns, with one ghost layer in
 * each decomposed dimension. */
#ifndef HEAT_GRID_H
#define HEAT_GRID_H
#include <mpi.h>

struct grid {
    MPI_Comm cart;
    int dim;
    int dims[3], coords[3];
    int n[3];       /* owned points per dimension (1 in the unused third) */
    int start[3];   /* global index of the first owned point */
    int g[3];       /* ghost width: 1 in used dimensions, 0 otherwise */
    int ext[3];     /* allocated extent: n + 2 g */
    int lo[3], hi[3]; /* neighbours below and above (MPI_PROC_NULL at the edge) */
    long long npoints; /* owned points */
};

/* Returns 0, or -1 (on every rank) when the grid is too small for the
 * process grid. */
int grid_create(int dim, int nglobal, struct grid *gr);
void grid_free(struct grid *gr);

static inline long grid_idx(const struct grid *gr, int i, int j, int k)
{
    return ((long)i * gr->ext[1] + j) * gr->ext[2] + k;
}

#endif
