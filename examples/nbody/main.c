/* nbody: N bodies under gravity, direct summation, leapfrog steps.
 *   nbody [N [STEPS [DT [allgather|ring|2d [SEED]]]]]   defaults: 1024 10 1e-3 allgather 1
 * Each rank owns ceil(N / nprocs) bodies (padding bodies have no mass).
 * How the ranks see each other's bodies (forces.h):
 *   allgather  MPI_Allgather of all positions every step (N per rank);
 *   ring       the blocks travel around the ranks (N / nprocs per rank,
 *              but nprocs Sendrecv_replace steps: slow for many ranks);
 *   2d         an R x C grid of ranks (MPI_Dims_create): Allgather over the
 *              grid row and the grid column, a row's partial forces summed
 *              with MPI_Reduce_scatter_block ((R + C) N / nprocs per rank,
 *              log-depth collectives: the mode for 100,000+ ranks).
 * Verified: total momentum stays zero and the energy drift stays small; the
 * result (the final energy) is the same in every mode and at every rank
 * count up to rounding. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <mpi.h>
#include "bodies.h"
#include "forces.h"

/* Kinetic energy, momentum, and sum of |m v| (the scale for the momentum check). */
static void totals(const struct bodies *b, double out[5])
{
    double loc[5] = {0, 0, 0, 0, 0};
    int s;
    for (s = 0; s < b->nlocal; s++) {
        double m = b->pos[s].m, vx = b->vx[s], vy = b->vy[s], vz = b->vz[s];
        loc[0] += 0.5 * m * (vx * vx + vy * vy + vz * vz);
        loc[1] += m * vx;
        loc[2] += m * vy;
        loc[3] += m * vz;
        loc[4] += m * sqrt(vx * vx + vy * vy + vz * vz);
    }
    MPI_Allreduce(loc, out, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void kick(struct bodies *b, double h)
{
    int s;
    for (s = 0; s < b->nlocal; s++) {
        b->vx[s] += h * b->ax[s];
        b->vy[s] += h * b->ay[s];
        b->vz[s] += h * b->az[s];
    }
}

static void drift(struct bodies *b, double h)
{
    int s;
    for (s = 0; s < b->nlocal; s++) {
        b->pos[s].x += h * b->vx[s];
        b->pos[s].y += h * b->vy[s];
        b->pos[s].z += h * b->vz[s];
    }
}

int main(int argc, char **argv)
{
    struct bodies b;
    struct forces f;
    long long n, missing;
    int rank, p, steps, mode, step, pass;
    double dt, pot0, pot, t0, t, tmax, start[5], end[5], e0, e1, drift_rel, mom_rel;
    unsigned long long seed;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    n = argc > 1 ? atoll(argv[1]) : 1024;
    steps = argc > 2 ? atoi(argv[2]) : 10;
    dt = argc > 3 ? atof(argv[3]) : 1e-3;
    mode = argc > 4 ? forces_mode(argv[4]) : MODE_ALLGATHER;
    seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
    if (n < 2 || steps < 0 || dt <= 0 || mode < 0) {
        if (rank == 0)
            fprintf(stderr, "usage: nbody [N [STEPS [DT [allgather|ring|2d [SEED]]]]]\n");
        MPI_Finalize();
        return 2;
    }
    bodies_init(&b, n, seed);
    missing = forces_init(&f, &b, mode);
    if (missing) {
        fprintf(stderr, "nbody: rank %d: no memory for the %s mode's %lld bytes\n", rank, forces_mode_name(mode),
                missing);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) {
        printf("nbody: %lld bodies, %d steps of %g, %s, %d ranks (%d bodies each)", n, steps, dt,
               forces_mode_name(mode), p, b.nlocal);
        if (mode == MODE_2D)
            printf(", grid %d x %d", f.rows, f.cols);
        printf("\n");
    }

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    forces_compute(&f, &b, &pot0);
    totals(&b, start);
    pot = pot0;
    for (step = 0; step < steps; step++) {
        kick(&b, 0.5 * dt);
        drift(&b, dt);
        forces_compute(&f, &b, &pot);
        kick(&b, 0.5 * dt);
    }
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    totals(&b, end);

    e0 = start[0] + pot0;
    e1 = end[0] + pot;
    drift_rel = fabs(e1 - e0) / fabs(e0);
    mom_rel = sqrt(end[1] * end[1] + end[2] * end[2] + end[3] * end[3]) / end[4];
    pass = drift_rel < 1e-3 && mom_rel < 1e-9 && isfinite(e1);
    if (rank == 0) {
        printf("nbody: energy %.12e -> %.12e (relative drift %.3e), momentum / sum|mv| %.3e\n", e0, e1, drift_rel,
               mom_rel);
        printf("nbody: time %.6f s, %.3f G interactions/s\n", tmax,
               tmax > 0 ? (double)n * n * (steps + 1) / tmax / 1e9 : 0.0);
        printf("VERIFY %s result=%.12e drift=%.3e momentum=%.3e\n", pass ? "PASS" : "FAIL", e1, drift_rel, mom_rel);
    }
    forces_free(&f);
    bodies_free(&b);
    MPI_Finalize();
    return pass ? 0 : 1;
}
