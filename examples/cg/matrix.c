#include <stdlib.h>
#include "matrix.h"

/* Position of point (i, j, k) within face f's layer (the two dimensions
 * other than f's, in order). */
static int face_pos(const struct decomp *dc, int f, int i, int j, int k)
{
    switch (f / 2) {
    case 0: return j * dc->n[2] + k;
    case 1: return i * dc->n[2] + k;
    default: return i * dc->n[1] + j;
    }
}

void matrix_build(const struct decomp *dc, struct matrix *a)
{
    int f, d, i, j, k, nnz = 0, ghosts = 0;
    int per_row = 1 + 2 * dc->dim;
    a->nrows = dc->nloc;
    for (f = 0; f < 6; f++) {
        int c = 1;
        for (d = 0; d < 3; d++)
            if (d != f / 2)
                c *= dc->n[d];
        a->face_count[f] = dc->nbr[f] != MPI_PROC_NULL ? c : 0;
        a->face_ghost0[f] = a->nrows + ghosts;
        ghosts += a->face_count[f];
        a->face_send[f] = malloc((a->face_count[f] + 1) * sizeof(int));
        a->sendbuf[f] = malloc((a->face_count[f] + 1) * sizeof(double));
    }
    a->ncols = a->nrows + ghosts;
    a->rowptr = malloc((a->nrows + 1) * sizeof(int));
    a->col = malloc(((size_t)a->nrows * per_row + 1) * sizeof(int));
    a->val = malloc(((size_t)a->nrows * per_row + 1) * sizeof(double));
    for (i = 0; i < dc->n[0]; i++)
        for (j = 0; j < dc->n[1]; j++)
            for (k = 0; k < dc->n[2]; k++) {
                int row = decomp_local(dc, i, j, k), p[3] = {i, j, k};
                a->rowptr[row] = nnz;
                a->col[nnz] = row;
                a->val[nnz++] = 2.0 * dc->dim;
                /* neighbours in a fixed order, so every rank count sums
                 * each row the same way */
                for (f = 0; f < 2 * dc->dim; f++) {
                    int q[3] = {i, j, k}, dd = f / 2, step = f % 2 ? 1 : -1;
                    q[dd] += step;
                    if (q[dd] >= 0 && q[dd] < dc->n[dd])
                        a->col[nnz] = decomp_local(dc, q[0], q[1], q[2]);
                    else if (dc->nbr[f] != MPI_PROC_NULL)
                        a->col[nnz] = a->face_ghost0[f] + face_pos(dc, f, p[0], p[1], p[2]);
                    else
                        continue; /* the domain's boundary: u = 0 there */
                    a->val[nnz++] = -1.0;
                }
                /* the owned points on a face are what that neighbour needs */
                for (f = 0; f < 2 * dc->dim; f++) {
                    int dd = f / 2;
                    if (a->face_count[f] && p[dd] == (f % 2 ? dc->n[dd] - 1 : 0))
                        a->face_send[f][face_pos(dc, f, i, j, k)] = row;
                }
            }
    a->rowptr[a->nrows] = nnz;
}

void matrix_free(struct matrix *a)
{
    int f;
    for (f = 0; f < 6; f++) {
        free(a->face_send[f]);
        free(a->sendbuf[f]);
    }
    free(a->rowptr);
    free(a->col);
    free(a->val);
}

void matrix_halo(const struct decomp *dc, struct matrix *a, double *x)
{
    MPI_Request req[12];
    int f, m, nreq = 0;
    for (f = 0; f < 2 * dc->dim; f++)
        if (a->face_count[f])
            MPI_Irecv(x + a->face_ghost0[f], a->face_count[f], MPI_DOUBLE, dc->nbr[f], f, dc->cart, &req[nreq++]);
    for (f = 0; f < 2 * dc->dim; f++)
        if (a->face_count[f]) {
            for (m = 0; m < a->face_count[f]; m++)
                a->sendbuf[f][m] = x[a->face_send[f][m]];
            /* it lands on the neighbour's opposite face */
            MPI_Isend(a->sendbuf[f], a->face_count[f], MPI_DOUBLE, dc->nbr[f], f ^ 1, dc->cart, &req[nreq++]);
        }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
}

void matrix_apply(const struct decomp *dc, struct matrix *a, double *x, double *y)
{
    int r, e;
    matrix_halo(dc, a, x);
    for (r = 0; r < a->nrows; r++) {
        double s = 0;
        for (e = a->rowptr[r]; e < a->rowptr[r + 1]; e++)
            s += a->val[e] * x[a->col[e]];
        y[r] = s;
    }
}
