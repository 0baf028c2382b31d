/* What every conformance program shares (MPICH's test convention): each
 * rank counts its failed checks, prints a line for the first few, and at
 * the end rank 0 prints " No Errors" when the total over all ranks is 0,
 * else " Found N errors". Plain C: builds with MPICH's mpicc and with
 * gpumpicc, which turns these globals into per-rank state like the test's
 * own. */
#ifndef MPITEST_H
#define MPITEST_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int errors;     /* this rank's failed checks */
static int rank, size; /* in MPI_COMM_WORLD, set by mt_init (or by the test itself) */

/* failure lines a rank prints at most: thousands of ranks failing the same
 * way would otherwise flood the output */
enum { MT_MAX_PRINTED = 10 };

/* CHECK(cond, printf format, args...): count a failure, and print it while
 * this rank has printed fewer than MT_MAX_PRINTED */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond) && ++errors <= MT_MAX_PRINTED) {                                               \
            printf("rank %d: FAILED line %d: ", rank, __LINE__);                                   \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static void mt_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
}

/* malloc that ends the job with the reason when memory runs out: a test
 * whose memory grows with the rank count cannot run at hundreds of
 * thousands of ranks on one GPU, and should say so, not fault */
static inline void *mt_alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p && bytes) {
        printf("rank %d: cannot allocate %zu bytes (this test's memory grows with the rank count: run it with "
               "fewer ranks)\n", rank, bytes);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* sign * (1 + mantissa) * 2^e with e from -30 to 30: sums round differently in different orders */
static inline float mt_fvalue(int r, int i)
{
    unsigned h = (unsigned)(r * 2654435761u) ^ (unsigned)(i * 40503u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    float m = 1.0f + (float)(h & 0xffff) / 65536.0f;
    int e = (int)((h >> 16) % 61) - 30;
    float v = m;
    for (; e > 0; e--) v *= 2.0f;
    for (; e < 0; e++) v *= 0.5f;
    return (h >> 31) ? -v : v;
}

/* a short busy wait, so that the partner is in its receive already */
static inline void mt_pause_us(double us)
{
    double t = MPI_Wtime();
    while (MPI_Wtime() - t < us * 1e-6) {
    }
}

/* A message of `bytes` that `partner` sent with `tag` has been received
 * into `in` (`room` bytes, all 0xEE before the receive): its status says
 * so, `in` holds `want`'s first `bytes` bytes, and nothing past them was
 * written. `round` goes into the failure lines. */
static inline void mt_check_received(const MPI_Status *st, int partner, int tag, const unsigned char *in, int room,
                                     const unsigned char *want, int bytes, int round)
{
    int n = -1;
    MPI_Get_count(st, MPI_BYTE, &n);
    CHECK(st->MPI_SOURCE == partner && st->MPI_TAG == tag && n == bytes,
          "round %d, %d bytes: status source %d tag %d count %d", round, bytes, st->MPI_SOURCE, st->MPI_TAG, n);
    int ok = 1;
    for (int i = 0; i < bytes; i++) ok &= in[i] == want[i];
    for (int i = bytes; i < room; i++) ok &= in[i] == 0xEE;
    CHECK(ok, "round %d, %d bytes: contents, or bytes written past the message", round, bytes);
}

/* the final report, then MPI_Finalize; main returns what this returns */
static int mt_finish(void)
{
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors\n", total);
    }
    MPI_Finalize();
    return 0;
}

#endif
