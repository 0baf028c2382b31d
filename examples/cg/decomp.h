/* The grid of unknowns split in blocks over a Cartesian process grid. */
#ifndef CG_DECOMP_H
#define CG_DECOMP_H
#include <mpi.h>

struct decomp {
    MPI_Comm cart;
    int dim, nglobal;
    int dims[3], coords[3];
    int n[3], start[3];   /* owned points and the global index of the first, per dimension */
    int nbr[6];           /* neighbour across face f = 2 d + side (side 0 low, 1 high) */
    int nloc;             /* owned points */
};

/* Returns 0, or -1 on every rank when N cannot be split that finely. */
int decomp_create(int dim, int nglobal, struct decomp *dc);
void decomp_free(struct decomp *dc);

/* Local lexicographic index of owned point (i, j, k). */
static inline int decomp_local(const struct decomp *dc, int i, int j, int k)
{
    return (i * dc->n[1] + j) * dc->n[2] + k;
}

#endif
