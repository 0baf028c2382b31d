/* A 3-D 7-point Jacobi stencil with halo exchange: cell updates per second
 * over all ranks, and the sweep and the halo exchange each alone.
 * Plain MPI C: builds with gpumpicc and with mpicc.
 *
 *   stencil [N [STEPS [REPS]]]
 *
 * Each rank owns an N^3 block (default N 8) of a global grid, the ranks
 * forming a non-periodic 3-D Cartesian grid (MPI_Dims_create), with one
 * ghost layer and 0 outside the domain. One step: the six faces go to the
 * neighbours (MPI_Irecv x6, MPI_Isend x6, MPI_Waitall), then
 * u += r * (sum of the 6 neighbours - 6u), r = 0.1. After 2 warm-up steps,
 * REPS (default 3) measurements of STEPS (default 20) steps, each after a
 * barrier. Each figure is the largest per-rank time (MPI_Reduce MAX): the
 * whole step's, and apart, the halo exchange's and the sweep's, each summed
 * over the steps; the best measurement of each is reported, as
 * `stencil ranks= n= gcells= sweep_gcells= halo_us=` (cell updates
 * per second over the whole grid, 1e9 a unit; halo time per step).
 *
 * Check: the initial product of sines is an eigenvector of the discrete
 * Laplacian with Dirichlet boundary, so after k steps every cell must be
 * lambda^k times its initial value. A larger error than 1e-9 (relative to
 * lambda^k, the amplitude) prints `stencil FAILED` and aborts; else
 * `stencil verified`. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

#define R_COEF 0.1
#define WARM_STEPS 2
#define PI 3.14159265358979323846

struct block {
    int n, e;          /* owned cells per side; n + 2 with the ghosts */
    long st[3];        /* stride of each dimension in the (n+2)^3 array */
    int g[3], off[3];  /* global cells per dimension; this block's first */
    int nb[3][2];      /* neighbour ranks, low and high side */
    double *u, *unew, *sbuf[6], *rbuf[6];
};

/* x^p/p! - x^(p+2)/(p+2)! + ...: sin x for p 1, 1 - cos x for p 2, to
 * double precision for 0 <= x <= pi. Ours, so that no mpicc needs -lm. */
static double series(double x, int p)
{
    double term = p == 1 ? x : x * x / 2, sum = 0.0;
    for (int m = p; m < p + 60; m += 2) {
        sum += term;
        term *= -x * x / ((m + 1) * (m + 2));
    }
    return sum;
}

/* sin(pi (g+1) / (G+1)), g in 0..G-1: the exact eigenvector along one
 * dimension, from the nearer end (the series is best for small x). */
static double mode(int g, int G)
{
    int m = g + 1 <= (G + 1) / 2 ? g + 1 : G - g;
    return series(PI * m / (G + 1), 1);
}

/* The eigenvector at global cell (gi, gj, gk). */
static double profile(const struct block *b, int gi, int gj, int gk)
{
    return mode(gi, b->g[0]) * mode(gj, b->g[1]) * mode(gk, b->g[2]);
}

