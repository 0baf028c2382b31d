#include <stdio.h>
#include "decomp.h"

int decomp_create(int dim, int nglobal, struct decomp *dc)
{
    int nprocs, rank, periods[3] = {0, 0, 0}, d;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    dc->dim = dim;
    dc->nglobal = nglobal;
    dc->dims[0] = dc->dims[1] = dc->dims[2] = 0;
    MPI_Dims_create(nprocs, dim, dc->dims);
    for (d = 0; d < dim; d++)
        if (dc->dims[d] > nglobal) {
            if (rank == 0)
                fprintf(stderr, "cg: n = %d is too small for %d ranks in dimension %d\n", nglobal, dc->dims[d], d);
            return -1;
        }
    MPI_Cart_create(MPI_COMM_WORLD, dim, dc->dims, periods, 1, &dc->cart);
    MPI_Comm_rank(dc->cart, &rank);
    MPI_Cart_coords(dc->cart, rank, dim, dc->coords);
    dc->nloc = 1;
    for (d = 0; d < 3; d++) {
        if (d < dim) {
            int base = nglobal / dc->dims[d], rem = nglobal % dc->dims[d], c = dc->coords[d];
            dc->n[d] = base + (c < rem);
            dc->start[d] = c * base + (c < rem ? c : rem);
            MPI_Cart_shift(dc->cart, d, 1, &dc->nbr[2 * d], &dc->nbr[2 * d + 1]);
        } else {
            dc->dims[d] = 1;
            dc->coords[d] = 0;
            dc->n[d] = 1;
            dc->start[d] = 0;
            dc->nbr[2 * d] = dc->nbr[2 * d + 1] = MPI_PROC_NULL;
        }
        dc->nloc *= dc->n[d];
    }
    return 0;
}

void decomp_free(struct decomp *dc)
{
    MPI_Comm_free(&dc->cart);
}
