/* Where the time of a 3-D halo exchange goes: every rank exchanges a face
 * of COUNT doubles with each of its 6 neighbours on a non-periodic
 * Cartesian grid (MPI_Irecv x6, MPI_Isend x6, MPI_Waitall), and times the
 * three phases apart. Plain MPI C: builds with gpumpicc and with mpicc.
 *
 *   halo_anatomy [COUNT [REPS [COMM]]]     defaults 64 doubles, 50, cart
 *
 * COMM: cart (the Cartesian communicator), world (MPI_COMM_WORLD, the
 * same neighbours by their world ranks: reorder is 0), or null (the calls
 * on the Cartesian communicator with MPI_PROC_NULL for every neighbour:
 * what the calls cost with no message). Every face's calls are made, with
 * MPI_PROC_NULL on the domain's boundary. Per exchange, the
 * mean over ranks and the largest rank's time of each phase, in us:
 *   `halo_anatomy ranks= count= comm= irecv_us= isend_us= waitall_us=
 *    total_us= (mean) ... _max` and the received faces are checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

int main(int argc, char **argv)
{
    int me, n, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, nb[6], k, f, r;
    bench_init(&argc, &argv, &me, &n);
    int count = argc > 1 ? atoi(argv[1]) : 64, reps = argc > 2 ? atoi(argv[2]) : 50;
    int world = argc > 3 && !strcmp(argv[3], "world"), null = argc > 3 && !strcmp(argv[3], "null");
    MPI_Comm cart;
    MPI_Dims_create(n, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    for (f = 0; f < 6; f++) {
        int lo, hi;
        MPI_Cart_shift(cart, f / 2, 1, &lo, &hi);
        nb[f] = null ? MPI_PROC_NULL : f % 2 ? hi : lo;
    }
    MPI_Comm comm = world ? MPI_COMM_WORLD : cart;
    double *sbuf[6], *rbuf[6];
    for (f = 0; f < 6; f++) {
        sbuf[f] = malloc((size_t)count * sizeof(double));
        rbuf[f] = malloc((size_t)count * sizeof(double));
    }
    double t[4] = {0, 0, 0, 0}; /* irecv, isend, waitall, whole */
    int bad = 0;
    for (r = -2; r < reps; r++) { /* two warm-up exchanges */
        MPI_Request req[12];
        int nreq = 0;
        for (f = 0; f < 6; f++)
            for (k = 0; k < count; k++) sbuf[f][k] = me * 1e3 + f * 100 + k + r;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (f = 0; f < 6; f++) MPI_Irecv(rbuf[f], count, MPI_DOUBLE, nb[f], f, comm, &req[nreq++]);
        double t1 = MPI_Wtime();
        for (f = 0; f < 6; f++) MPI_Isend(sbuf[f], count, MPI_DOUBLE, nb[f], f ^ 1, comm, &req[nreq++]);
        double t2 = MPI_Wtime();
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        double t3 = MPI_Wtime();
        if (r >= 0) {
            t[0] += t1 - t0;
            t[1] += t2 - t1;
            t[2] += t3 - t2;
            t[3] += t3 - t0;
        }
        /* face f came from neighbour nb[f], which sent its face f ^ 1 */
        for (f = 0; f < 6; f++)
            for (k = 0; k < count && nb[f] != MPI_PROC_NULL; k++)
                bad += rbuf[f][k] != nb[f] * 1e3 + (f ^ 1) * 100 + k + r;
    }
    double mean[4], most[4];
    MPI_Reduce(t, mean, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(t, most, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) {
        double s = 1e6 / reps;
        printf("halo_anatomy ranks=%d count=%d comm=%s irecv_us=%.2f isend_us=%.2f waitall_us=%.2f "
               "total_us=%.2f irecv_max=%.2f isend_max=%.2f waitall_max=%.2f total_max=%.2f\n",
               n, count, world ? "world" : null ? "null" : "cart", mean[0] / n * s, mean[1] / n * s, mean[2] / n * s,
               mean[3] / n * s, most[0] * s, most[1] * s, most[2] * s, most[3] * s);
        printf("halo_anatomy %s: %d wrong values received\n", bad ? "FAILED" : "verified", bad);
    }
    for (f = 0; f < 6; f++) {
        free(sbuf[f]);
        free(rbuf[f]);
    }
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return bad != 0;
}
