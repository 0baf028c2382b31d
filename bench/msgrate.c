/* Message rate: every rank exchanges small messages with its partner
 * (rank ^ 1; with an odd count the last rank sits out) through windows of
 * nonblocking sends and receives, all pairs at once. Plain MPI C: builds
 * with gpumpicc and with mpicc.
 *
 *   msgrate [WINDOWS [WINDOW [BYTES [REPS]]]]
 *
 * A window: WINDOW MPI_Irecv from the partner, WINDOW MPI_Isend to it, one
 * MPI_Waitall. A measurement: WINDOWS windows (default 100) of WINDOW
 * messages (default 32) of BYTES bytes (default 8, at least 8), timed on
 * every rank; the rate is all messages sent over the slowest rank's time,
 * in millions per second. REPS measurements (default 3): best and median.
 *
 * Every received message carries its sender and sequence number, checked on
 * arrival together with its byte count; the verified messages are summed
 * over the ranks and compared with the number sent. Any mismatch aborts. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

#define MAX_REPS 32
#define TAG 23

static void fail(const char *what, long seq, long got, long want)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    printf("msgrate: FAILED on rank %d: %s (message %ld: got %ld, expected %ld)\n", me, what, seq, got, want);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static void put_u64(unsigned char *p, unsigned long long v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned long long get_u64(const unsigned char *p)
{
    unsigned long long v = 0;
    for (int i = 0; i < 8; i++) v |= (unsigned long long)p[i] << (8 * i);
    return v;
}

static unsigned long long stamp(int sender, long seq) { return ((unsigned long long)sender << 40) ^ (unsigned long long)seq; }

/* `windows` windows with the partner, messages numbered from *seq on;
 * returns the number of messages received and checked. */
static long exchange(int me, int partner, long windows, int window, int bytes, unsigned char *sbuf,
                     unsigned char *rbuf, MPI_Request *reqs, MPI_Status *stats, long *seq)
{
    long verified = 0;
    for (long w = 0; w < windows; w++) {
        for (int i = 0; i < window; i++) {
            memset(rbuf + (long)i * bytes, 0xA5, 8);
            MPI_Irecv(rbuf + (long)i * bytes, bytes, MPI_BYTE, partner, TAG, MPI_COMM_WORLD, &reqs[i]);
        }
        for (int i = 0; i < window; i++) {
            put_u64(sbuf + (long)i * bytes, stamp(me, *seq + i));
            MPI_Isend(sbuf + (long)i * bytes, bytes, MPI_BYTE, partner, TAG, MPI_COMM_WORLD, &reqs[window + i]);
        }
        MPI_Waitall(2 * window, reqs, stats);
        for (int i = 0; i < window; i++) {
            int count = -1;
            MPI_Get_count(&stats[i], MPI_BYTE, &count);
            if (count != bytes) fail("wrong byte count", *seq + i, count, bytes);
            if (stats[i].MPI_SOURCE != partner) fail("wrong source", *seq + i, stats[i].MPI_SOURCE, partner);
            unsigned long long got = get_u64(rbuf + (long)i * bytes), want = stamp(partner, *seq + i);
            if (got != want) fail("wrong sender or sequence number", *seq + i, (long)(got & 0xffffffffffLL), *seq + i);
            verified++;
        }
        *seq += window;
    }
    return verified;
}

int main(int argc, char **argv)
{
    int me, n;
    bench_init(&argc, &argv, &me, &n);
    long windows = argc > 1 ? atol(argv[1]) : 100;
    int window = argc > 2 ? atoi(argv[2]) : 32;
    int bytes = argc > 3 ? atoi(argv[3]) : 8;
    int reps = argc > 4 ? atoi(argv[4]) : 3;
    if (n < 2 || windows < 1 || window < 1 || bytes < 8 || reps < 1 || reps > MAX_REPS) {
        if (me == 0)
            printf("msgrate: needs 2+ ranks, WINDOWS >= 1, WINDOW >= 1, BYTES >= 8, 1 <= REPS <= %d\n", MAX_REPS);
        MPI_Finalize();
        return 1;
    }
    int partner = me ^ 1, active = partner < n;
    long pairs = n / 2, per_measure = pairs * 2 * windows * window;
    unsigned char *sbuf = 0, *rbuf = 0;
    MPI_Request *reqs = 0;
    MPI_Status *stats = 0;
    if (active) {
        sbuf = (unsigned char *)malloc((size_t)window * bytes);
        rbuf = (unsigned char *)malloc((size_t)window * bytes);
        reqs = (MPI_Request *)malloc(2 * (size_t)window * sizeof(MPI_Request));
        stats = (MPI_Status *)malloc(2 * (size_t)window * sizeof(MPI_Status));
        if (!sbuf || !rbuf || !reqs || !stats) {
            printf("msgrate: rank %d could not allocate its window of %d messages\n", me, window);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        memset(sbuf, 0x5A, (size_t)window * bytes);
    }
    if (me == 0) {
        printf("msgrate: %d ranks, %ld pairs, %ld windows of %d messages of %d bytes per measurement\n", n, pairs,
               windows, window, bytes);
        printf("%8s %8s %8s %12s %14s %14s\n", "ranks", "window", "bytes", "messages", "best_Mmsg/s", "median_Mmsg/s");
    }
    long seq = 0, verified = 0;
    if (active) verified += exchange(me, partner, windows / 10 + 1, window, bytes, sbuf, rbuf, reqs, stats, &seq);
    double rate[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (active) verified += exchange(me, partner, windows, window, bytes, sbuf, rbuf, reqs, stats, &seq);
        double mine = MPI_Wtime() - t0, worst = 0;
        MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        rate[r] = worst > 0 ? (double)per_measure / worst * 1e-6 : 0;
    }
    long total = 0, want = pairs * 2 * (windows / 10 + 1 + (long)reps * windows) * window;
    MPI_Reduce(&verified, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0) {
        if (total != want) fail("messages verified over all ranks", -1, total, want);
        sort_doubles(rate, reps);
        double med = median_sorted(rate, reps);
        printf("msgrate ranks=%d pairs=%ld window=%d bytes=%d messages=%ld Mmsgs_best=%.4f Mmsgs_med=%.4f\n", n, pairs,
               window, bytes, per_measure, rate[reps - 1], med);
        printf("%8d %8d %8d %12ld %14.4f %14.4f\n", n, window, bytes, per_measure, rate[reps - 1], med);
        printf("msgrate verified: %ld messages received with the right sender, sequence and size\n", total);
    }
    free(sbuf);
    free(rbuf);
    free(reqs);
    free(stats);
    MPI_Finalize();
    return 0;
}
