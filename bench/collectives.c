/* Time per call of MPI_Barrier, an 8-byte MPI_Bcast, 8-byte MPI_Reduce and
 * MPI_Allreduce (MPI_SUM of one double), and MPI_Gather and MPI_Scatter of
 * one double per rank, over all of MPI_COMM_WORLD.
 * Plain MPI C: builds with gpumpicc and with mpicc.
 *
 *   collectives [CALLS [REPS [TARGET_MS [WARM]]]]
 *
 * Each measurement: a barrier, then CALLS calls timed on every rank; the
 * figure is the largest per-rank mean time per call (MPI_Reduce MAX to rank
 * 0). REPS measurements per operation (default 3): `us` is the smallest,
 * `us_med` the median. CALLS 0 (the default) picks the count from a timed
 * warm-up so that one measurement takes about TARGET_MS (default 200 ms),
 * between 3 and 100000 calls; rank 0 decides and broadcasts it. WARM
 * (default 10) warm-up calls come first, and as many again timed for the
 * fit when CALLS is 0.
 *
 * The results are checked on every call: the broadcast's 8 bytes (poisoned
 * beforehand), the sums (rank + call number over all ranks, exact in a
 * double), the value each rank gets from a scatter (poisoned beforehand),
 * and 64 of a gather's values, spread over the ranks, at the root (all of
 * them would cost the root a loop over every rank in each call). A wrong
 * value aborts with a message. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

enum { OP_BARRIER, OP_BCAST, OP_REDUCE, OP_ALLREDUCE, OP_GATHER, OP_SCATTER, NOPS };
static const char *const op_names[NOPS] = {"barrier", "bcast8", "reduce8", "allreduce8", "gather8", "scatter8"};

/* the root's arrays of one double per rank for gather and scatter */
static double *rootbuf;

static void fail_value(const char *op, long call, double got, double want)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    printf("collectives: FAILED on rank %d: %s call %ld gave %.17g, expected %.17g\n", me, op, call, got, want);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static unsigned char bcast_byte(long call, int i) { return (unsigned char)(call * 29 + i * 53 + 1); }

/* `calls` calls of one operation, each checked; `first` numbers the calls
 * so that consecutive calls carry different values. */
static void run_op(int op, long first, long calls, int me, int n)
{
    double sum_base = (double)n * (double)(n - 1) / 2.0;
    for (long c = first; c < first + calls; c++) {
        long v = c % 1024;
        switch (op) {
        case OP_BARRIER:
            MPI_Barrier(MPI_COMM_WORLD);
            break;
        case OP_BCAST: {
            unsigned char buf[8];
            for (int i = 0; i < 8; i++) buf[i] = me == 0 ? bcast_byte(c, i) : 0xA5;
            MPI_Bcast(buf, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
            for (int i = 0; i < 8; i++)
                if (buf[i] != bcast_byte(c, i)) fail_value("bcast8", c, buf[i], bcast_byte(c, i));
            break;
        }
        case OP_REDUCE: {
            double x = (double)me + (double)v, s = -1.0;
            MPI_Reduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            if (me == 0 && s != sum_base + (double)n * (double)v) fail_value("reduce8", c, s, sum_base + (double)n * v);
            break;
        }
        case OP_ALLREDUCE: {
            double x = (double)me + (double)v, s = -1.0;
            MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            if (s != sum_base + (double)n * (double)v) fail_value("allreduce8", c, s, sum_base + (double)n * v);
            break;
        }
        case OP_GATHER: {
            double x = (double)me + (double)v;
            MPI_Gather(&x, 1, MPI_DOUBLE, rootbuf, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            if (me == 0)
                for (long r = c % 7; r < n; r += n / 64 + 1)
                    if (rootbuf[r] != (double)r + (double)v) fail_value("gather8", c, rootbuf[r], (double)r + v);
            break;
        }
        default: { /* the root's values are rank + 0.5, set once */
            double x = -1.0;
            MPI_Scatter(rootbuf, 1, MPI_DOUBLE, &x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            if (x != (double)me + 0.5) fail_value("scatter8", c, x, (double)me + 0.5);
            break;
        }
        }
    }
}

int main(int argc, char **argv)
{
    int me, n;
    bench_init(&argc, &argv, &me, &n);
    long calls_arg, warm;
    int reps;
    double target_ms;
    if (bench_timing_args("collectives", argc, argv, me, &calls_arg, &reps, &target_ms, &warm)) {
        MPI_Finalize();
        return 1;
    }
    if (me == 0) {
        printf("collectives: %d ranks, %d measurements per operation, %s\n", n, reps,
               calls_arg ? "calls given" : "calls fitted to the target time");
        printf("%-12s %8s %8s %14s %14s\n", "operation", "ranks", "calls", "min_us", "median_us");
    }
    long numbered = 0;
    if (me == 0) {
        rootbuf = (double *)malloc(sizeof(double) * (size_t)n);
        if (!rootbuf) {
            printf("collectives: no memory for %d doubles at the root\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    for (int op = 0; op < NOPS; op++) {
        if (me == 0 && op == OP_SCATTER)
            for (int r = 0; r < n; r++) rootbuf[r] = (double)r + 0.5;
        run_op(op, numbered, warm, me, n);
        numbered += warm;
        long calls = calls_arg;
        if (calls == 0) {
            /* a timed second round on rank 0 fits the call count; the
             * barrier after it makes rank 0's time cover the slowest rank (a
             * root's broadcasts return before the others have their data) */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            run_op(op, numbered, warm, me, n);
            MPI_Barrier(MPI_COMM_WORLD);
            double per_call = (MPI_Wtime() - t0) / (double)warm;
            numbered += warm;
            double k = per_call > 0 ? target_ms * 1e-3 / per_call : 100000.0;
            calls = k < 3 ? 3 : k > 100000 ? 100000 : (long)k;
            MPI_Bcast(&calls, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        }
        double rep_us[BENCH_MAX_REPS];
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t1 = MPI_Wtime();
            run_op(op, numbered, calls, me, n);
            double mine = (MPI_Wtime() - t1) * 1e6 / (double)calls, worst = -1.0;
            numbered += calls;
            MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            rep_us[r] = worst;
            if (me == 0 && worst < mine) fail_value("the MPI_MAX reduction of the times", r, worst, mine);
        }
        if (me == 0) {
            sort_doubles(rep_us, reps);
            double med = median_sorted(rep_us, reps);
            printf("%s ranks=%d calls=%ld reps=%d us=%.3f us_med=%.3f\n", op_names[op], n, calls, reps, rep_us[0], med);
            printf("%-12s %8d %8ld %14.3f %14.3f\n", op_names[op], n, calls, rep_us[0], med);
        }
    }
    /* every rank ran the same calls: compare the counts */
    long lo = 0, hi = 0;
    MPI_Allreduce(&numbered, &lo, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&numbered, &hi, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi || lo != numbered) fail_value("the call count (min, max over ranks)", numbered, (double)lo, (double)hi);
    if (me == 0) printf("collectives verified: %ld checked calls on each of %d ranks\n", numbered, n);
    free(rootbuf);
    MPI_Finalize();
    return 0;
}
