/* heat: the heat equation on the unit square or cube, explicit time steps
 * (a Jacobi sweep) on a Cartesian process grid with halo exchange.
 *   heat INPUT_FILE        (see heat2d.in, heat3d.in)
 * The initial profile is the discrete Laplacian's slowest eigenvector, so
 * the exact discrete solution is known at every step: the run checks
 * against it and prints VERIFY PASS or FAIL. The printed result (the sum of
 * u over the grid) is the same at every rank count up to rounding. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <mpi.h>
#include "params.h"
#include "grid.h"
#include "halo.h"
#include "stencil.h"

int main(int argc, char **argv)
{
    struct heat_params p;
    struct grid gr;
    struct halo h;
    double *u, *unew, t0, t, tmax, local[2], global[2], lambda, scale, err, sum;
    int rank, nprocs, step, pass;
    long long npoints;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: heat INPUT_FILE\n");
        MPI_Finalize();
        return 2;
    }
    if (heat_load_params(argv[1], &p) != 0 || grid_create(p.dim, p.n, &gr) != 0) {
        if (rank == 0)
            printf("VERIFY FAIL bad input\n");
        MPI_Finalize();
        return 1;
    }
    npoints = p.dim == 2 ? (long long)p.n * p.n : (long long)p.n * p.n * p.n;
    if (rank == 0) {
        printf("heat: input %s: dim %d, n %d (%lld points), steps %d, r %g, halo %s\n", argv[1], p.dim, p.n,
               npoints, p.steps, p.r, p.halo == HALO_ISEND ? "isend" : "sendrecv");
        if (p.dim == 2)
            printf("heat: %d ranks as %dx%d\n", nprocs, gr.dims[0], gr.dims[1]);
        else
            printf("heat: %d ranks as %dx%dx%d\n", nprocs, gr.dims[0], gr.dims[1], gr.dims[2]);
    }
    u = malloc(gr.ext[0] * gr.ext[1] * gr.ext[2] * sizeof(double));
    unew = malloc(gr.ext[0] * gr.ext[1] * gr.ext[2] * sizeof(double));
    if (!u || !unew) {
        fprintf(stderr, "heat: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    stencil_init(&gr, p.n, u);
    stencil_init(&gr, p.n, unew); /* the boundary ghosts of both stay zero */
    halo_init(&h, &gr, p.halo);

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (step = 1; step <= p.steps; step++) {
        double res, tmp, *sw;
        halo_exchange(&h, &gr, u);
        res = stencil_step(&gr, p.r, u, unew);
        sw = u;
        u = unew;
        unew = sw;
        if ((p.check_every > 0 && step % p.check_every == 0) || step == p.steps) {
            MPI_Allreduce(&res, &tmp, 1, MPI_DOUBLE, MPI_SUM, gr.cart);
            if (rank == 0)
                printf("heat: step %d residual %.6e\n", step, sqrt(tmp));
        }
    }
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    lambda = stencil_lambda(p.dim, p.n, p.r);
    scale = pow(lambda, p.steps);
    stencil_compare(&gr, p.n, u, scale, &err, &sum);
    local[0] = err;
    MPI_Allreduce(local, global, 1, MPI_DOUBLE, MPI_MAX, gr.cart);
    err = global[0];
    local[1] = sum;
    MPI_Allreduce(&local[1], &global[1], 1, MPI_DOUBLE, MPI_SUM, gr.cart);
    sum = global[1];
    pass = err <= p.tol && isfinite(sum);
    if (rank == 0) {
        printf("heat: time %.6f s, %.3f Mpoint-steps/s\n", tmax,
               tmax > 0 ? npoints * (double)p.steps / tmax / 1e6 : 0.0);
        printf("VERIFY %s result=%.12e maxerr=%.3e lambda^steps=%.12e\n", pass ? "PASS" : "FAIL", sum, err, scale);
    }
    halo_free(&h);
    free(u);
    free(unew);
    grid_free(&gr);
    MPI_Finalize();
    return pass ? 0 : 1;
}
