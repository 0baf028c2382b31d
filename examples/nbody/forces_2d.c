/* The 2d mode: a force decomposition over an R x C grid of ranks.
 *
 * Rank (r, c) gathers the bodies of its grid row (C blocks) and of its grid
 * column (R blocks) and computes the pull of the column's bodies on the
 * row's. Every (target block, source block) pair is met exactly once, at
 * the rank in the target's row and the source's column; the C ranks of a
 * row hold between them the pull of every column, i.e. of every body, on
 * the row's bodies, so a sum over the row gives each rank the full force on
 * its own bodies. Per rank: (R + C) blocks of memory, R x C block pairs of
 * work (N^2 / nprocs interactions), three log-depth collectives per step. */
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "forces.h"
#include "pull.h"

long long forces_2d_init(struct forces *f, const struct bodies *b)
{
    int p, dims[2] = {0, 0}, periods[2] = {0, 0}, keep_cols[2] = {0, 1}, keep_rows[2] = {1, 0};
    long long bytes;
    MPI_Comm grid;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Dims_create(p, 2, dims);
    /* no reorder: nothing here depends on where a rank sits, the global
     * indices travel with the blocks (rowfirst, colfirst) */
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Cart_sub(grid, keep_cols, &f->row); /* the C ranks of my row, ranked by column */
    MPI_Cart_sub(grid, keep_rows, &f->col); /* the R ranks of my column, ranked by row */
    MPI_Comm_free(&grid);
    f->rows = dims[0];
    f->cols = dims[1];
    f->work = malloc(((long long)f->cols * b->nlocal + 1) * sizeof(struct body_pos));
    f->colpos = malloc(((long long)f->rows * b->nlocal + 1) * sizeof(struct body_pos));
    f->rowfirst = malloc(f->cols * sizeof(long long));
    f->colfirst = malloc(f->rows * sizeof(long long));
    f->part = malloc((3LL * f->cols * b->nlocal + 1) * sizeof(double));
    f->acc = malloc((3LL * b->nlocal + 1) * sizeof(double));
    bytes = ((long long)(f->cols + f->rows) * b->nlocal + 2) * sizeof(struct body_pos) +
            (f->cols + f->rows) * sizeof(long long) + (3LL * (f->cols + 1) * b->nlocal + 2) * sizeof(double);
    if (!f->work || !f->colpos || !f->rowfirst || !f->colfirst || !f->part || !f->acc)
        return bytes;
    /* where each gathered block sits among all bodies, once: a block's
     * owner keeps its bodies for the whole run */
    MPI_Allgather(&b->first, 1, MPI_LONG_LONG, f->rowfirst, 1, MPI_LONG_LONG, f->row);
    MPI_Allgather(&b->first, 1, MPI_LONG_LONG, f->colfirst, 1, MPI_LONG_LONG, f->col);
    return 0;
}

void forces_2d_free(struct forces *f)
{
    free(f->colpos);
    free(f->rowfirst);
    free(f->colfirst);
    free(f->part);
    free(f->acc);
    MPI_Comm_free(&f->row);
    MPI_Comm_free(&f->col);
}

double forces_2d_pull(struct forces *f, struct bodies *b)
{
    int n = b->nlocal, c, s;
    double pot = 0;
    struct blocks column = {f->colpos, f->rows, n, f->colfirst};
    MPI_Allgather(b->pos, 4 * n, MPI_DOUBLE, f->work, 4 * n, MPI_DOUBLE, f->row);
    MPI_Allgather(b->pos, 4 * n, MPI_DOUBLE, f->colpos, 4 * n, MPI_DOUBLE, f->col);
    memset(f->part, 0, 3 * (size_t)f->cols * n * sizeof(double));
    /* block c of PART is what row rank c receives: its x, y, z parts */
    for (c = 0; c < f->cols; c++) {
        double *ax = f->part + 3 * (size_t)c * n;
        pot += pull(f->work + (size_t)c * n, n, f->rowfirst[c], ax, ax + n, ax + 2 * n, &column, b->ntotal);
    }
    MPI_Reduce_scatter_block(f->part, f->acc, 3 * n, MPI_DOUBLE, MPI_SUM, f->row);
    for (s = 0; s < n; s++) {
        b->ax[s] = f->acc[s];
        b->ay[s] = f->acc[n + s];
        b->az[s] = f->acc[2 * n + s];
    }
    return pot;
}
