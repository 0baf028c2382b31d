/* Small messages to a receive that is already waiting (gpumpi hands
 * those over in the receiver's inbox word, beside its queues): contents,
 * status and order must be the same as for any message.
 *   1. pairs: sizes 0 to 8 bytes, 12, 64, 4096 and 4097 (in memory every
 *      rank reaches, MPI_Alloc_mem: gpumpi copies up to 4 KiB straight
 *      into a waiting receive's buffer), into receives that wait for one
 *      source and tag, any source, any tag, and a buffer one byte larger;
 *      then sizes up to 64 between small malloc'd buffers (in gpumpi the
 *      rank's private memory, which other ranks cannot write: the receive
 *      waits with a bounce buffer);
 *   2. order: a mix of small and large messages on one tag (the large ones
 *      cannot take the small path) arrives in the order sent;
 *   3. selection: a receive that waits for one tag, communicator or
 *      source is not given a message with another;
 *   4. truncation: 8 bytes into a 4-byte receive that waits, and 256
 *      into a 100-byte one, are MPI_ERR_TRUNCATE, nothing written past
 *      the buffer, and the next message is intact;
 *   5. synchronous small sends to a waiting receive;
 *   6. fan-in: every rank sends numbered small messages to rank 0, which
 *      takes them with MPI_ANY_SOURCE: none lost, none twice, each source
 *      in order (FAN each; 2 each above 4096 ranks, where rank 0 alone
 *      would take long);
 *   7. round robin: ranks 1 to 63 send numbered small messages to rank 0,
 *      which takes them from each source in turn, naming it: while it
 *      waits for one, the others' messages come, onto one that landed.
 * The sender sometimes waits a little first, so that the receive is
 * already waiting. Prints " No Errors" when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

enum { ROUNDS = 4, ORDER_MSGS = 24, BIG = 300, FAN = 20, RR = 20, RR_RANKS = 64 };

static unsigned char pattern(int seed, int i) { return (unsigned char)(seed * 31 + i * 7 + 1); }

enum { PAIR_MOST = 4097 };

/* out: `most` bytes, in: one more; the sizes up to `most` */
static void pairs(int partner, int even, unsigned char *out, unsigned char *in, int most)
{
    static const int sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 64, 4096, PAIR_MOST};
    for (int round = 0; round < ROUNDS; round++) {
        for (int z = 0; z < (int)(sizeof sizes / sizeof sizes[0]) && sizes[z] <= most; z++) {
            int bytes = sizes[z], tag = 100 + z, seed = round * 16 + z;
            for (int i = 0; i < bytes; i++) out[i] = pattern(seed, i);
            int form = (round + bytes) % 4; /* exact, any source, any tag, one byte more room */
            for (int leg = 0; leg < 2; leg++) {
                int sending = (leg == 0) == even;
                if (sending) {
                    if ((round + leg) % 2) mt_pause_us(50);
                    MPI_Send(out, bytes, MPI_BYTE, partner, tag, MPI_COMM_WORLD);
                } else {
                    MPI_Status st;
                    memset(in, 0xEE, most + 1);
                    int src = form == 1 ? MPI_ANY_SOURCE : partner, t = form == 2 ? MPI_ANY_TAG : tag;
                    int cap = form == 3 ? bytes + 1 : bytes;
                    MPI_Recv(in, cap, MPI_BYTE, src, t, MPI_COMM_WORLD, &st);
                    mt_check_received(&st, partner, tag, in, most + 1, out, bytes, round);
                }
            }
        }
    }
}

/* Message k of the order test: its size in ints (some too large for the
 * small path, some sent with a non-contiguous type). */
static int order_len(int k) { return k % 5 == 2 ? BIG : (k % 3) + 1; }

static void order(int partner, int even)
{
    static int buf[BIG], strided[2 * BIG];
    MPI_Datatype every_other;
    MPI_Type_vector(BIG, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int k = 0; k < ORDER_MSGS; k++) {
        int n = order_len(k);
        if (even) {
            if (k % 4 == 0) mt_pause_us(30);
            if (n == BIG && k % 2) {
                for (int i = 0; i < n; i++) strided[2 * i] = k * 1000 + i;
                MPI_Send(strided, 1, every_other, partner, 7, MPI_COMM_WORLD);
            } else {
                for (int i = 0; i < n; i++) buf[i] = k * 1000 + i;
                MPI_Send(buf, n, MPI_INT, partner, 7, MPI_COMM_WORLD);
            }
        } else {
            MPI_Status st;
            int got = -1;
            MPI_Recv(buf, BIG, MPI_INT, partner, 7, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &got);
            int ok = got == n;
            for (int i = 0; ok && i < n; i++) ok &= buf[i] == k * 1000 + i;
            CHECK(ok, "order: message %d: %d ints, first %d (expected %d ints from %d)", k, got, buf[0], n, k * 1000);
        }
    }
    MPI_Type_free(&every_other);
}

