/* Alltoall, Alltoallv, Alltoallw: small and large blocks, in place, uneven
 * counts with zeros and gaps, per-peer datatypes, MPI_COMM_SELF. Prints
 * " No Errors" when every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

/* what rank `from` sends rank `to`, element i */
static int value(int from, int to, int i) { return (from * 131 + to) * 100 + i; }

static void alltoall(void)
{
    int blocks[] = {1, 3, 250};
    for (int bi = 0; bi < 3; bi++) {
        int b = blocks[bi];
        if (b > 3 && size > 64) continue;
        int *out = malloc(sizeof(int) * b * size), *in = malloc(sizeof(int) * b * size);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < b; i++) {
                out[p * b + i] = value(rank, p, i);
                in[p * b + i] = -1;
            }
        MPI_Alltoall(out, b, MPI_INT, in, b, MPI_INT, MPI_COMM_WORLD);
        int ok = 1;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < b; i++) ok &= in[p * b + i] == value(p, rank, i);
        CHECK(ok, "alltoall block %d", b);
        MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, b, MPI_INT, MPI_COMM_WORLD);
        ok = 1;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < b; i++) ok &= out[p * b + i] == value(p, rank, i);
        CHECK(ok, "alltoall in place block %d", b);
        free(out);
        free(in);
    }
    double d = rank, e = -1;
    MPI_Alltoall(&d, 1, MPI_DOUBLE, &e, 1, MPI_DOUBLE, MPI_COMM_SELF);
    CHECK(e == rank, "alltoall on MPI_COMM_SELF");
}

/* elements rank `from` sends rank `to`: uneven, a quarter of them empty */
static int vcount(int from, int to, int big) { return (from + 2 * to) % 4 == 1 ? 0 : (big ? 150 : 1) + (from + to) % 3; }

static void alltoallv(void)
{
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    for (int big = 0; big < 2; big++) {
        if (big && size > 64) continue;
        int stot = 0, rtot = 0;
        for (int p = size - 1; p >= 0; p--) { /* send blocks in reverse order, gaps of 1 */
            sc[p] = vcount(rank, p, big);
            sd[p] = stot + 1;
            stot += sc[p] + 1;
        }
        for (int p = 0; p < size; p++) { /* receive blocks in order, gaps of 2 */
            rc[p] = vcount(p, rank, big);
            rd[p] = rtot + 2;
            rtot += rc[p] + 2;
        }
        int *out = malloc(sizeof(int) * stot), *in = malloc(sizeof(int) * rtot);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < sc[p]; i++) out[sd[p] + i] = value(rank, p, i);
        for (int i = 0; i < rtot; i++) in[i] = -5;
        MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, MPI_COMM_WORLD);
        int ok = 1, marked = 0, used = 0;
        for (int p = 0; p < size; p++) {
            used += rc[p];
            for (int i = 0; i < rc[p]; i++) ok &= in[rd[p] + i] == value(p, rank, i);
        }
        for (int i = 0; i < rtot; i++) marked += in[i] == -5;
        CHECK(ok && marked == rtot - used, "alltoallv big %d", big);
        /* in place: the same layout both ways, so counts must be symmetric */
        int *c = malloc(sizeof(int) * size), *dsp = malloc(sizeof(int) * size), tot = 0;
        for (int p = 0; p < size; p++) {
            c[p] = (rank + p) % 3 + (big ? 100 : 0);
            dsp[p] = tot + 1;
            tot += c[p] + 1;
        }
        int *buf = malloc(sizeof(int) * tot);
        for (int i = 0; i < tot; i++) buf[i] = -5;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < c[p]; i++) buf[dsp[p] + i] = value(rank, p, i);
        MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, c, dsp, MPI_INT, MPI_COMM_WORLD);
        ok = 1;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < c[p]; i++) ok &= buf[dsp[p] + i] == value(p, rank, i);
        for (int p = 0; p < size; p++) ok &= buf[dsp[p] - 1] == -5;
        CHECK(ok, "alltoallv in place big %d", big);
        free(c);
        free(dsp);
        free(buf);
        free(out);
        free(in);
    }
    free(sc);
    free(sd);
    free(rc);
    free(rd);
}

/* Alltoallw: between ranks of the same parity ints, else doubles; byte
 * displacements */
static MPI_Datatype wtype(int a, int b) { return (a + b) % 2 ? MPI_DOUBLE : MPI_INT; }
static int wsize(int a, int b) { return (a + b) % 2 ? 8 : 4; }

static void alltoallw(void)
{
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * size), *rt = malloc(sizeof(MPI_Datatype) * size);
    for (int big = 0; big < 2; big++) {
        if (big && size > 64) continue;
        int sbytes = 0, rbytes = 0;
        for (int p = 0; p < size; p++) {
            sc[p] = vcount(rank, p, big);
            st[p] = wtype(rank, p);
            sd[p] = sbytes;
            sbytes = (sbytes + sc[p] * wsize(rank, p) + 8 + 7) & ~7; /* doubles aligned */
            rc[p] = vcount(p, rank, big);
            rt[p] = wtype(p, rank);
            rd[p] = rbytes;
            rbytes = (rbytes + rc[p] * wsize(p, rank) + 8 + 7) & ~7;
        }
        char *out = malloc(sbytes + 8), *in = malloc(rbytes + 8);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < sc[p]; i++) {
                if (st[p] == MPI_INT)
                    ((int *)(out + sd[p]))[i] = value(rank, p, i);
                else
                    ((double *)(out + sd[p]))[i] = value(rank, p, i) + 0.5;
            }
        memset(in, 0, rbytes);
        MPI_Alltoallw(out, sc, sd, st, in, rc, rd, rt, MPI_COMM_WORLD);
        int ok = 1;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < rc[p]; i++) {
                if (rt[p] == MPI_INT)
                    ok &= ((int *)(in + rd[p]))[i] == value(p, rank, i);
                else
                    ok &= ((double *)(in + rd[p]))[i] == value(p, rank, i) + 0.5;
            }
        CHECK(ok, "alltoallw big %d", big);
        /* in place: symmetric counts, the receive description both ways */
        int tot = 0;
        for (int p = 0; p < size; p++) {
            rc[p] = (rank + p) % 3 + (big ? 100 : 0);
            rd[p] = tot;
            tot = (tot + rc[p] * wsize(p, rank) + 7) & ~7;
        }
        char *buf = malloc(tot + 8);
        for (int p = 0; p < size; p++)
            for (int i = 0; i < rc[p]; i++) {
                if (rt[p] == MPI_INT)
                    ((int *)(buf + rd[p]))[i] = value(rank, p, i);
                else
                    ((double *)(buf + rd[p]))[i] = value(rank, p, i) + 0.25;
            }
        MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, rc, rd, rt, MPI_COMM_WORLD);
        ok = 1;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < rc[p]; i++) {
                if (rt[p] == MPI_INT)
                    ok &= ((int *)(buf + rd[p]))[i] == value(p, rank, i);
                else
                    ok &= ((double *)(buf + rd[p]))[i] == value(p, rank, i) + 0.25;
            }
        CHECK(ok, "alltoallw in place big %d", big);
        free(buf);
        free(out);
        free(in);
    }
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    alltoall();
    alltoallv();
    alltoallw();
    return mt_finish();
}
