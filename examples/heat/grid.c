#include <stdio.h>
#include "grid.h"

/* Splits n points over p parts as evenly as possible. */
static void block(int n, int p, int c, int *count, int *start)
{
    int base = n / p, rem = n % p;
    *count = base + (c < rem);
    *start = c * base + (c < rem ? c : rem);
}

int grid_create(int dim, int nglobal, struct grid *gr)
{
    int nprocs, periods[3] = {0, 0, 0}, d, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    gr->dim = dim;
    gr->dims[0] = gr->dims[1] = gr->dims[2] = 0;
    MPI_Dims_create(nprocs, dim, gr->dims);
    for (d = 0; d < dim; d++)
        if (gr->dims[d] > nglobal) {
            if (rank == 0)
                fprintf(stderr, "heat: %d points per dimension cannot be split over %d ranks in dimension %d\n",
                        nglobal, gr->dims[d], d);
            return -1;
        }
    /* reorder lets the MPI place neighbours close; the program never assumes ranks */
    MPI_Cart_create(MPI_COMM_WORLD, dim, gr->dims, periods, 1, &gr->cart);
    MPI_Comm_rank(gr->cart, &rank);
    MPI_Cart_coords(gr->cart, rank, dim, gr->coords);
    gr->npoints = 1;
    for (d = 0; d < 3; d++) {
        if (d < dim) {
            block(nglobal, gr->dims[d], gr->coords[d], &gr->n[d], &gr->start[d]);
            gr->g[d] = 1;
            MPI_Cart_shift(gr->cart, d, 1, &gr->lo[d], &gr->hi[d]);
        } else {
            gr->dims[d] = 1;
            gr->coords[d] = 0;
            gr->n[d] = 1;
            gr->start[d] = 0;
            gr->g[d] = 0;
            gr->lo[d] = gr->hi[d] = MPI_PROC_NULL;
        }
        gr->ext[d] = gr->n[d] + 2 * gr->g[d];
        gr->npoints *= gr->n[d];
    }
    return 0;
}

void grid_free(struct grid *gr)
{
    MPI_Comm_free(&gr->cart);
}
