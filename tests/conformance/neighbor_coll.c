/* Neighbourhood collectives: MPI_Neighbor_allgather(v), _alltoall(v) and
 * _alltoallw on a Cartesian grid (neighbours -dim0, +dim0, -dim1, ...,
 * MPI_PROC_NULL at the edges of non-periodic dimensions, whose blocks stay
 * untouched), on a distributed graph whose edges are not symmetric (rank i
 * sends to i+1 and i+3), on a graph communicator, and with a derived
 * datatype. Periodic dimensions are only used with at least 3 ranks along
 * them (with fewer, both neighbours are the same rank, where MPI-3.1 and
 * MPI-4 pair the messages differently). Values identify sender and block.
 * Self-checking: rank 0 prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpitest.h"

#define UNTOUCHED (-77)

/* What rank r puts in send block b, element e. */
static int val(int r, int b, int e) { return r * 1000 + b * 10 + e; }

static void check_recv(const char *what, const int *buf, int nblocks, const int *in, int per, int *expect_block,
                       int allgather)
{
    for (int b = 0; b < nblocks; b++)
        for (int e = 0; e < per; e++) {
            int got = buf[b * per + e];
            int want = in[b] == MPI_PROC_NULL ? UNTOUCHED : val(in[b], allgather ? 0 : expect_block[b], e);
            CHECK(got == want, "%s: block %d (from %d) element %d: %d, want %d", what, b, in[b], e, got, want);
        }
}

static void cart(void)
{
    int dims[2] = {0, 0}, periods[2];
    MPI_Dims_create(size, 2, dims);
    periods[0] = dims[0] >= 3;
    periods[1] = 0;
    MPI_Comm c;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
    int me;
    MPI_Comm_rank(c, &me);
    int nb[4];
    MPI_Cart_shift(c, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(c, 1, 1, &nb[2], &nb[3]);
    /* block b goes to neighbour b; the block that arrives from in-neighbour b
     * was that neighbour's block for the opposite direction */
    int opposite[4] = {1, 0, 3, 2};
    const int per = 3;
    int sbuf[4 * 3], rbuf[4 * 3];
    for (int b = 0; b < 4; b++)
        for (int e = 0; e < per; e++) sbuf[b * per + e] = val(me, b, e);
    for (int i = 0; i < 12; i++) rbuf[i] = UNTOUCHED;
    MPI_Neighbor_alltoall(sbuf, per, MPI_INT, rbuf, per, MPI_INT, c);
    check_recv("cart alltoall", rbuf, 4, nb, per, opposite, 0);

    for (int i = 0; i < 12; i++) rbuf[i] = UNTOUCHED;
    MPI_Neighbor_allgather(sbuf, per, MPI_INT, rbuf, per, MPI_INT, c);
    check_recv("cart allgather", rbuf, 4, nb, per, opposite, 1);

    /* v: block b has b + 1 elements, received at reversed places */
    int scounts[4] = {1, 2, 3, 4}, sdispls[4] = {0, 1, 3, 6}, rcounts[4], rdispls[4], vs[10], vr[16];
    for (int b = 0; b < 4; b++)
        for (int e = 0; e <= b; e++) vs[sdispls[b] + e] = val(me, b, e);
    for (int b = 0; b < 4; b++) {
        rcounts[b] = opposite[b] + 1;
        rdispls[b] = 12 - 4 * b;
    }
    for (int i = 0; i < 16; i++) vr[i] = UNTOUCHED;
    MPI_Neighbor_alltoallv(vs, scounts, sdispls, MPI_INT, vr, rcounts, rdispls, MPI_INT, c);
    for (int b = 0; b < 4; b++)
        for (int e = 0; e < rcounts[b]; e++) {
            int want = nb[b] == MPI_PROC_NULL ? UNTOUCHED : val(nb[b], opposite[b], e);
            CHECK(vr[rdispls[b] + e] == want, "cart alltoallv block %d element %d: %d, want %d", b, e,
                  vr[rdispls[b] + e], want);
        }
    MPI_Comm_free(&c);
}

/* rank i sends to i+1 and i+3; receives from i-1 and i-3 */
static void dist_graph(void)
{
    int src[2] = {(rank + size - 1) % size, (rank + size - 3 % size) % size};
    int dst[2] = {(rank + 1) % size, (rank + 3) % size};
    MPI_Comm g;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                   &g);
    /* alltoall: block 0 to i+1, block 1 to i+3; from i-1 comes its block 0,
     * from i-3 its block 1. With few ranks the two edges may join the same
     * pair of ranks. */
    int sbuf[2 * 2], rbuf[2 * 2], from_block[2] = {0, 1};
    for (int b = 0; b < 2; b++)
        for (int e = 0; e < 2; e++) sbuf[b * 2 + e] = val(rank, b, e);
    for (int i = 0; i < 4; i++) rbuf[i] = UNTOUCHED;
    int same = src[0] == src[1];
    MPI_Neighbor_alltoall(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, g);
    if (!same) check_recv("dist alltoall", rbuf, 2, src, 2, from_block, 0);
    else /* both edges join the same two ranks: which message lands where is the library's choice */
        CHECK((rbuf[0] == val(src[0], 0, 0) && rbuf[2] == val(src[0], 1, 0)) ||
                  (rbuf[0] == val(src[0], 1, 0) && rbuf[2] == val(src[0], 0, 0)),
              "dist alltoall, one peer: %d %d", rbuf[0], rbuf[2]);

    /* allgatherv into blocks of different sizes and places */
    int ag[5], counts[2] = {2, 2}, displs[2] = {3, 0};
    for (int i = 0; i < 5; i++) ag[i] = UNTOUCHED;
    MPI_Neighbor_allgatherv(sbuf, 2, MPI_INT, ag, counts, displs, MPI_INT, g);
    CHECK(ag[3] == val(src[0], 0, 0) && ag[4] == val(src[0], 0, 1) && ag[0] == val(src[1], 0, 0) &&
              ag[1] == val(src[1], 0, 1) && ag[2] == UNTOUCHED,
          "dist allgatherv: %d %d %d %d %d", ag[0], ag[1], ag[2], ag[3], ag[4]);

    /* alltoallw: block 0 as 2 ints, block 1 as one double (byte displacements) */
    struct {
        int i[2];
        double d;
    } ws, wr[2];
    ws.i[0] = val(rank, 0, 0);
    ws.i[1] = val(rank, 0, 1);
    ws.d = rank + 0.5;
    int sc[2] = {2, 1}, rc[2] = {2, 1};
    MPI_Aint sd[2], rd[2];
    MPI_Aint base;
    MPI_Get_address(&ws, &base);
    MPI_Get_address(&ws.d, &sd[1]);
    sd[0] = 0;
    sd[1] -= base;
    rd[0] = 0;
    rd[1] = (char *)&wr[1].d - (char *)&wr[0];
    MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE}, rt[2] = {MPI_INT, MPI_DOUBLE};
    wr[0].i[0] = wr[0].i[1] = UNTOUCHED;
    wr[1].d = -1;
    MPI_Neighbor_alltoallw(&ws, sc, sd, st, wr, rc, rd, rt, g);
    CHECK(wr[0].i[0] == val(src[0], 0, 0) && wr[0].i[1] == val(src[0], 0, 1), "dist alltoallw ints: %d %d",
          wr[0].i[0], wr[0].i[1]);
    CHECK(wr[1].d == src[1] + 0.5, "dist alltoallw double: %g, want %g", wr[1].d, src[1] + 0.5);
    /* both edges to one peer: its two messages carry one tag, so the first
     * receive must take the first (non-overtaking), however they arrive */
    if (src[0] == src[1] && dst[0] == dst[1]) {
        int order_ok = 1, sc1[2] = {1, 1};
        MPI_Aint d1[2] = {0, sizeof(int)};
        MPI_Datatype t1[2] = {MPI_INT, MPI_INT};
        for (int it = 0; it < 20000; it++) {
            int so[2] = {val(rank, 0, it % 10), val(rank, 1, it % 10)}, ro[2] = {UNTOUCHED, UNTOUCHED};
            MPI_Neighbor_alltoallw(so, sc1, d1, t1, ro, sc1, d1, t1, g);
            order_ok &= ro[0] == val(src[0], 0, it % 10) && ro[1] == val(src[0], 1, it % 10);
        }
        CHECK(order_ok, "dist alltoallw, one peer: blocks out of order");
    }
    /* large blocks (sent by rendezvous, not eagerly): no rank may wait for
     * a receive before its own sends are out */
    enum { BIG = 512 };
    int *bs = malloc(sizeof(int) * 2 * BIG), *br = malloc(sizeof(int) * 2 * BIG);
    for (int b = 0; b < 2; b++)
        for (int e = 0; e < BIG; e++) bs[b * BIG + e] = val(rank, b, e % 7);
    for (int i = 0; i < 2 * BIG; i++) br[i] = UNTOUCHED;
    MPI_Neighbor_alltoall(bs, BIG, MPI_INT, br, BIG, MPI_INT, g);
    if (!same) {
        int bad = 0;
        for (int b = 0; b < 2; b++)
            for (int e = 0; e < BIG; e++) bad += br[b * BIG + e] != val(src[b], b, e % 7);
        CHECK(bad == 0, "dist alltoall of large blocks: %d elements wrong", bad);
    }
    free(bs);
    free(br);
    MPI_Comm_free(&g);
}