static double *alloc_doubles(long count)
{
    double *p = malloc((size_t)count * sizeof(double));
    if (!p) {
        printf("stencil: malloc of %ld doubles failed\n", count);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* Arrays zeroed (ghosts outside the domain stay 0 for good), then the
 * profile on the owned cells of u. */
static void block_init(struct block *b, MPI_Comm cart, const int dims[3], int n)
{
    int me, coords[3];
    MPI_Comm_rank(cart, &me);
    MPI_Cart_coords(cart, me, 3, coords);
    b->n = n;
    b->e = n + 2;
    b->st[2] = 1, b->st[1] = b->e, b->st[0] = (long)b->e * b->e;
    for (int d = 0; d < 3; d++) {
        b->g[d] = dims[d] * n;
        b->off[d] = coords[d] * n;
        MPI_Cart_shift(cart, d, 1, &b->nb[d][0], &b->nb[d][1]);
    }
    long cells = (long)b->e * b->e * b->e;
    b->u = alloc_doubles(cells);
    b->unew = alloc_doubles(cells);
    memset(b->u, 0, (size_t)cells * sizeof(double));
    memset(b->unew, 0, (size_t)cells * sizeof(double));
    for (int f = 0; f < 6; f++) {
        b->sbuf[f] = alloc_doubles((long)n * n);
        b->rbuf[f] = alloc_doubles((long)n * n);
    }
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            for (int k = 1; k <= n; k++)
                b->u[i * b->st[0] + j * b->st[1] + k] =
                    profile(b, b->off[0] + i - 1, b->off[1] + j - 1, b->off[2] + k - 1);
}

/* Copies the layer `layer` across dimension d between u and a face buffer
 * (to_buf: pack; else unpack into the ghosts). */
static void face_copy(struct block *b, int d, int layer, double *buf, int to_buf)
{
    int p = d == 0 ? 1 : 0, q = d == 2 ? 1 : 2; /* the other two, q the faster */
    long base = layer * b->st[d];
    for (int a = 1; a <= b->n; a++)
        for (int c = 1; c <= b->n; c++) {
            double *cell = &b->u[base + a * b->st[p] + c * b->st[q]];
            double *slot = &buf[(a - 1) * b->n + (c - 1)];
            if (to_buf) *slot = *cell;
            else *cell = *slot;
        }
}

/* Face f = 2d + side (0 low, 1 high). A message to the high side carries
 * tag 2d + 1, so the receiver takes it from its low side with that tag. */
static void halo_exchange(struct block *b, MPI_Comm cart)
{
    MPI_Request req[12];
    MPI_Status stat[12]; /* not MPI_STATUSES_IGNORE: GCC misreads MPICH's and warns */
    int nreq = 0, n2 = b->n * b->n;
    for (int f = 0; f < 6; f++) {
        int d = f / 2, s = f % 2;
        if (b->nb[d][s] != MPI_PROC_NULL)
            MPI_Irecv(b->rbuf[f], n2, MPI_DOUBLE, b->nb[d][s], 2 * d + 1 - s, cart, &req[nreq++]);
    }
    for (int f = 0; f < 6; f++) {
        int d = f / 2, s = f % 2;
        if (b->nb[d][s] == MPI_PROC_NULL) continue;
        face_copy(b, d, s ? b->n : 1, b->sbuf[f], 1);
        MPI_Isend(b->sbuf[f], n2, MPI_DOUBLE, b->nb[d][s], f, cart, &req[nreq++]);
    }
    MPI_Waitall(nreq, req, stat);
    for (int f = 0; f < 6; f++)
        if (b->nb[f / 2][f % 2] != MPI_PROC_NULL) face_copy(b, f / 2, f % 2 ? b->n + 1 : 0, b->rbuf[f], 0);
}

/* One Jacobi sweep over the owned cells, then u and unew swap. */
static void sweep(struct block *b)
{
    const long sj = b->st[1], si = b->st[0];
    for (int i = 1; i <= b->n; i++)
        for (int j = 1; j <= b->n; j++) {
            const double *restrict u = b->u + i * si + j * sj;
            double *restrict w = b->unew + i * si + j * sj;
            for (int k = 1; k <= b->n; k++)
                w[k] = u[k] + R_COEF * (u[k - 1] + u[k + 1] + u[k - sj] + u[k + sj] + u[k - si] + u[k + si] -
                                        6.0 * u[k]);
        }
    double *t = b->u;
    b->u = b->unew;
    b->unew = t;
}

/* `steps` steps; adds this rank's halo and sweep seconds to t[1], t[2]. */
static void run_steps(struct block *b, MPI_Comm cart, int steps, double t[3])
{
    for (int s = 0; s < steps; s++) {
        double t0 = MPI_Wtime();
        halo_exchange(b, cart);
        double t1 = MPI_Wtime();
        sweep(b);
        t[1] += t1 - t0;
        t[2] += MPI_Wtime() - t1;
    }
}

/* Largest error over all ranks against lambda^k times the profile, in
 * units of lambda^k. */
static double max_error(const struct block *b, long k)
{
    double sum = 0.0, err = 0.0, all = 0.0, amp = 1.0;
    for (int d = 0; d < 3; d++) sum += series(PI / (b->g[d] + 1), 2);
    for (long s = 0; s < k; s++) amp *= 1.0 - 2.0 * R_COEF * sum; /* lambda^k */
    for (int i = 1; i <= b->n; i++)
        for (int j = 1; j <= b->n; j++)
            for (int c = 1; c <= b->n; c++) {
                double want = amp * profile(b, b->off[0] + i - 1, b->off[1] + j - 1, b->off[2] + c - 1);
                double e = (b->u[i * b->st[0] + j * b->st[1] + c] - want) / amp;
                if (e < 0) e = -e;
                if (!(e <= err)) err = e; /* a NaN sticks */
            }
    MPI_Allreduce(&err, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

int main(int argc, char **argv)
{
    int me, size, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    bench_init(&argc, &argv, &me, &size);
    int n = argc > 1 ? atoi(argv[1]) : 8, steps = argc > 2 ? atoi(argv[2]) : 20, reps = argc > 3 ? atoi(argv[3]) : 3;
    if (n < 1 || steps < 1 || reps < 1 || reps > BENCH_MAX_REPS) {
        if (me == 0) printf("stencil: needs N >= 1, STEPS >= 1, 1 <= REPS <= %d\n", BENCH_MAX_REPS);
        MPI_Finalize();
        return 1;
    }
    MPI_Comm cart;
    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    struct block b;
    block_init(&b, cart, dims, n);
    double t[3] = {0, 0, 0}, best[3] = {1e300, 1e300, 1e300};
    run_steps(&b, cart, WARM_STEPS, t);
    for (int r = 0; r < reps; r++) {
        double worst[3];
        MPI_Barrier(cart); /* all ranks start a measurement together */
        t[1] = t[2] = 0.0;
        t[0] = MPI_Wtime();
        run_steps(&b, cart, steps, t);
        t[0] = MPI_Wtime() - t[0];
        MPI_Reduce(t, worst, 3, MPI_DOUBLE, MPI_MAX, 0, cart);
        /* each part's best on its own: the noise of one does not hide the other */
        for (int i = 0; i < 3 && me == 0; i++)
            if (worst[i] < best[i]) best[i] = worst[i];
    }
    double updates = (double)b.g[0] * b.g[1] * b.g[2] * steps;
    double gc = updates / best[0] / 1e9, sg = updates / best[2] / 1e9, hu = best[1] / steps * 1e6;
    if (me == 0) {
        printf("stencil: ranks %d grid %dx%dx%d N %d (global %dx%dx%d) steps %d: best %.6f s, %.4g Gcell/s "
               "(sweep %.4g Gcell/s alone, halo %.3f us/step)\n",
               size, dims[0], dims[1], dims[2], n, b.g[0], b.g[1], b.g[2], steps, best[0], gc, sg, hu);
        printf("stencil ranks=%d n=%d gcells=%.6g sweep_gcells=%.6g halo_us=%.3f\n", size, n, gc, sg, hu);
    }
    double err = max_error(&b, WARM_STEPS + (long)reps * steps);
    if (!(err < 1e-9)) {
        if (me == 0) printf("stencil FAILED: maxerr=%.3e (limit 1e-9)\n", err);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD); /* no other rank's abort cuts rank 0's line short */
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    if (me == 0) printf("stencil verified: maxerr=%.3e\n", err);
    for (int f = 0; f < 6; f++) free(b.sbuf[f]), free(b.rbuf[f]);
    free(b.u), free(b.unew);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
