/* Cartesian topologies: MPI_Dims_create (the standard's examples and
 * balanced grids), 1-, 2- and 3-D grids periodic and not, coordinates and
 * ranks both ways, shifts (MPI_PROC_NULL at open edges) proved by sending
 * along them, MPI_Cart_sub, MPI_Cart_get, MPI_Topo_test. Self-checking:
 * rank 0 prints " No Errors" when every check passed on every rank. Any
 * number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

/* nnodes, ndims, dims given, dims wanted */
static const int dims_cases[][10] = {
    /* the standard's examples */
    {6, 2, 0, 0, 0, 0, 3, 2},
    {7, 2, 0, 0, 0, 0, 7, 1},
    {6, 3, 0, 3, 0, 0, 2, 3, 1},
    /* balanced grids, non-increasing */
    {12, 2, 0, 0, 0, 0, 4, 3},
    {16, 3, 0, 0, 0, 0, 4, 2, 2},
    {24, 3, 0, 0, 0, 0, 4, 3, 2},
    {64, 3, 0, 0, 0, 0, 4, 4, 4},
    {360, 3, 0, 0, 0, 0, 10, 6, 6},
    /* the smallest spread (largest less smallest), then the largest first
     * dim, then the smallest sum, as MPICH 4.0 */
    {76908, 3, 0, 0, 0, 0, 52, 51, 29},
    {590520, 4, 0, 0, 0, 0, 38, 37, 21, 20},
    {70416, 4, 0, 0, 0, 0, 163, 9, 8, 6},
    {6552, 3, 0, 0, 0, 0, 24, 21, 13},
    {1008, 3, 0, 0, 0, 0, 12, 12, 7},
    {7425, 3, 0, 0, 0, 0, 27, 25, 11},
    {3696, 3, 0, 0, 0, 0, 22, 14, 12},
    {1800, 4, 0, 0, 0, 0, 9, 8, 5, 5},
    {2160, 4, 0, 0, 0, 0, 10, 6, 6, 6},
    {4096, 2, 0, 0, 0, 0, 64, 64},
    {65536, 3, 0, 0, 0, 0, 64, 32, 32},
    {100000, 4, 0, 0, 0, 0, 25, 20, 20, 10},
    {30030, 4, 0, 0, 0, 0, 15, 14, 13, 11},
    {1, 3, 0, 0, 0, 0, 1, 1, 1},
    {12, 3, 0, 0, 2, 0, 3, 2, 2},
    {8, 2, 2, 4, 0, 0, 2, 4},
};