/* The receiver says when it is about to wait, so that the message it does
 * not want comes while it waits: each receive waits for the message sent
 * second (on `other`, a second communicator, for the context). */
static void selection(MPI_Comm other, int partner, int even)
{
    for (int k = 0; k < ROUNDS; k++) {
        int a = 1000 + k, b = 2000 + k, c = 3000 + k, d = 4000 + k, ready = 0;
        if (even) {
            MPI_Recv(&ready, 1, MPI_INT, partner, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            mt_pause_us(200);
            MPI_Send(&a, 1, MPI_INT, partner, 21, MPI_COMM_WORLD);
            MPI_Send(&b, 1, MPI_INT, partner, 20, MPI_COMM_WORLD);
            MPI_Recv(&ready, 1, MPI_INT, partner, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            mt_pause_us(200);
            MPI_Send(&c, 1, MPI_INT, partner, 20, other);
            MPI_Send(&d, 1, MPI_INT, partner, 20, MPI_COMM_WORLD);
        } else {
            int got[4] = {0, 0, 0, 0};
            MPI_Send(&ready, 1, MPI_INT, partner, 23, MPI_COMM_WORLD);
            MPI_Recv(&got[1], 1, MPI_INT, partner, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&got[0], 1, MPI_INT, partner, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&ready, 1, MPI_INT, partner, 23, MPI_COMM_WORLD);
            MPI_Recv(&got[3], 1, MPI_INT, partner, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&got[2], 1, MPI_INT, partner, 20, other, MPI_STATUS_IGNORE);
            CHECK(got[0] == a && got[1] == b && got[2] == c && got[3] == d,
                  "selection %d: got %d %d %d %d, expected %d %d %d %d", k, got[0], got[1], got[2], got[3], a, b, c, d);
        }
    }
}

/* rank 0 waits for `want` while `other`'s message comes first */
static void selection_by_source_pair(int want, int other)
{
    if (rank != 0 && rank != want && rank != other) return;
    for (int k = 0; k < ROUNDS; k++) {
        int v = rank * 100 + k, ready = 0;
        if (rank == 0) {
            int from_want = -1, from_other = -1;
            MPI_Send(&ready, 1, MPI_INT, other, 23, MPI_COMM_WORLD);
            MPI_Send(&ready, 1, MPI_INT, want, 23, MPI_COMM_WORLD);
            MPI_Recv(&from_want, 1, MPI_INT, want, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&from_other, 1, MPI_INT, other, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(from_want == want * 100 + k && from_other == other * 100 + k,
                  "selection by source %d: from %d %d, from %d %d", k, want, from_want, other, from_other);
        } else {
            MPI_Recv(&ready, 1, MPI_INT, 0, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            mt_pause_us(rank == other ? 200 : 600);
            MPI_Send(&v, 1, MPI_INT, 0, 22, MPI_COMM_WORLD);
        }
    }
}

/* two pairs: ranks that differ in two bits, and in one */
static void selection_by_source(void)
{
    if (size >= 3) selection_by_source_pair(2, 1);
    if (size >= 4) selection_by_source_pair(3, 2);
}

/* on c, which returns errors */
static void truncation(MPI_Comm c, int partner, int even)
{
    double big = 2.5;
    int next = 4242;
    int ready = 0;
    if (even) {
        MPI_Recv(&ready, 1, MPI_INT, partner, 23, c, MPI_STATUS_IGNORE);
        mt_pause_us(200); /* the receive waits */
        MPI_Send(&big, 1, MPI_DOUBLE, partner, 3, c);
        MPI_Send(&next, 1, MPI_INT, partner, 3, c);
    } else {
        int small = 0, cls = -1, after = 0;
        MPI_Status st;
        MPI_Send(&ready, 1, MPI_INT, partner, 23, c);
        int rc = MPI_Recv(&small, 4, MPI_BYTE, partner, 3, c, &st);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "8 bytes into 4: error class %d, expected MPI_ERR_TRUNCATE (%d)", cls,
              MPI_ERR_TRUNCATE);
        rc = MPI_Recv(&after, 1, MPI_INT, partner, 3, c, &st);
        CHECK(rc == MPI_SUCCESS && after == 4242, "the message after the truncated one: rc %d, %d", rc, after);
    }
    /* more than a word, into a smaller waiting receive */
    unsigned char *b;
    MPI_Alloc_mem(256, MPI_INFO_NULL, &b);
    if (even) {
        for (int i = 0; i < 256; i++) b[i] = pattern(9, i);
        MPI_Recv(&ready, 1, MPI_INT, partner, 23, c, MPI_STATUS_IGNORE);
        mt_pause_us(200);
        MPI_Send(b, 256, MPI_BYTE, partner, 4, c);
        MPI_Send(&next, 1, MPI_INT, partner, 4, c);
    } else {
        int cls = -1, after = 0, ok = 1;
        memset(b, 0xEE, 256);
        MPI_Send(&ready, 1, MPI_INT, partner, 23, c);
        int rc = MPI_Recv(b, 100, MPI_BYTE, partner, 4, c, MPI_STATUS_IGNORE);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "256 bytes into 100: error class %d, expected MPI_ERR_TRUNCATE (%d)", cls,
              MPI_ERR_TRUNCATE);
        for (int i = 100; i < 256; i++) ok &= b[i] == 0xEE; /* what lands in the 100 the standard leaves open */
        CHECK(ok, "256 bytes into 100: bytes written past the buffer (100: %x)", b[100]);
        rc = MPI_Recv(&after, 1, MPI_INT, partner, 4, c, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && after == 4242, "the message after the truncated 256 bytes: rc %d, %d", rc, after);
    }
    MPI_Free_mem(b);
}

static void synchronous(int partner, int even)
{
    for (int k = 0; k < ROUNDS; k++) {
        long v = 77 + k;
        if (even) {
            if (k % 2) mt_pause_us(50);
            MPI_Ssend(&v, 1, MPI_LONG, partner, 5, MPI_COMM_WORLD);
        } else {
            long got = 0;
            MPI_Recv(&got, 1, MPI_LONG, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(got == v, "synchronous send %d: got %ld, expected %ld", k, got, v);
        }
    }
}

static void fan_in(void)
{
    int fan = size > 4096 ? 2 : FAN;
    if (rank != 0) {
        for (int k = 0; k < fan; k++) {
            int msg[2] = {rank, k};
            if (k % 7 == rank % 7) mt_pause_us(20);
            MPI_Send(msg, 2, MPI_INT, 0, 9, MPI_COMM_WORLD);
        }
        return;
    }
    int *next = mt_alloc(sizeof(int) * (size_t)size);
    for (int r = 0; r < size; r++) next[r] = 0;
    long total = (long)(size - 1) * fan;
    for (long i = 0; i < total; i++) {
        int msg[2] = {-1, -1};
        MPI_Status st;
        MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
        int s = st.MPI_SOURCE;
        CHECK(s > 0 && s < size && msg[0] == s, "fan-in: message from %d says %d", s, msg[0]);
        if (s > 0 && s < size) {
            CHECK(msg[1] == next[s], "fan-in: from %d got number %d, expected %d", s, msg[1], next[s]);
            next[s] = msg[1] + 1;
        }
    }
    for (int r = 1; r < size; r++) CHECK(next[r] == fan, "fan-in: %d of %d messages from %d", next[r], fan, r);
    free(next);
}

static void round_robin(void)
{
    int n = size < RR_RANKS ? size : RR_RANKS;
    if (rank >= n) return;
    if (rank != 0) {
        for (int k = 0; k < RR; k++) {
            int msg[2] = {rank, k};
            MPI_Send(msg, 2, MPI_INT, 0, 8, MPI_COMM_WORLD);
        }
        return;
    }
    for (int k = 0; k < RR; k++)
        for (int s = 1; s < n; s++) {
            int msg[2] = {-1, -1};
            MPI_Status st;
            MPI_Recv(msg, 2, MPI_INT, s, 8, MPI_COMM_WORLD, &st);
            CHECK(msg[0] == s && msg[1] == k && st.MPI_SOURCE == s && st.MPI_TAG == 8,
                  "round robin: from %d (status %d, tag %d) got %d %d, expected %d %d", s, st.MPI_SOURCE, st.MPI_TAG,
                  msg[0], msg[1], s, k);
        }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int partner = rank ^ 1, even = rank % 2 == 0;
    MPI_Comm returns;
    MPI_Comm_dup(MPI_COMM_WORLD, &returns);
    MPI_Comm_set_errhandler(returns, MPI_ERRORS_RETURN);
    if (partner < size) {
        unsigned char *out, *in;
        MPI_Alloc_mem(PAIR_MOST, MPI_INFO_NULL, &out);
        MPI_Alloc_mem(PAIR_MOST + 1, MPI_INFO_NULL, &in);
        pairs(partner, even, out, in, PAIR_MOST);
        MPI_Free_mem(in);
        MPI_Free_mem(out);
        enum { SMALL_MOST = 64 };
        out = mt_alloc(SMALL_MOST);
        in = mt_alloc(SMALL_MOST + 1);
        pairs(partner, even, out, in, SMALL_MOST);
        free(in);
        free(out);
        order(partner, even);
        selection(returns, partner, even);
        truncation(returns, partner, even);
        synchronous(partner, even);
    }
    MPI_Comm_free(&returns);
    MPI_Barrier(MPI_COMM_WORLD);
    selection_by_source();
    fan_in();
    round_robin();
    return mt_finish();
}
