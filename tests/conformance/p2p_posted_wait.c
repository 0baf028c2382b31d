/* Messages to nonblocking receives that are already posted and waited for
 * (gpumpi may hand a small one straight into the earliest posted
 * receive's buffer while its rank waits): contents, status, order and
 * MPI's matching rule must be the same as for any message.
 *   1. pairs: sizes 0 to 8 bytes, 12, 64, 4096, 4097 and 5000, into
 *      MPI_Alloc_mem memory and into the rank's own (static) memory, with
 *      MPI_Irecv then MPI_Wait or MPI_Waitall, for one source and tag, any
 *      source, any tag, and a buffer one byte larger;
 *   2. order: three receives posted for one source and tag take three
 *      messages in the order sent;
 *   3. the earliest posted receive that matches: an ANY_SOURCE receive
 *      posted before one naming the source takes the first message; a
 *      receive that does not match, posted first, does not take it;
 *   4. truncation: 256 bytes into a waited 100-byte receive is
 *      MPI_ERR_TRUNCATE, nothing written past the buffer, and the next
 *      message is intact;
 *   5. a halo: each rank posts receives from its two ring neighbours in
 *      both directions, sends, and waits for all, several rounds.
 * The sender waits a little first, so that the receiver is in its wait.
 * Prints " No Errors" when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

enum { ROUNDS = 4, MOST = 5000, HALO = 64, HALO_ROUNDS = 20 };

static unsigned char pattern(int seed, int i) { return (unsigned char)(seed * 37 + i * 11 + 3); }

static unsigned char own_in[MOST + 1];

static void pairs(int partner, int even)
{
    static const int sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 64, 4096, 4097, MOST};
    unsigned char *out, *shared_in;
    MPI_Alloc_mem(MOST, MPI_INFO_NULL, &out);
    MPI_Alloc_mem(MOST + 1, MPI_INFO_NULL, &shared_in);
    for (int round = 0; round < ROUNDS; round++) {
        unsigned char *in = round % 2 ? own_in : shared_in;
        for (int z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++) {
            int bytes = sizes[z], tag = 200 + z, seed = round * 16 + z;
            for (int i = 0; i < bytes; i++) out[i] = pattern(seed, i);
            int form = (round + z) % 4; /* exact, any source, any tag, one byte more room */
            for (int leg = 0; leg < 2; leg++) {
                if ((leg == 0) == even) {
                    mt_pause_us(40);
                    MPI_Send(out, bytes, MPI_BYTE, partner, tag, MPI_COMM_WORLD);
                } else {
                    MPI_Request req;
                    MPI_Status st;
                    memset(in, 0xEE, MOST + 1);
                    int src = form == 1 ? MPI_ANY_SOURCE : partner, t = form == 2 ? MPI_ANY_TAG : tag;
                    int cap = form == 3 ? bytes + 1 : bytes;
                    MPI_Irecv(in, cap, MPI_BYTE, src, t, MPI_COMM_WORLD, &req);
                    if (z % 2)
                        MPI_Wait(&req, &st);
                    else
                        MPI_Waitall(1, &req, &st);
                    mt_check_received(&st, partner, tag, in, MOST + 1, out, bytes, round);
                }
            }
        }
    }
    MPI_Free_mem(shared_in);
    MPI_Free_mem(out);
}

static void order(int partner, int even)
{
    double v[3] = {0, 0, 0};
    if (even) {
        for (int k = 0; k < 3; k++) {
            mt_pause_us(30);
            double x[2] = {k + 0.5, k * 10.0};
            MPI_Send(x, 2, MPI_DOUBLE, partner, 9, MPI_COMM_WORLD);
        }
    } else {
        double x[3][2];
        MPI_Request r[3];
        for (int k = 0; k < 3; k++) MPI_Irecv(x[k], 2, MPI_DOUBLE, partner, 9, MPI_COMM_WORLD, &r[k]);
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        for (int k = 0; k < 3; k++) v[k] = x[k][0] + x[k][1];
        for (int k = 0; k < 3; k++)
            CHECK(v[k] == k + 0.5 + k * 10.0, "order: receive %d got %g, expected %g", k, v[k], k + 0.5 + k * 10.0);
    }
}