static void dims_create(void)
{
    for (unsigned c = 0; c < sizeof dims_cases / sizeof dims_cases[0]; c++) {
        const int *t = dims_cases[c];
        int nnodes = t[0], ndims = t[1], d[4];
        for (int i = 0; i < 4; i++) d[i] = t[2 + i];
        int rc = MPI_Dims_create(nnodes, ndims, d);
        int same = rc == MPI_SUCCESS;
        for (int i = 0; i < ndims; i++) same &= d[i] == t[6 + i];
        CHECK(same, "Dims_create(%d, %d): got %d %d %d %d", nnodes, ndims, d[0], d[1], d[2], d[3]);
    }
    /* the standard's erroneous example: 3 does not divide 7 */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad[3] = {0, 3, 0}, cls = -1;
    int rc = MPI_Dims_create(7, 3, bad);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_DIMS, "Dims_create(7, 3, {0, 3, 0}): class %d, want MPI_ERR_DIMS", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Checks a grid communicator: coords <-> rank, shifts in every direction
 * by +1 and +2, and messages sent along the +1 shift. */
static void check_grid(MPI_Comm cart, int nd, const int *dims, const int *periods, const char *what)
{
    int status = -1, r, n, cnd = -1;
    MPI_Topo_test(cart, &status);
    CHECK(status == MPI_CART, "%s: Topo_test %d", what, status);
    MPI_Cartdim_get(cart, &cnd);
    CHECK(cnd == nd, "%s: Cartdim_get %d, want %d", what, cnd, nd);
    MPI_Comm_rank(cart, &r);
    MPI_Comm_size(cart, &n);
    int gd[3], gp[3], gc[3], c[3];
    MPI_Cart_get(cart, nd, gd, gp, gc);
    int prod = 1, same = 1;
    for (int i = 0; i < nd; i++) {
        same &= gd[i] == dims[i] && !!gp[i] == !!periods[i];
        prod *= dims[i];
    }
    CHECK(same, "%s: Cart_get dims or periods differ", what);
    CHECK(n == prod, "%s: size %d, want %d", what, n, prod);
    /* row-major coordinates of this rank */
    int rest = r;
    for (int i = nd - 1; i >= 0; i--) {
        c[i] = rest % dims[i];
        rest /= dims[i];
    }
    same = 1;
    for (int i = 0; i < nd; i++) same &= gc[i] == c[i];
    CHECK(same, "%s: Cart_get coordinates", what);
    /* every rank's coordinates and back (a window of ranks at most) */
    for (int q = 0; q < n && q < 64; q++) {
        int qq = (r + q) % n, qc[3], back = -1;
        MPI_Cart_coords(cart, qq, nd, qc);
        MPI_Cart_rank(cart, qc, &back);
        CHECK(back == qq, "%s: Cart_rank(Cart_coords(%d)) = %d", what, qq, back);
    }
    for (int dir = 0; dir < nd; dir++) {
        for (int disp = 1; disp <= 2; disp++) {
            int src = -9, dst = -9;
            MPI_Cart_shift(cart, dir, disp, &src, &dst);
            int want_src, want_dst, cc[3];
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                memcpy(cc, c, sizeof cc);
                cc[dir] += sgn * disp;
                int w;
                if (periods[dir]) {
                    cc[dir] = ((cc[dir] % dims[dir]) + dims[dir]) % dims[dir];
                    MPI_Cart_rank(cart, cc, &w);
                } else if (cc[dir] < 0 || cc[dir] >= dims[dir]) {
                    w = MPI_PROC_NULL;
                } else {
                    MPI_Cart_rank(cart, cc, &w);
                }
                if (sgn < 0)
                    want_src = w;
                else
                    want_dst = w;
            }
            CHECK(src == want_src && dst == want_dst, "%s: shift dir %d disp %d: %d -> %d, want %d -> %d", what, dir,
                  disp, src, dst, want_src, want_dst);
            if (disp == 1) {
                /* send my rank to dst, receive from src */
                int got = -7;
                MPI_Status st;
                MPI_Sendrecv(&r, 1, MPI_INT, dst, 30 + dir, &got, 1, MPI_INT, src, 30 + dir, cart, &st);
                if (src == MPI_PROC_NULL)
                    CHECK(got == -7 && st.MPI_SOURCE == MPI_PROC_NULL, "%s: receive from MPI_PROC_NULL", what);
                else
                    CHECK(got == src && st.MPI_SOURCE == src, "%s: shift dir %d: got %d from %d, want %d", what, dir,
                          got, st.MPI_SOURCE, src);
            }
        }
    }
    /* wrapping coordinates in periodic dimensions */
    int wc[3];
    memcpy(wc, c, sizeof wc);
    for (int i = 0; i < nd; i++)
        if (periods[i]) wc[i] += 3 * dims[i];
    int wr = -1;
    MPI_Cart_rank(cart, wc, &wr);
    CHECK(wr == r, "%s: Cart_rank of wrapped coordinates %d, want %d", what, wr, r);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    dims_create();

    int status = -1;
    MPI_Topo_test(MPI_COMM_WORLD, &status);
    CHECK(status == MPI_UNDEFINED, "Topo_test of MPI_COMM_WORLD: %d", status);

    /* 2-D periodic over all ranks */
    int d2[2] = {0, 0}, p2[2] = {1, 1};
    MPI_Dims_create(size, 2, d2);
    MPI_Comm c2;
    MPI_Cart_create(MPI_COMM_WORLD, 2, d2, p2, 0, &c2);
    check_grid(c2, 2, d2, p2, "2-D periodic");

    /* 3-D, periodic only in the middle dimension */
    int d3[3] = {0, 0, 0}, p3[3] = {0, 1, 0};
    MPI_Dims_create(size, 3, d3);
    MPI_Comm c3;
    MPI_Cart_create(MPI_COMM_WORLD, 3, d3, p3, 1, &c3);
    check_grid(c3, 3, d3, p3, "3-D mixed");

    /* a dup keeps the topology */
    MPI_Comm c3d;
    MPI_Comm_dup(c3, &c3d);
    check_grid(c3d, 3, d3, p3, "dup of 3-D");
    MPI_Comm_free(&c3d);

    /* Cart_sub: the rows of the 2-D grid, then the middle plane of 3-D */
    int c[3];
    MPI_Cart_coords(c2, rank, 2, c);
    int keep_cols[2] = {0, 1};
    MPI_Comm row;
    MPI_Cart_sub(c2, keep_cols, &row);
    int one[1] = {d2[1]}, per1[1] = {1};
    check_grid(row, 1, one, per1, "a row of the 2-D grid");
    int rr = -1;
    MPI_Comm_rank(row, &rr);
    CHECK(rr == c[1], "row rank %d, want the column %d", rr, c[1]);
    /* the members of my row: world ranks c[0] * d2[1] .. + d2[1] - 1 */
    int sum = 0, want = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
    for (int i = 0; i < d2[1]; i++) want += c[0] * d2[1] + i;
    CHECK(sum == want, "row allreduce %d, want %d", sum, want);
    MPI_Comm_free(&row);

    MPI_Cart_coords(c3, rank, 3, c);
    int keep02[3] = {1, 0, 1};
    MPI_Comm plane;
    MPI_Cart_sub(c3, keep02, &plane);
    int dp[2] = {d3[0], d3[2]}, pp[2] = {0, 0};
    check_grid(plane, 2, dp, pp, "a plane of the 3-D grid");
    int pr = -1;
    MPI_Comm_rank(plane, &pr);
    CHECK(pr == c[0] * d3[2] + c[2], "plane rank %d, want %d", pr, c[0] * d3[2] + c[2]);
    MPI_Comm_free(&plane);

    /* no dimension kept: a zero-dimensional grid of one process, c2's
     * rank 0 (the others get MPI_COMM_NULL, as from a 0-D Cart_create) */
    int keep_none[2] = {0, 0};
    MPI_Comm point;
    MPI_Cart_sub(c2, keep_none, &point);
    if (rank == 0) {
        int cmp = -1, nd0 = -1;
        MPI_Comm_compare(point, MPI_COMM_SELF, &cmp);
        CHECK(cmp == MPI_CONGRUENT, "Cart_sub to 0 dims on rank 0: compare with MPI_COMM_SELF %d", cmp);
        MPI_Topo_test(point, &status);
        MPI_Cartdim_get(point, &nd0);
        CHECK(status == MPI_CART && nd0 == 0, "Cart_sub to 0 dims: topology %d with %d dims", status, nd0);
        MPI_Comm_free(&point);
    } else {
        CHECK(point == MPI_COMM_NULL, "Cart_sub to 0 dims: rank %d got a communicator", rank);
    }

    /* a grid smaller than the world: the others get MPI_COMM_NULL */
    int d1[1] = {size > 1 ? size - 1 : 1}, p1[1] = {0};
    MPI_Comm c1;
    MPI_Cart_create(MPI_COMM_WORLD, 1, d1, p1, 0, &c1);
    if (rank >= d1[0]) {
        CHECK(c1 == MPI_COMM_NULL, "a rank outside the grid gets MPI_COMM_NULL");
    } else {
        check_grid(c1, 1, d1, p1, "1-D open, one rank short");
        MPI_Comm_free(&c1);
    }

    /* errors: Cart_rank outside an open dimension, calls on a
     * communicator without a topology */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(c3, MPI_ERRORS_RETURN);
    int cls = -1, bad[3] = {0, 0, d3[2]}, x;
    int rc = MPI_Cart_rank(c3, bad, &x);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_ARG, "Cart_rank out of an open dimension: class %d", cls);
    rc = MPI_Cart_coords(MPI_COMM_WORLD, 0, 1, c);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TOPOLOGY, "Cart_coords without a topology: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    MPI_Comm_free(&c3);
    MPI_Comm_free(&c2);

    return mt_finish();
}
