/* Small allreduces and barriers back to back over MPI_COMM_WORLD (the
 * shared-memory tree's territory): every predefined arithmetic and logical
 * op on int and double, counts 1 to 8, in place and not, repeated so that a
 * rank racing into the next call would corrupt a result. Double sums must
 * be bitwise the same on every rank and every repetition. One element of
 * float, long and double (gpumpi's quickest path), in place and not, with
 * the ranks coming in together and apart. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static void ints(int rep)
{
    for (int count = 1; count <= 8; count++) {
        /* values (rank % 100 + 1) * (i + 1) + rep keep sums inside an int at 270,000 ranks */
        int in[8], out[8], want_sum[8], want_max[8], want_min[8];
        long long cycles = size / 100, rest = size % 100;
        long long base = cycles * 5050 + rest * (rest + 1) / 2; /* sum of rank % 100 + 1 */
        for (int i = 0; i < count; i++) {
            in[i] = (rank % 100 + 1) * (i + 1) + rep;
            want_sum[i] = (int)(base * (i + 1) + (long long)rep * size);
            want_max[i] = (size < 100 ? size : 100) * (i + 1) + rep;
            want_min[i] = (i + 1) + rep;
        }
        MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(!memcmp(out, want_sum, sizeof(int) * count), "int sum, count %d, rep %d: got %d want %d", count, rep,
              out[0], want_sum[0]);
        MPI_Allreduce(in, out, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        CHECK(!memcmp(out, want_max, sizeof(int) * count), "int max, count %d", count);
        memcpy(out, in, sizeof in);
        MPI_Allreduce(MPI_IN_PLACE, out, count, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        CHECK(!memcmp(out, want_min, sizeof(int) * count), "int min in place, count %d", count);
        int flag = rank % 2, any, all;
        MPI_Allreduce(&flag, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        MPI_Allreduce(&flag, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        CHECK(any == (size > 1) && all == 0, "lor/land: %d %d", any, all);
        unsigned bits = 1u << (rank % 32), orr;
        MPI_Allreduce(&bits, &orr, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
        CHECK(orr == (size >= 32 ? 0xffffffffu : (1u << size) - 1), "bor: %x", orr);
    }
}

static void doubles(int rep, double first[8])
{
    double in[8], out[8];
    for (int i = 0; i < 8; i++) in[i] = (rank % 3 ? 1e-3 : 1e12) / (rank + 1 + i) + rep * 0.0;
    MPI_Allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rep == 0) memcpy(first, out, sizeof out);
    CHECK(!memcmp(first, out, sizeof out), "double sum differs from the first repetition (rep %d)", rep);
    double everyone[8]; /* every rank has the same bits */
    MPI_Allreduce(out, everyone, 8, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    CHECK(!memcmp(everyone, out, sizeof out), "double sum differs between ranks");
    double p = rank == 0 ? 2.0 : 1.0, prod;
    MPI_Allreduce(&p, &prod, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
    CHECK(prod == 2.0, "double prod %g", prod);
}

static void one_element(int rep)
{
    float f = (float)(rank % 7) + rep, fsum;
    long long sevens = (long long)(size / 7) * 21, r7 = size % 7;
    MPI_Allreduce(&f, &fsum, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); /* exact below 2^24 */
    double fwant = (double)(sevens + r7 * (r7 - 1) / 2) + (double)rep * size;
    CHECK(fwant >= 16777216.0 || fsum == (float)fwant, "float sum %g, want %g", fsum, fwant);
    long l = (long)rank * 3 - rep, lmax;
    MPI_Allreduce(&l, &lmax, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    CHECK(lmax == (long)(size - 1) * 3 - rep, "long max %ld", lmax);
    double d = rank + rep, dsum, dmin;
    MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK(dsum == (double)size * (size - 1) / 2 + (double)rep * size, "double sum %.17g", dsum);
    dmin = d;
    MPI_Allreduce(MPI_IN_PLACE, &dmin, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    CHECK(dmin == rep, "double min in place %g", dmin);
    float fp = rank == size - 1 ? 0.5f : 1.0f, fprod;
    MPI_Allreduce(&fp, &fprod, 1, MPI_FLOAT, MPI_PROD, MPI_COMM_WORLD);
    CHECK(fprod == 0.5f, "float prod %g", fprod);
}

/* Ranks of one warp coming into the call apart: each rank calls in its
 * turn of a loop (on a GPU the lanes whose turn it is call while the
 * others wait elsewhere), one turn in place. The one-element sum must have
 * the same bits as when they come in together (the pairing never depends
 * on who arrives when), and every op must still be right. */
static void apart(int rep)
{
    double d = (rank % 3 ? 1e-3 : 1e12) / (rank + 1 + rep), together, got = d;
    MPI_Allreduce(&d, &together, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int imax = rank * 2 + rep, igot = imax, turn = (rank + rep) % 3;
    for (int i = 0; i < 3; i++) {
        if (i == turn) {
            MPI_Allreduce(turn == 1 ? MPI_IN_PLACE : (void *)&d, &got, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            MPI_Allreduce(turn == 1 ? MPI_IN_PLACE : (void *)&imax, &igot, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        } else {
            double until = MPI_Wtime() + 1e-6 * (rank % 5);
            while (MPI_Wtime() < until) {
            }
        }
    }
    CHECK(!memcmp(&got, &together, sizeof got), "double sum with ranks apart %.17g, together %.17g (rep %d)", got,
          together, rep);
    CHECK(igot == (size - 1) * 2 + rep, "int max with ranks apart %d (rep %d)", igot, rep);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    double first[8];
    for (int rep = 0; rep < 8; rep++) {
        ints(rep);
        MPI_Barrier(MPI_COMM_WORLD);
        doubles(rep, first);
        one_element(rep);
        apart(rep);
    }
    return mt_finish();
}