static void earliest(int partner, int even)
{
    int a[4] = {-1, -1, -1, -1}, b[4] = {-1, -1, -1, -1};
    if (even) {
        int first[4] = {1, 2, 3, 4}, second[4] = {5, 6, 7, 8};
        mt_pause_us(40);
        MPI_Send(first, 4, MPI_INT, partner, 11, MPI_COMM_WORLD);
        mt_pause_us(40);
        MPI_Send(second, 4, MPI_INT, partner, 11, MPI_COMM_WORLD);
        /* a receive for tag 12 is posted first: the tag-11 message skips it */
        mt_pause_us(40);
        MPI_Send(second, 4, MPI_INT, partner, 11, MPI_COMM_WORLD);
        mt_pause_us(40);
        MPI_Send(first, 4, MPI_INT, partner, 12, MPI_COMM_WORLD);
    } else {
        MPI_Request r[2];
        MPI_Status st[2];
        MPI_Irecv(a, 4, MPI_INT, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(b, 4, MPI_INT, partner, 11, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st);
        CHECK(a[0] == 1 && a[3] == 4 && b[0] == 5 && b[3] == 8,
              "earliest: the ANY_SOURCE receive posted first got %d..%d, the other %d..%d", a[0], a[3], b[0], b[3]);
        CHECK(st[0].MPI_SOURCE == partner && st[1].MPI_SOURCE == partner, "earliest: sources %d and %d",
              st[0].MPI_SOURCE, st[1].MPI_SOURCE);
        MPI_Irecv(a, 4, MPI_INT, partner, 12, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(b, 4, MPI_INT, partner, 11, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st);
        CHECK(a[0] == 1 && a[3] == 4 && b[0] == 5 && b[3] == 8,
              "earliest: tag 12 receive got %d..%d, tag 11 receive %d..%d", a[0], a[3], b[0], b[3]);
        CHECK(st[0].MPI_TAG == 12 && st[1].MPI_TAG == 11, "earliest: tags %d and %d", st[0].MPI_TAG, st[1].MPI_TAG);
    }
}

static void truncation(MPI_Comm returns, int partner, int even)
{
    unsigned char *b;
    MPI_Alloc_mem(256, MPI_INFO_NULL, &b);
    if (even) {
        for (int i = 0; i < 256; i++) b[i] = (unsigned char)i;
        mt_pause_us(40);
        MPI_Send(b, 256, MPI_BYTE, partner, 13, returns);
        mt_pause_us(40);
        MPI_Send(b, 20, MPI_BYTE, partner, 14, returns);
    } else {
        MPI_Request r;
        MPI_Status st;
        memset(b, 0xEE, 256);
        MPI_Irecv(b, 100, MPI_BYTE, partner, 13, returns, &r);
        int rc = MPI_Wait(&r, &st), cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "256 bytes into 100: error class %d, expected MPI_ERR_TRUNCATE (%d)", cls,
              MPI_ERR_TRUNCATE);
        int past = 1;
        for (int i = 100; i < 256; i++) past &= b[i] == 0xEE;
        CHECK(past, "256 bytes into 100: bytes written past the buffer");
        memset(b, 0xEE, 256);
        MPI_Irecv(b, 100, MPI_BYTE, partner, 14, returns, &r);
        rc = MPI_Wait(&r, &st);
        int ok = rc == MPI_SUCCESS;
        for (int i = 0; i < 20; i++) ok &= b[i] == (unsigned char)i;
        CHECK(ok, "the message after a truncation: rc %d, contents", rc);
    }
    MPI_Free_mem(b);
}

static void halo(void)
{
    static double out[2][HALO], in[2][HALO];
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    for (int round = 0; round < HALO_ROUNDS; round++) {
        MPI_Request r[4];
        MPI_Irecv(in[0], HALO, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(in[1], HALO, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[1]);
        for (int i = 0; i < HALO; i++) {
            out[0][i] = rank * 1000.0 + round + i * 0.25;
            out[1][i] = -(rank * 1000.0 + round + i * 0.25);
        }
        if ((rank + round) % 3 == 0) mt_pause_us(20);
        MPI_Isend(out[0], HALO, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(out[1], HALO, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[3]);
        MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
        int ok = 1;
        for (int i = 0; i < HALO; i++) {
            ok &= in[0][i] == -(left * 1000.0 + round + i * 0.25);
            ok &= in[1][i] == right * 1000.0 + round + i * 0.25;
        }
        CHECK(ok, "halo round %d: from %d got %g, from %d got %g", round, left, in[0][0], right, in[1][0]);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int partner = rank ^ 1, even = rank % 2 == 0;
    MPI_Comm returns;
    MPI_Comm_dup(MPI_COMM_WORLD, &returns);
    MPI_Comm_set_errhandler(returns, MPI_ERRORS_RETURN);
    /* a wait's error goes to the request's communicator's handler; some
     * MPIs take MPI_COMM_WORLD's: both return */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (partner < size) {
        pairs(partner, even);
        order(partner, even);
        earliest(partner, even);
        truncation(returns, partner, even);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&returns);
    halo();
    return mt_finish();
}
