/* Each rank's own memory (malloc'd blocks and globals) as MPI buffers,
 * under gpumpi's placement: small blocks in the rank's private memory
 * (local memory on the GPU, which no other thread can reach), large ones
 * and what does not fit in the shared heap. Messages of every size path
 * (empty, one word, eager, staged, large) go between such buffers, blocks
 * keep their contents across realloc from private to shared, calloc
 * zeroes a reused block, and collectives over communicators that hold the
 * whole world in order (a dup, a Cartesian one, a one-colour split) agree
 * with the same over a reordered one. */
#include <string.h>
#include "mpitest.h"

static double shared_table[64]; /* a global: each rank has its own copy */

static unsigned char pat(int r, int i) { return (unsigned char)(r * 37 + i * 11 + 5); }

/* A ring shift of n bytes from and into malloc'd blocks, four ways. */
static void ring_bytes(size_t n)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, way;
    unsigned char *out = malloc(n + 1), *in = malloc(n + 1);
    size_t k;
    for (way = 0; way < 4; way++) {
        MPI_Request rq[2];
        for (k = 0; k < n; k++) out[k] = pat(rank, (int)k + way);
        memset(in, 0xee, n + 1);
        if (way == 0) {
            MPI_Sendrecv(out, (int)n, MPI_BYTE, right, 1, in, (int)n, MPI_BYTE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (way == 1) {
            MPI_Irecv(in, (int)n, MPI_BYTE, left, 2, MPI_COMM_WORLD, &rq[0]);
            MPI_Isend(out, (int)n, MPI_BYTE, right, 2, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        } else if (way == 2) { /* synchronous: the sender waits for the receive */
            MPI_Irecv(in, (int)n, MPI_BYTE, left, 3, MPI_COMM_WORLD, &rq[0]);
            MPI_Ssend(out, (int)n, MPI_BYTE, right, 3, MPI_COMM_WORLD);
            MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        } else { /* the send buffer reused at once: the message must not change */
            MPI_Irecv(in, (int)n, MPI_BYTE, left, 4, MPI_COMM_WORLD, &rq[0]);
            MPI_Send(out, (int)n, MPI_BYTE, right, 4, MPI_COMM_WORLD);
            memset(out, 0x5a, n);
            MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        }
        for (k = 0; k < n; k++)
            if (in[k] != pat(left, (int)k + way)) break;
        CHECK(k == n, "%zu-byte ring, way %d: byte %zu is %d, expected %d", n, way, k, k < n ? in[k] : 0,
              k < n ? pat(left, (int)k + way) : 0);
        CHECK(n == 0 || in[n] == 0xee, "%zu-byte ring, way %d: wrote past the message", n, way);
    }
    free(out);
    free(in);
}

/* A column of a malloc'd matrix through a vector type, both ends. */
static void ring_vector(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, i;
    double *a = malloc(40 * 7 * sizeof(double)), *b = malloc(40 * 7 * sizeof(double));
    MPI_Datatype col;
    MPI_Type_vector(40, 1, 7, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    for (i = 0; i < 280; i++) {
        a[i] = rank * 1000 + i;
        b[i] = -1;
    }
    MPI_Sendrecv(a + 2, 1, col, right, 5, b + 3, 1, col, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 280; i++) {
        double want = i % 7 == 3 ? left * 1000 + (i - 1) : -1;
        CHECK(b[i] == want, "vector column: b[%d] = %g, expected %g", i, b[i], want);
    }
    MPI_Type_free(&col);
    free(a);
    free(b);
}

/* realloc grows a block from a few bytes to 1 MiB (on gpumpi from the
 * shared heap to private memory and back) and down again, keeping what
 * it held. */
static void grow_and_shrink(void)
{
    /* every rank keeps a block of each size it passed through: to 1 MiB
     * where all of them fit the shared heap, 16 KiB beyond 4,096 ranks */
    size_t n = 16, k, most = size <= 4096 ? (size_t)1 << 20 : (size_t)16 << 10;
    unsigned char *p = malloc(n);
    for (k = 0; k < n; k++) p[k] = pat(rank, (int)k);
    while (n < most) {
        size_t m = n * 2 + 24;
        p = realloc(p, m);
        CHECK(p != NULL, "realloc to %zu failed", m);
        if (!p) return;
        for (k = 0; k < n; k++)
            if (p[k] != pat(rank, (int)k)) break;
        CHECK(k == n, "realloc to %zu lost byte %zu", m, k);
        for (k = n; k < m; k++) p[k] = pat(rank, (int)k);
        n = m;
    }
    p = realloc(p, 100);
    for (k = 0; k < 100; k++)
        if (p[k] != pat(rank, (int)k)) break;
    CHECK(k == 100, "realloc down to 100 lost byte %zu", k);
    free(p);
    /* a block freed dirty and taken again by calloc comes back zeroed */
    unsigned char *d = malloc(3000);
    memset(d, 0xab, 3000);
    free(d);
    d = calloc(3000, 1);
    for (k = 0; k < 3000; k++)
        if (d[k]) break;
    CHECK(k == 3000, "calloc after a dirty free: byte %zu is %d", k, d[k < 3000 ? k : 0]);
    free(d);
}

/* The same allreduce and barrier over communicators that hold the world
 * in order (the on-chip tree) and one that does not (messages). */
static void spanning_comms(void)
{
    MPI_Comm dup, cart, split, rev;
    int dims[1] = {size}, periods[1] = {0}, r, i;
    long want = (long)size * (size - 1) / 2;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    MPI_Comm_split(MPI_COMM_WORLD, 7, rank, &split);
    MPI_Comm_split(MPI_COMM_WORLD, 7, size - rank, &rev);
    MPI_Comm comms[5] = {MPI_COMM_WORLD, dup, cart, split, rev};
    for (i = 0; i < 5; i++) {
        long s = -1, in = rank;
        double v[3] = {rank, 1, -rank}, sum[3];
        int me;
        MPI_Comm_rank(comms[i], &me);
        MPI_Barrier(comms[i]);
        MPI_Allreduce(&in, &s, 1, MPI_LONG, MPI_SUM, comms[i]);
        CHECK(s == want, "communicator %d: allreduce sum %ld, expected %ld", i, s, want);
        MPI_Allreduce(v, sum, 3, MPI_DOUBLE, MPI_SUM, comms[i]);
        CHECK(sum[0] == (double)want && sum[1] == size && sum[2] == -(double)want,
              "communicator %d: 3-double allreduce gave %g %g %g", i, sum[0], sum[1], sum[2]);
        MPI_Allreduce(&me, &r, 1, MPI_INT, MPI_MAX, comms[i]);
        CHECK(r == size - 1, "communicator %d: max rank %d, expected %d", i, r, size - 1);
        in = rank;
        MPI_Allreduce(MPI_IN_PLACE, &in, 1, MPI_LONG, MPI_MIN, comms[i]);
        CHECK(in == 0, "communicator %d: in-place min %ld", i, in);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&split);
    MPI_Comm_free(&rev);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {0, 1, 8, 9, 100, 192, 193, 1000, 4096, 65536, 300000};
    unsigned i;
    int k;
    mt_init(&argc, &argv);
    /* blocks that stay put while everything else runs */
    unsigned char *keep = malloc(777);
    for (k = 0; k < 777; k++) keep[k] = pat(rank, k);
    for (k = 0; k < 64; k++) shared_table[k] = rank + k * 0.5;

    /* the large ones only where every rank's copies fit the shared heap */
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] <= 4096 || size <= 4096) ring_bytes(sizes[i]);
    ring_vector();
    grow_and_shrink();
    spanning_comms();

    /* a global as a message buffer: the neighbour's copy arrives in ours */
    {
        double got[64];
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        MPI_Sendrecv(shared_table, 64, MPI_DOUBLE, right, 9, got, 64, MPI_DOUBLE, left, 9, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (k = 0; k < 64; k++) CHECK(got[k] == left + k * 0.5, "global from rank %d: [%d] = %g", left, k, got[k]);
        for (k = 0; k < 64; k++) CHECK(shared_table[k] == rank + k * 0.5, "own global changed: [%d] = %g", k, shared_table[k]);
    }
    /* collectives on malloc'd buffers */
    {
        int n = size <= 4096 ? 5000 : 64, j; /* a broadcast of 40 KB to 270,336 ranks is minutes of messages */
        double *b = malloc(n * sizeof(double));
        int *g = size <= 4096 ? malloc((size_t)size * 3 * sizeof(int)) : NULL, mine[3] = {rank, -rank, rank * rank};
        for (j = 0; j < n; j++) b[j] = rank == size - 1 ? j * 0.25 : -1;
        MPI_Bcast(b, n, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
        for (j = 0; j < n; j++)
            if (b[j] != j * 0.25) break;
        CHECK(j == n, "bcast of %d doubles: [%d] = %g", n, j, j < n ? b[j] : 0);
        if (g) /* every rank's copy of all: at most 4,096 ranks' worth */
            MPI_Allgather(mine, 3, MPI_INT, g, 3, MPI_INT, MPI_COMM_WORLD);
        for (j = 0; j < size && g; j++)
            CHECK(g[3 * j] == j && g[3 * j + 1] == -j && g[3 * j + 2] == j * j, "allgather from %d: %d %d %d", j,
                  g[3 * j], g[3 * j + 1], g[3 * j + 2]);
        free(b);
        free(g);
    }
    for (k = 0; k < 777; k++)
        if (keep[k] != pat(rank, k)) break;
    CHECK(k == 777, "a block kept all along changed at byte %d", k);
    free(keep);

    return mt_finish();
}
