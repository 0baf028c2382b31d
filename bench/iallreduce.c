/* Time per call of an 8-byte MPI_Iallreduce followed at once by MPI_Wait,
 * against MPI_Allreduce of the same 8 bytes (MPI_SUM of one double), over
 * all of MPI_COMM_WORLD: what the nonblocking path costs beyond the
 * blocking one when there is nothing to overlap. Plain MPI C: builds with
 * gpumpicc and with mpicc.
 *
 *   iallreduce [CALLS [REPS [TARGET_MS [WARM]]]]
 *
 * As collectives.c: each measurement is a barrier, then CALLS calls timed
 * on every rank; the figure is the largest per-rank mean time per call
 * (MPI_Reduce MAX to rank 0). The two operations' measurements alternate
 * (blocking, nonblocking, blocking, ...), REPS of each (default 3): `us` is
 * the smallest, `us_med` the median. CALLS 0 (the default) fits the count
 * to the blocking call so that one measurement takes about TARGET_MS
 * (default 200 ms), between 3 and 100000 calls; WARM (default 10) warm-up
 * calls of each come first.
 *
 * Every result is checked (rank + call number summed over all ranks, exact
 * in a double); a wrong value aborts with a message. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_util.h"

enum { OP_BLOCKING, OP_NONBLOCKING, NOPS };
/* allreduce8_ref: not "allreduce8", which names collectives.c's figure */
static const char *const op_names[NOPS] = {"allreduce8_ref", "iallreduce8"};

static void fail_value(const char *op, long call, double got, double want)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    printf("iallreduce: FAILED on rank %d: %s call %ld gave %.17g, expected %.17g\n", me, op, call, got, want);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static void run_op(int op, long first, long calls, int me, int n)
{
    double sum_base = (double)n * (double)(n - 1) / 2.0;
    for (long c = first; c < first + calls; c++) {
        long v = c % 1024;
        double x = (double)me + (double)v, s = -1.0;
        if (op == OP_BLOCKING) {
            MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else {
            MPI_Request r;
            MPI_Iallreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        if (s != sum_base + (double)n * (double)v) fail_value(op_names[op], c, s, sum_base + (double)n * v);
    }
}

int main(int argc, char **argv)
{
    int me, n;
    bench_init(&argc, &argv, &me, &n);
    long calls, warm;
    int reps;
    double target_ms;
    if (bench_timing_args("iallreduce", argc, argv, me, &calls, &reps, &target_ms, &warm)) {
        MPI_Finalize();
        return 1;
    }
    if (me == 0) {
        printf("iallreduce: %d ranks, %d measurements per operation, %s\n", n, reps,
               calls ? "calls given" : "calls fitted to the target time");
        printf("%-15s %8s %8s %14s %14s\n", "operation", "ranks", "calls", "min_us", "median_us");
    }
    long numbered = 0;
    for (int op = 0; op < NOPS; op++) {
        run_op(op, numbered, warm, me, n);
        numbered += warm;
    }
    if (calls == 0) { /* fitted on rank 0 to the blocking call, as collectives.c does */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        run_op(OP_BLOCKING, numbered, warm, me, n);
        MPI_Barrier(MPI_COMM_WORLD);
        double per_call = (MPI_Wtime() - t0) / (double)warm;
        numbered += warm;
        double k = per_call > 0 ? target_ms * 1e-3 / per_call : 100000.0;
        calls = k < 3 ? 3 : k > 100000 ? 100000 : (long)k;
        MPI_Bcast(&calls, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    }
    double rep_us[NOPS][BENCH_MAX_REPS];
    for (int r = 0; r < reps; r++)
        for (int op = 0; op < NOPS; op++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t1 = MPI_Wtime();
            run_op(op, numbered, calls, me, n);
            double mine = (MPI_Wtime() - t1) * 1e6 / (double)calls, worst = -1.0;
            numbered += calls;
            MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            rep_us[op][r] = worst;
            if (me == 0 && worst < mine) fail_value("the MPI_MAX reduction of the times", r, worst, mine);
        }
    if (me == 0) {
        double med[NOPS];
        for (int op = 0; op < NOPS; op++) {
            sort_doubles(rep_us[op], reps);
            med[op] = median_sorted(rep_us[op], reps);
            printf("%s ranks=%d calls=%ld reps=%d us=%.3f us_med=%.3f\n", op_names[op], n, calls, reps,
                   rep_us[op][0], med[op]);
            printf("%-15s %8d %8ld %14.3f %14.3f\n", op_names[op], n, calls, rep_us[op][0], med[op]);
        }
        printf("iallreduce8 + wait / allreduce8: %.2f (medians)\n", med[OP_BLOCKING] > 0 ? med[OP_NONBLOCKING] / med[OP_BLOCKING] : 0.0);
    }
    long lo = 0, hi = 0;
    MPI_Allreduce(&numbered, &lo, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&numbered, &hi, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi || lo != numbered) fail_value("the call count (min, max over ranks)", numbered, (double)lo, (double)hi);
    if (me == 0) printf("iallreduce verified: %ld checked calls on each of %d ranks\n", numbered, n);
    MPI_Finalize();
    return 0;
}
