/* Ping-pong between two ranks: half round-trip latency and bandwidth for a
 * sweep of message sizes. Plain MPI C: builds with gpumpicc and with mpicc.
 *
 *   pingpong [ITERS [MAX_BYTES [RANK_A [RANK_B [BATCHES [CORRUPT]]]]]]
 *
 * ITERS round trips per batch for messages up to 8 KiB (fewer for larger
 * ones, at least 3), BATCHES batches per size (default 5): the figures are
 * the min and the median over the batches of the batch's mean half round
 * trip. Default peers: rank 0 and the last rank (under ---gpumpi -g 2 -b 1
 * they are in different blocks). The other ranks wait in a barrier.
 *
 * Every message is checked: its byte count, and a stamp (the iteration and
 * direction) in its first and last 8 bytes; after each batch the whole of
 * the last message is checked against the pattern, the receive buffer having
 * been poisoned before the batch. Any mismatch aborts. CORRUPT (a message
 * size, for testing the checks) makes RANK_B send one wrong payload byte in
 * messages of that size: the run must then abort. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

#define MAX_BATCHES 64
#define TAG 17

static const long sizes[] = {0, 8, 64, 512, 4096, 65536, 1048576, 4194304};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static unsigned char pattern_byte(long i, int dir) { return (unsigned char)(i * 131 + 7 + dir * 61); }

static void fill_pattern(unsigned char *buf, long n, int dir)
{
    for (long i = 0; i < n; i++) buf[i] = pattern_byte(i, dir);
}

/* The stamp goes in the first 8 bytes and (from 16 bytes up) the last 8. */
static void put_stamp(unsigned char *buf, long n, unsigned long long s)
{
    for (long i = 0; i < 8 && i < n; i++) buf[i] = (unsigned char)(s >> (8 * i));
    if (n >= 16)
        for (long i = 0; i < 8; i++) buf[n - 8 + i] = (unsigned char)(s >> (8 * i));
}

static void fail(const char *what, long bytes, long iter, long at, int got, int want)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    printf("pingpong: FAILED on rank %d: %s (message of %ld bytes, iteration %ld, byte %ld: got %d, expected %d)\n",
           me, what, bytes, iter, at, got, want);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* The k <= 8 bytes at buf as a number, first byte lowest: read all, then
 * compare once. Compared byte by byte, each read waited for the previous
 * comparison: on a GPU thread eight trips to memory per message (1.5 us
 * of the 8-byte half round trip on an H100), not one. */
static unsigned long long stamp_bytes(const unsigned char *buf, long k)
{
    unsigned long long v = 0;
    for (long i = 0; i < k; i++) v |= (unsigned long long)buf[i] << (8 * i);
    return v;
}

static void stamp_mismatch(const char *what, const unsigned char *buf, long at, long k, unsigned long long s, long n,
                           long iter)
{
    for (long i = 0; i < k; i++)
        if (buf[at + i] != (unsigned char)(s >> (8 * i))) fail(what, n, iter, at + i, buf[at + i], (unsigned char)(s >> (8 * i)));
}

static void check_stamp(const unsigned char *buf, long n, unsigned long long s, long iter)
{
    long k = n < 8 ? n : 8;
    unsigned long long want = k == 8 ? s : s & ((1ull << (8 * k)) - 1);
    if (stamp_bytes(buf, k) != want) stamp_mismatch("wrong stamp", buf, 0, k, s, n, iter);
    if (n >= 16 && stamp_bytes(buf + n - 8, 8) != s) stamp_mismatch("wrong stamp at the end", buf, n - 8, 8, s, n, iter);
}

/* The bytes between the stamps, after a whole batch. */
static void check_body(const unsigned char *buf, long n, int dir, long iter)
{
    long end = n >= 16 ? n - 8 : n;
    for (long i = 8; i < end; i++)
        if (buf[i] != pattern_byte(i, dir)) fail("wrong payload byte", n, iter, i, buf[i], pattern_byte(i, dir));
}

static unsigned long long stamp_of(int size_index, long iter, int dir)
{
    return ((unsigned long long)(size_index + 1) << 48) | ((unsigned long long)iter << 1) | (unsigned long long)dir;
}

