/* Datatypes of MPI-2/3: MPI_Type_create_subarray (C and Fortran order),
 * MPI_Type_create_darray (block, cyclic(k), not distributed; both orders),
 * hvector / hindexed / hindexed_block, MPI_Type_get_envelope and
 * MPI_Type_get_contents for every combiner, MPI_Type_match_size,
 * MPI_Get_address / MPI_Aint_add / MPI_Aint_diff, MPI_BOTTOM with absolute
 * addresses in a struct type (send and receive), and type names.
 * Layouts are checked by packing a numbered array and comparing with the
 * indices computed by hand. Self-checking: rank 0 prints " No Errors". Any
 * number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

/* Packs one element of t over a numbered int array and compares with the
 * expected indices. */
static void expect_layout(const char *what, MPI_Datatype t, int arr_len, const int *want, int nwant)
{
    int *arr = malloc(sizeof(int) * arr_len), *out = malloc(sizeof(int) * (nwant + 1)), pos = 0, sz = -1;
    for (int i = 0; i < arr_len; i++) arr[i] = i;
    MPI_Type_size(t, &sz);
    CHECK(sz == nwant * (int)sizeof(int), "%s: size %d, want %d", what, sz, nwant * (int)sizeof(int));
    if (sz == nwant * (int)sizeof(int)) {
        MPI_Pack(arr, 1, t, out, sz + 4, &pos, MPI_COMM_SELF);
        for (int i = 0; i < nwant; i++) CHECK(out[i] == want[i], "%s: element %d is %d, want %d", what, i, out[i], want[i]);
    }
    free(arr);
    free(out);
}

static void subarray(void)
{
    /* a 4 x 5 array (C order), the 2 x 3 block at (1, 2) */
    int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 2};
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    int want[6] = {7, 8, 9, 12, 13, 14};
    expect_layout("subarray C", t, 20, want, 6);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(lb == 0 && ext == 20 * (MPI_Aint)sizeof(int), "subarray extent %ld %ld", (long)lb, (long)ext);
    MPI_Type_free(&t);
    /* Fortran order: dimension 0 fastest; sizes (4, 5): element (i, j) at i + 4 j */
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
    MPI_Type_commit(&t);
    int wantf[6] = {1 + 4 * 2, 2 + 4 * 2, 1 + 4 * 3, 2 + 4 * 3, 1 + 4 * 4, 2 + 4 * 4};
    expect_layout("subarray Fortran", t, 20, wantf, 6);
    MPI_Type_free(&t);
}

/* darray over a grid of up to 16 processes (rank r plays process r % 16:
 * the array grows with the grid, so larger grids would cost O(n) per rank):
 * dimension 0 block, dimension 1 cyclic(2). Each rank's part is checked
 * against the definition, and the parts of ranks 0..np-1 must cover the
 * array once. */
