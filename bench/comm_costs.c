/* What making and using communicators costs at this world size: one call
 * of each, timed on every rank between barriers; the figure is the
 * slowest rank's time (MPI_Reduce MAX to rank 0). Calls whose cost grows
 * with the number of ranks show here first when a program is slow to
 * start at large counts. Plain MPI C: builds with gpumpicc and with mpicc.
 *
 *   comm_costs
 *
 * Prints one line per call: `comm_costs NAME ranks=N us=T`. */
#include <mpi.h>
#include <stdio.h>
#include "bench_util.h"

static int me, n;
static double t0;

static void start(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
}

static void stop(const char *name)
{
    double mine = MPI_Wtime() - t0, worst = 0;
    MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0) {
        printf("comm_costs %-22s ranks=%d us=%.1f\n", name, n, worst * 1e6);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    bench_init(&argc, &argv, &me, &n);
    MPI_Comm d, e, s, t, cart, row;
    MPI_Request r;
    int result, dims[2] = {0, 0}, periods[2] = {0, 0}, keep[2] = {0, 1};
    long long x = me, sum = 0;

    start(); MPI_Comm_dup(MPI_COMM_WORLD, &d); stop("Comm_dup");
    start(); MPI_Allreduce(&x, &sum, 1, MPI_LONG_LONG, MPI_SUM, d); stop("Allreduce8 on a dup");
    start(); MPI_Allreduce(&x, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD); stop("Allreduce8 on world");
    if (sum != (long long)n * (n - 1) / 2) printf("comm_costs: rank %d: wrong sum %lld\n", me, sum);
    start(); MPI_Comm_idup(d, &e, &r); MPI_Wait(&r, MPI_STATUS_IGNORE); stop("Comm_idup + Wait");
    start(); MPI_Comm_compare(d, e, &result); stop("Comm_compare");
    if (result != MPI_CONGRUENT) printf("comm_costs: rank %d: compare gave %d\n", me, result);
    start(); MPI_Comm_free(&e); stop("Comm_free");
    start(); MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &s); stop("Comm_split (2 colors)");
    start(); MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &t); stop("Comm_split_type");
    start(); MPI_Dims_create(n, 2, dims); MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart); stop("Cart_create (2-D)");
    start(); MPI_Cart_sub(cart, keep, &row); stop("Cart_sub (rows)");
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&t);
    MPI_Comm_free(&s);
    MPI_Comm_free(&d);
    MPI_Finalize();
    return 0;
}
