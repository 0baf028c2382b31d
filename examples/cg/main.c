/* cg: conjugate gradient on the 2-D or 3-D Laplacian, a sparse matrix in
 * CSR split over a Cartesian process grid.
 *   cg [N [DIM [MAXITER [TOL]]]]     defaults: 32 3 2000 1e-10
 * N^DIM unknowns. The right-hand side is b = A x* for a known x*; the run
 * checks the true residual ||b - A x|| / ||b|| and prints VERIFY PASS or
 * FAIL. The result printed (the sum of x) is the same at every rank count
 * up to the solver's tolerance. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <mpi.h>
#include "decomp.h"
#include "matrix.h"
#include "solver.h"

/* x* at global point (gi, gj, gk): a pattern that does not depend on the split */
static double exact(int gi, int gj, int gk)
{
    return ((gi * 7 + gj * 13 + gk * 29) % 17) / 17.0 + 0.5;
}

int main(int argc, char **argv)
{
    struct decomp dc;
    struct matrix a;
    int rank, nprocs, n, dim, maxiter, iters, i, j, k, pass;
    double tol, *xs, *b, *x, *res, relres, truerel, err, sum, t0, t, tmax, bnorm;
    long long nglobal;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    n = argc > 1 ? atoi(argv[1]) : 32;
    dim = argc > 2 ? atoi(argv[2]) : 3;
    maxiter = argc > 3 ? atoi(argv[3]) : 2000;
    tol = argc > 4 ? atof(argv[4]) : 1e-10;
    if (n < 1 || (dim != 2 && dim != 3) || maxiter < 1 || tol <= 0) {
        if (rank == 0)
            fprintf(stderr, "usage: cg [N [DIM(2|3) [MAXITER [TOL]]]]\n");
        MPI_Finalize();
        return 2;
    }
    if (decomp_create(dim, n, &dc) != 0) {
        if (rank == 0)
            printf("VERIFY FAIL bad size\n");
        MPI_Finalize();
        return 1;
    }
    nglobal = dim == 2 ? (long long)n * n : (long long)n * n * n;
    if (rank == 0) {
        printf("cg: %d-D Laplacian, n %d (%lld unknowns), maxiter %d, tol %g\n", dim, n, nglobal, maxiter, tol);
        printf("cg: %d ranks as %dx%dx%d\n", nprocs, dc.dims[0], dc.dims[1], dc.dims[2]);
    }
    matrix_build(&dc, &a);
    xs = malloc((a.ncols + 1) * sizeof(double));
    x = malloc((a.ncols + 1) * sizeof(double));
    b = malloc((a.nrows + 1) * sizeof(double));
    res = malloc((a.nrows + 1) * sizeof(double));
    for (i = 0; i < dc.n[0]; i++)
        for (j = 0; j < dc.n[1]; j++)
            for (k = 0; k < dc.n[2]; k++)
                xs[decomp_local(&dc, i, j, k)] = exact(dc.start[0] + i, dc.start[1] + j, dc.start[2] + k);
    matrix_apply(&dc, &a, xs, b);

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    iters = cg_solve(&dc, &a, b, x, tol, maxiter, &relres);
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* the true residual, not the recurrence's */
    matrix_apply(&dc, &a, x, res);
    for (i = 0; i < a.nrows; i++) {
        res[i] = b[i] - res[i];
        xs[i] -= x[i];
    }
    bnorm = sqrt(dot(dc.cart, a.nrows, b, b));
    truerel = sqrt(dot(dc.cart, a.nrows, res, res)) / bnorm;
    err = sqrt(dot(dc.cart, a.nrows, xs, xs) / nglobal);
    sum = 0;
    for (i = 0; i < a.nrows; i++)
        sum += x[i];
    t = sum;
    MPI_Allreduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, dc.cart);
    /* the recurrence drifts from the true residual by rounding: allow 100x */
    pass = iters > 0 && relres <= tol && truerel <= 100 * tol && isfinite(sum);
    if (rank == 0) {
        printf("cg: %d iterations, recurrence residual %.3e, true residual %.3e, rms error %.3e\n", iters, relres,
               truerel, err);
        printf("cg: time %.6f s, %.3f ms per iteration\n", tmax, iters ? tmax / iters * 1e3 : 0.0);
        printf("VERIFY %s result=%.10e iterations=%d residual=%.3e\n", pass ? "PASS" : "FAIL", sum, iters, truerel);
    }
    free(xs);
    free(x);
    free(b);
    free(res);
    matrix_free(&a);
    decomp_free(&dc);
    MPI_Finalize();
    return pass ? 0 : 1;
}