static void darray(void)
{
    int psizes[2] = {0, 0}, np = size < 16 ? size : 16, me = rank % np;
    MPI_Dims_create(np, 2, psizes);
    int gsizes[2] = {2 * psizes[0] + 1, 3 * psizes[1] + 2};
    int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
    int n = gsizes[0] * gsizes[1];
    for (int order = 0; order < 2; order++) {
        int ord = order ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
        MPI_Datatype t;
        MPI_Type_create_darray(np, me, 2, gsizes, distribs, dargs, psizes, ord, MPI_INT, &t);
        MPI_Type_commit(&t);
        int c0 = me / psizes[1], c1 = me % psizes[1]; /* row-major process grid */
        int b0 = (gsizes[0] + psizes[0] - 1) / psizes[0];
        int *want = malloc(sizeof(int) * n), nw = 0;
        /* in memory order: C has dimension 1 fastest, Fortran dimension 0 */
        for (int outer = 0; outer < (ord == MPI_ORDER_C ? gsizes[0] : gsizes[1]); outer++)
            for (int inner = 0; inner < (ord == MPI_ORDER_C ? gsizes[1] : gsizes[0]); inner++) {
                int i = ord == MPI_ORDER_C ? outer : inner, j = ord == MPI_ORDER_C ? inner : outer;
                int mine0 = i / b0 == c0, mine1 = (j / 2) % psizes[1] == c1;
                if (mine0 && mine1) want[nw++] = ord == MPI_ORDER_C ? i * gsizes[1] + j : i + j * gsizes[0];
            }
        expect_layout(ord == MPI_ORDER_C ? "darray C" : "darray Fortran", t, n, want, nw);
        MPI_Aint lb, ext;
        MPI_Type_get_extent(t, &lb, &ext);
        CHECK(lb == 0 && ext == n * (MPI_Aint)sizeof(int), "darray extent %ld %ld", (long)lb, (long)ext);
        /* together the ranks cover every element once */
        int total = 0, part = rank < np ? nw : 0;
        MPI_Allreduce(&part, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(total == n, "darray parts cover %d of %d elements", total, n);
        int ni, na, nd, comb;
        MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * 2 + 4 && na == 0 && nd == 1, "darray envelope %d %d %d %d", comb,
              ni, na, nd);
        int ints[12];
        MPI_Aint dummy;
        MPI_Datatype ty;
        MPI_Type_get_contents(t, 12, 0, 1, ints, &dummy, &ty);
        CHECK(ints[0] == np && ints[1] == me && ints[2] == 2 && ints[3] == gsizes[0] && ints[5] == distribs[0] &&
                  ints[8] == dargs[1] && ints[9] == psizes[0] && ints[11] == ord && ty == MPI_INT,
              "darray contents");
        free(want);
        MPI_Type_free(&t);
    }
    /* not distributed: the whole array */
    int g1[1] = {5}, d1[1] = {MPI_DISTRIBUTE_NONE}, a1[1] = {MPI_DISTRIBUTE_DFLT_DARG}, p1[1] = {1};
    MPI_Datatype t;
    MPI_Type_create_darray(1, 0, 1, g1, d1, a1, p1, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    int all[5] = {0, 1, 2, 3, 4};
    expect_layout("darray none", t, 5, all, 5);
    MPI_Type_free(&t);
}

static void envelopes(void)
{
    int ni, na, nd, comb, ints[16];
    MPI_Aint aints[8];
    MPI_Datatype types[4];
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "MPI_INT is named");

    MPI_Datatype vec, hvec, idx, hidx, hblk, iblk, st, res, dup, cont;
    MPI_Type_contiguous(3, MPI_INT, &cont);
    MPI_Type_vector(4, 2, 5, MPI_DOUBLE, &vec);
    MPI_Type_create_hvector(3, 1, 40, vec, &hvec);
    int bls[3] = {1, 2, 3}, dis[3] = {0, 4, 9};
    MPI_Aint adis[3] = {0, 16, 48};
    MPI_Type_indexed(3, bls, dis, MPI_INT, &idx);
    MPI_Type_create_hindexed(3, bls, adis, MPI_INT, &hidx);
    MPI_Type_create_hindexed_block(3, 2, adis, MPI_SHORT, &hblk);
    MPI_Type_create_indexed_block(3, 2, dis, MPI_SHORT, &iblk);
    MPI_Datatype stt[3] = {MPI_CHAR, vec, MPI_DOUBLE};
    MPI_Type_create_struct(3, bls, adis, stt, &st);
    MPI_Type_create_resized(MPI_INT, -4, 16, &res);
    MPI_Type_dup(vec, &dup);

    MPI_Type_get_envelope(cont, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1, "contiguous envelope");
    MPI_Type_get_contents(cont, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 3 && types[0] == MPI_INT, "contiguous contents");

    MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1, "vector envelope");
    MPI_Type_get_contents(vec, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 4 && ints[1] == 2 && ints[2] == 5 && types[0] == MPI_DOUBLE, "vector contents");

    MPI_Type_get_envelope(hvec, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nd == 1, "hvector envelope");
    MPI_Type_get_contents(hvec, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 3 && ints[1] == 1 && aints[0] == 40, "hvector contents");
    /* a derived type comes back as a handle to free, equal to the original */
    int ni2, na2, nd2, comb2, in2[4];
    MPI_Aint a2[2];
    MPI_Datatype t2[2];
    MPI_Type_get_envelope(types[0], &ni2, &na2, &nd2, &comb2);
    CHECK(comb2 == MPI_COMBINER_VECTOR, "hvector's type is the vector: %d", comb2);
    MPI_Type_get_contents(types[0], 4, 2, 2, in2, a2, t2);
    CHECK(in2[0] == 4 && in2[1] == 2 && in2[2] == 5 && t2[0] == MPI_DOUBLE, "the vector through hvector");
    MPI_Type_free(&types[0]);

    MPI_Type_get_envelope(idx, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_INDEXED && ni == 7 && na == 0 && nd == 1, "indexed envelope");
    MPI_Type_get_contents(idx, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 3 && ints[1] == 1 && ints[3] == 3 && ints[4] == 0 && ints[6] == 9 && types[0] == MPI_INT,
          "indexed contents");

    MPI_Type_get_envelope(hidx, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_HINDEXED && ni == 4 && na == 3 && nd == 1, "hindexed envelope");
    MPI_Type_get_contents(hidx, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 3 && ints[2] == 2 && aints[1] == 16 && aints[2] == 48, "hindexed contents");

    MPI_Type_get_envelope(hblk, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_HINDEXED_BLOCK && ni == 2 && na == 3 && nd == 1, "hindexed_block envelope");
    MPI_Type_get_envelope(iblk, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_INDEXED_BLOCK && ni == 5 && na == 0 && nd == 1, "indexed_block envelope");
    MPI_Type_get_contents(iblk, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 0 && ints[4] == 9 && types[0] == MPI_SHORT, "indexed_block contents");

    MPI_Type_get_envelope(st, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nd == 3, "struct envelope");
    MPI_Type_get_contents(st, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 3 && ints[3] == 3 && aints[2] == 48 && types[0] == MPI_CHAR && types[2] == MPI_DOUBLE,
          "struct contents");
    MPI_Type_free(&types[1]);

    MPI_Type_get_envelope(res, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1, "resized envelope");
    MPI_Type_get_contents(res, 16, 8, 4, ints, aints, types);
    CHECK(aints[0] == -4 && aints[1] == 16 && types[0] == MPI_INT, "resized contents");

    MPI_Type_get_envelope(dup, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1, "dup envelope");
    MPI_Type_get_contents(dup, 16, 8, 4, ints, aints, types);
    MPI_Type_free(&types[0]);

    int sizes[3] = {4, 5, 6}, sub[3] = {1, 2, 3}, starts[3] = {0, 1, 2};
    MPI_Datatype sa;
    MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &sa);
    MPI_Type_get_envelope(sa, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 11 && na == 0 && nd == 1, "subarray envelope");
    MPI_Type_get_contents(sa, 16, 8, 4, ints, aints, types);
    CHECK(ints[0] == 3 && ints[1] == 4 && ints[4] == 1 && ints[9] == 2 && ints[10] == MPI_ORDER_FORTRAN &&
              types[0] == MPI_FLOAT,
          "subarray contents");
    /* contents survive freeing the types they name */
    MPI_Type_free(&vec);
    MPI_Type_get_contents(hvec, 16, 8, 4, ints, aints, types);
    MPI_Type_get_contents(types[0], 4, 2, 2, in2, a2, t2);
    CHECK(in2[0] == 4 && in2[2] == 5, "contents of a freed type's user");
    MPI_Type_free(&types[0]);

    MPI_Datatype all[] = {cont, hvec, idx, hidx, hblk, iblk, st, res, dup, sa};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++) MPI_Type_free(&all[i]);
}