/* a graph communicator (a ring, both ways) and a derived datatype: a
 * vector picking every other int */
static void graph_ring(void)
{
    int n = size, index[64], edges[128], e = 0;
    if (n > 64) n = 64;
    for (int i = 0; i < n; i++) {
        if (n > 1) edges[e++] = (i + n - 1) % n;
        if (n > 2) edges[e++] = (i + 1) % n;
        index[i] = e;
    }
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
    if (g == MPI_COMM_NULL) return;
    int me, k;
    MPI_Comm_rank(g, &me);
    MPI_Graph_neighbors_count(g, me, &k);
    int nb[2];
    MPI_Graph_neighbors(g, me, 2, nb);
    MPI_Datatype every_other;
    MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int s[6], r[2 * 6];
    for (int i = 0; i < 6; i++) s[i] = i % 2 ? -1 : val(me, 0, i / 2);
    for (int i = 0; i < 12; i++) r[i] = UNTOUCHED;
    MPI_Neighbor_allgather(s, 1, every_other, r, 3, MPI_INT, g);
    for (int j = 0; j < k; j++)
        for (int x = 0; x < 3; x++)
            CHECK(r[3 * j + x] == val(nb[j], 0, x), "graph allgather neighbour %d element %d: %d", j, x, r[3 * j + x]);
    MPI_Type_free(&every_other);
    MPI_Comm_free(&g);
}

static void errors_(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int a = 0, b = 0, cls = -1;
    int rc = MPI_Neighbor_allgather(&a, 1, MPI_INT, &b, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TOPOLOGY, "neighbour collective without topology: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    cart();
    dist_graph();
    graph_ring();
    errors_();
    return mt_finish();
}