static void recv_checked(unsigned char *buf, long n, int from, int size_index, long iter, int dir)
{
    MPI_Status st;
    int count = -1;
    MPI_Recv(buf, (int)n, MPI_BYTE, from, TAG, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    if (count != n || st.MPI_SOURCE != from || st.MPI_TAG != TAG) fail("wrong count, source or tag", n, iter, -1, count, (int)n);
    check_stamp(buf, n, stamp_of(size_index, iter, dir), iter);
}

/* Round trips for one batch: ITERS up to 8 KiB, then fewer so that each
 * batch moves about the same number of bytes as ITERS 8 KiB round trips. */
static long iters_for(long bytes, long iters)
{
    if (bytes <= 8192) return iters;
    long k = iters * 8192 / bytes;
    return k < 3 ? 3 : k;
}

int main(int argc, char **argv)
{
    int me, n;
    bench_init(&argc, &argv, &me, &n);
    long iters = argc > 1 ? atol(argv[1]) : 1000;
    long max_bytes = argc > 2 ? atol(argv[2]) : 4194304;
    int a = argc > 3 ? atoi(argv[3]) : 0;
    int b = argc > 4 ? atoi(argv[4]) : n - 1;
    int batches = argc > 5 ? atoi(argv[5]) : 5;
    long corrupt = argc > 6 ? atol(argv[6]) : -1;
    if (n < 2 || a == b || a < 0 || b < 0 || a >= n || b >= n || iters < 1 || batches < 1 || batches > MAX_BATCHES) {
        if (me == 0)
            printf("pingpong: needs 2+ ranks, two different peers below %d, ITERS >= 1, 1 <= BATCHES <= %d "
                   "(got ITERS %ld, peers %d %d, BATCHES %d)\n", n, MAX_BATCHES, iters, a, b, batches);
        MPI_Finalize();
        return 1;
    }

    if (me == a || me == b) {
        int peer = me == a ? b : a;
        int out_dir = me == a ? 0 : 1, in_dir = 1 - out_dir;
        long alloc = max_bytes > 16 ? max_bytes : 16;
        unsigned char *sbuf = (unsigned char *)malloc(alloc), *rbuf = (unsigned char *)malloc(alloc);
        double batch_us[MAX_BATCHES];
        long messages = 0;
        if (!sbuf || !rbuf) {
            printf("pingpong: rank %d could not allocate 2 x %ld bytes\n", me, alloc);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (me == a) {
            printf("pingpong: ranks %d and %d of %d, %ld round trips per batch (up to 8 KiB), %d batches\n", a, b, n,
                   iters, batches);
            printf("%10s %8s %14s %14s %10s\n", "bytes", "iters", "min_us", "median_us", "GB/s");
        }
        for (int si = 0; si < NSIZES && sizes[si] <= max_bytes; si++) {
            long bytes = sizes[si];
            long k = iters_for(bytes, iters), warm = k / 10 < 2 ? 2 : k / 10;
            fill_pattern(sbuf, bytes, out_dir);
            if (me == b && bytes == corrupt && bytes >= 32) sbuf[bytes / 2] ^= 0x10;
            /* iteration numbers: warm-up first, then the batches; each batch
             * starts with a poisoned receive buffer and ends with a full check */
            long it = 0;
            for (int bt = -1; bt < batches; bt++) {
                long rounds = bt < 0 ? warm : k;
                memset(rbuf, 0xA5, (size_t)bytes);
                /* both ready before the clock starts: on a GPU two ranks of
                 * one warp take turns, so the peer's memset and check of
                 * the last batch (untimed, 10 ms at 1 MiB) would otherwise
                 * fall into this rank's timed loop */
                MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, TAG + 2, NULL, 0, MPI_BYTE, peer, TAG + 2, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                double t0 = MPI_Wtime();
                for (long r = 0; r < rounds; r++, it++) {
                    if (me == a) {
                        put_stamp(sbuf, bytes, stamp_of(si, it, out_dir));
                        MPI_Send(sbuf, (int)bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
                        recv_checked(rbuf, bytes, peer, si, it, in_dir);
                    } else {
                        recv_checked(rbuf, bytes, peer, si, it, in_dir);
                        put_stamp(sbuf, bytes, stamp_of(si, it, out_dir));
                        MPI_Send(sbuf, (int)bytes, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
                    }
                }
                double t1 = MPI_Wtime();
                check_body(rbuf, bytes, in_dir, it - 1);
                messages += rounds;
                if (bt >= 0) batch_us[bt] = (t1 - t0) * 1e6 / (2.0 * (double)rounds);
            }
            if (me == a) {
                sort_doubles(batch_us, batches);
                double min_us = batch_us[0], med_us = median_sorted(batch_us, batches);
                double bw = med_us > 0 ? (double)bytes / (med_us * 1e3) : 0.0;
                printf("pingpong ranks=%d a=%d b=%d bytes=%ld iters=%ld batches=%d half_rtt_us_min=%.3f "
                       "half_rtt_us_med=%.3f bw_GBs=%.4f\n", n, a, b, bytes, k, batches, min_us, med_us, bw);
                printf("%10ld %8ld %14.3f %14.3f %10.4f\n", bytes, k, min_us, med_us, bw);
            }
        }
        /* each side received as many messages as it sent: compare the tallies */
        long other = 0;
        MPI_Sendrecv(&messages, 1, MPI_LONG, peer, TAG + 1, &other, 1, MPI_LONG, peer, TAG + 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (other != messages) fail("the peers disagree on the message count", 0, messages, -1, (int)other, (int)messages);
        if (me == a) printf("pingpong verified: %ld messages each way, every byte count and stamp checked\n", messages);
        free(sbuf);
        free(rbuf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