static void sizes_names_addresses(void)
{
    MPI_Datatype t;
    int sz;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t);
    MPI_Type_size(t, &sz);
    CHECK(sz == 4, "match_size integer 4: %d", sz);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t);
    MPI_Type_size(t, &sz);
    CHECK(sz == 8, "match_size integer 8: %d", sz);
    /* (any predefined type of the size will do: MPICH gives Fortran's) */
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
    MPI_Type_size(t, &sz);
    CHECK(sz == 8, "match_size real 8: %d", sz);
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &t);
    MPI_Type_size(t, &sz);
    CHECK(sz == 4, "match_size real 4: %d", sz);
    MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t);
    MPI_Type_size(t, &sz);
    CHECK(sz == 16, "match_size complex 16: %d", sz);

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_INT, name, &len);
    CHECK(!strcmp(name, "MPI_INT") && len == 7, "name of MPI_INT: '%s'", name);
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(!strcmp(name, "MPI_DOUBLE"), "name of MPI_DOUBLE: '%s'", name);
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_get_name(t, name, &len);
    CHECK(len == 0, "a new type has no name: '%s'", name);
    MPI_Type_set_name(t, "pair");
    MPI_Type_get_name(t, name, &len);
    CHECK(!strcmp(name, "pair") && len == 4, "set name: '%s'", name);
    MPI_Type_free(&t);

    double arr[10];
    MPI_Aint a0, a5;
    MPI_Get_address(&arr[0], &a0);
    MPI_Get_address(&arr[5], &a5);
    CHECK(MPI_Aint_diff(a5, a0) == 5 * (MPI_Aint)sizeof(double), "Aint_diff %ld", (long)MPI_Aint_diff(a5, a0));
    CHECK(MPI_Aint_add(a0, 5 * sizeof(double)) == a5, "Aint_add");

    /* MPI_BOTTOM: a struct of absolute addresses, an int and a double of
     * separate variables, around a ring */
    int iv = 100 + rank, ir = -1;
    double dv = rank + 0.25, dr = -1;
    int bl[2] = {1, 1};
    MPI_Aint sdisp[2], rdisp[2];
    MPI_Get_address(&iv, &sdisp[0]);
    MPI_Get_address(&dv, &sdisp[1]);
    MPI_Get_address(&ir, &rdisp[0]);
    MPI_Get_address(&dr, &rdisp[1]);
    MPI_Datatype tys[2] = {MPI_INT, MPI_DOUBLE}, sabs, rabs;
    MPI_Type_create_struct(2, bl, sdisp, tys, &sabs);
    MPI_Type_create_struct(2, bl, rdisp, tys, &rabs);
    MPI_Type_commit(&sabs);
    MPI_Type_commit(&rabs);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(MPI_BOTTOM, 1, sabs, right, 3, MPI_BOTTOM, 1, rabs, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(ir == 100 + left && dr == left + 0.25, "MPI_BOTTOM ring: %d %g", ir, dr);
    /* and in a collective */
    ir = -1;
    dr = -1;
    if (rank == 0) {
        ir = 7;
        dr = 7.5;
    }
    MPI_Bcast(MPI_BOTTOM, 1, rabs, 0, MPI_COMM_WORLD);
    CHECK(ir == 7 && dr == 7.5, "MPI_BOTTOM bcast: %d %g", ir, dr);
    /* an allgather from and to MPI_BOTTOM: block i lands in all[i]; over
     * groups of 64 ranks (world-sized buffers on every rank would not fit
     * at the largest counts) */
    MPI_Comm group;
    int gsize, base = rank / 64 * 64;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 64, rank, &group);
    MPI_Comm_size(group, &gsize);
    struct pair {
        int i;
        double d;
    } *all = malloc(sizeof(struct pair) * gsize);
    MPI_Aint adisp[2];
    MPI_Get_address(&all[0].i, &adisp[0]);
    MPI_Get_address(&all[0].d, &adisp[1]);
    MPI_Datatype one, each;
    MPI_Type_create_struct(2, bl, adisp, tys, &one);
    MPI_Type_create_resized(one, 0, sizeof(struct pair), &each); /* lb 0: the blocks stay absolute */
    MPI_Type_commit(&each);
    MPI_Allgather(MPI_BOTTOM, 1, sabs, MPI_BOTTOM, 1, each, group);
    for (int r = 0; r < gsize; r++)
        CHECK(all[r].i == 100 + base + r && all[r].d == base + r + 0.25, "MPI_BOTTOM allgather block %d: %d %g", r,
              all[r].i, all[r].d);
    MPI_Comm_free(&group);
    free(all);
    MPI_Type_free(&one);
    MPI_Type_free(&each);
    MPI_Type_free(&sabs);
    MPI_Type_free(&rabs);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    subarray();
    darray();
    envelopes();
    sizes_names_addresses();
    return mt_finish();
}
