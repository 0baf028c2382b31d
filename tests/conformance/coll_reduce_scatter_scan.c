/* Reduce_scatter_block, Reduce_scatter (uneven counts, zeros), Scan, Exscan
 * (rank 0's result is undefined: not looked at), all in place too, and
 * Reduce_local. Prints " No Errors" when every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

/* rank r's input, element i */
static int in_value(int r, int i) { return r * 7 + i % 11; }
/* the sum over ranks 0 .. upto-1 */
static long long sum_upto(int upto, int i) { return 7LL * upto * (upto - 1) / 2 + (long long)upto * (i % 11); }

static void reduce_scatter(void)
{
    int blocks[] = {1, 4, 120};
    for (int bi = 0; bi < 3; bi++) {
        int b = blocks[bi];
        if (b > 4 && size > 64) continue;
        int *in = malloc(sizeof(int) * b * size), *out = malloc(sizeof(int) * (b + 1));
        for (int i = 0; i < b * size; i++) in[i] = in_value(rank, i);
        for (int i = 0; i <= b; i++) out[i] = -1;
        MPI_Reduce_scatter_block(in, out, b, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int ok = out[b] == -1;
        for (int i = 0; i < b; i++) ok &= out[i] == sum_upto(size, rank * b + i);
        CHECK(ok, "reduce_scatter_block block %d", b);
        /* in place: the input in the receive buffer, the result at its start */
        for (int i = 0; i < b * size; i++) in[i] = in_value(rank, i);
        MPI_Reduce_scatter_block(MPI_IN_PLACE, in, b, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < b; i++) ok &= in[i] == in_value(size - 1, rank * b + i);
        CHECK(ok, "reduce_scatter_block in place block %d", b);
        free(in);
        free(out);
    }
    int *counts = malloc(sizeof(int) * size);
    for (int big = 0; big < 2; big++) {
        if (big && size > 64) continue;
        int total = 0, before = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 3 == 2 ? 0 : (big ? 100 : 1) + r % 4;
            if (r < rank) before += counts[r];
            total += counts[r];
        }
        double *in = malloc(sizeof(double) * (total + 1)), *out = malloc(sizeof(double) * (counts[rank] + 1));
        for (int i = 0; i < total; i++) in[i] = in_value(rank, i) + 0.5;
        for (int i = 0; i <= counts[rank]; i++) out[i] = -1;
        MPI_Reduce_scatter(in, out, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        int ok = out[counts[rank]] == -1;
        for (int i = 0; i < counts[rank]; i++) ok &= out[i] == (double)sum_upto(size, before + i) + 0.5 * size;
        CHECK(ok, "reduce_scatter big %d", big);
        for (int i = 0; i < total; i++) in[i] = in_value(rank, i);
        MPI_Reduce_scatter(MPI_IN_PLACE, in, counts, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < counts[rank]; i++) ok &= in[i] == in_value(0, before + i);
        CHECK(ok, "reduce_scatter in place big %d", big);
        free(in);
        free(out);
    }
    free(counts);
    int one = rank + 3, got = 0, c1 = 1;
    MPI_Reduce_scatter_block(&one, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    CHECK(got == rank + 3, "reduce_scatter_block on MPI_COMM_SELF");
    got = 0;
    MPI_Reduce_scatter(&one, &got, &c1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    CHECK(got == rank + 3, "reduce_scatter on MPI_COMM_SELF");
}

static void scans(void)
{
    int lens[] = {1, 6, 400};
    for (int li = 0; li < 3; li++) {
        int n = lens[li];
        int *in = malloc(sizeof(int) * n), *out = malloc(sizeof(int) * n);
        for (int i = 0; i < n; i++) {
            in[i] = in_value(rank, i);
            out[i] = -1;
        }
        MPI_Scan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int ok = 1;
        for (int i = 0; i < n; i++) ok &= out[i] == sum_upto(rank + 1, i);
        CHECK(ok, "scan sum length %d", n);
        MPI_Scan(MPI_IN_PLACE, in, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < n; i++) ok &= in[i] == in_value(rank, i);
        CHECK(ok, "scan max in place length %d", n);
        for (int i = 0; i < n; i++) {
            in[i] = in_value(rank, i);
            out[i] = -1;
        }
        MPI_Exscan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        ok = 1;
        if (rank > 0)
            for (int i = 0; i < n; i++) ok &= out[i] == sum_upto(rank, i);
        CHECK(ok, "exscan sum length %d", n);
        MPI_Exscan(MPI_IN_PLACE, in, n, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        ok = 1;
        if (rank > 0)
            for (int i = 0; i < n; i++) ok &= in[i] == in_value(0, i);
        CHECK(ok, "exscan min in place length %d", n);
        free(in);
        free(out);
    }
    /* a product that shows the prefix: 2 at every third rank */
    double x = rank % 3 == 0 ? 2.0 : 1.0, p = 0, want = 1;
    for (int r = 0; r <= rank; r++) want *= r % 3 == 0 ? 2.0 : 1.0;
    MPI_Scan(&x, &p, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
    CHECK(p == want, "scan prod %g want %g", p, want);
    int v = rank + 1, s = -1;
    MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    CHECK(s == rank + 1, "scan on MPI_COMM_SELF");
    MPI_Exscan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF); /* defines nothing: must just return */
}

static void reduce_local(void)
{
    int a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50};
    MPI_Reduce_local(a, b, 5, MPI_INT, MPI_SUM);
    int ok = 1;
    for (int i = 0; i < 5; i++) ok &= b[i] == 11 * (i + 1) && a[i] == i + 1;
    CHECK(ok, "reduce_local sum");
    double x[3] = {1.5, -2, 7}, y[3] = {1, 1, 8};
    MPI_Reduce_local(x, y, 3, MPI_DOUBLE, MPI_MAX);
    CHECK(y[0] == 1.5 && y[1] == 1 && y[2] == 8, "reduce_local max");
    unsigned m = 0xf0, n = 0x3c;
    MPI_Reduce_local(&m, &n, 1, MPI_UNSIGNED, MPI_BAND);
    CHECK(n == 0x30, "reduce_local band");
    MPI_Reduce_local(a, b, 0, MPI_INT, MPI_PROD);
    CHECK(b[0] == 11, "reduce_local of nothing");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    reduce_scatter();
    scans();
    reduce_local();
    return mt_finish();
}
