/* Derived datatypes, checked by themselves: prints "No Errors" when every
 * check passed on every rank (MPICH's test convention), else one line per
 * failed check. Every constructor (nested, resized, negative strides,
 * structs with gaps) is sent around a ring and received three ways: with
 * the same type (the gaps must stay untouched), as plain ints (the order
 * must be the type map's), and from plain ints. Sizes, extents and true
 * extents are compared with what the C layout says. Runs with any number
 * of ranks >= 1. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static int left, right;

enum { NB = 2048, MAXMAP = 640 };
static int sbuf[NB], rbuf[NB], cbuf[NB], expect[NB];

static int val(int r, int i) { return r * 100000 + i; }

static void check_extent(const char *what, MPI_Datatype t, int size_b, long lb, long extent, long tlb, long textent)
{
    int sz;
    MPI_Aint a, b;
    char msg[160];
    MPI_Type_size(t, &sz);
    snprintf(msg, sizeof msg, "%s: size %d, expected %d", what, sz, size_b);
    CHECK(sz == size_b, "%s", msg);
    MPI_Type_get_extent(t, &a, &b);
    snprintf(msg, sizeof msg, "%s: lb %ld extent %ld, expected %ld %ld", what, (long)a, (long)b, lb, extent);
    CHECK(a == lb && b == extent, "%s", msg);
    MPI_Type_get_true_extent(t, &a, &b);
    snprintf(msg, sizeof msg, "%s: true lb %ld true extent %ld, expected %ld %ld", what, (long)a, (long)b, tlb,
             textent);
    CHECK(a == tlb && b == textent, "%s", msg);
}

/* Sends count elements of t (whose type map, in ints from the element's
 * origin, is map[0..nmap-1]; elements ext ints apart) from sbuf + base to
 * the right, receiving from the left, three ways. */
static void ring_map(const char *what, MPI_Datatype t, int count, int base, const int *map, int nmap, int ext)
{
    char msg[160];
    MPI_Status st;
    int n, bad = 0;
    for (int i = 0; i < NB; i++) {
        sbuf[i] = val(rank, i);
        rbuf[i] = -1;
        cbuf[i] = -1;
        expect[i] = -1;
    }
    for (int e = 0; e < count; e++)
        for (int k = 0; k < nmap; k++) {
            int idx = base + e * ext + map[k];
            expect[idx] = val(left, idx);
        }
    /* typed to typed: the map's places filled, the gaps untouched */
    MPI_Sendrecv(sbuf + base, count, t, right, 1, rbuf + base, count, t, left, 1, MPI_COMM_WORLD, &st);
    for (int i = 0; i < NB; i++) bad += rbuf[i] != expect[i];
    snprintf(msg, sizeof msg, "%s: typed receive wrong at %d places", what, bad);
    CHECK(bad == 0, "%s", msg);
    MPI_Get_count(&st, t, &n);
    snprintf(msg, sizeof msg, "%s: MPI_Get_count %d, expected %d", what, n, count);
    CHECK(n == count, "%s", msg);
    MPI_Get_elements(&st, t, &n);
    snprintf(msg, sizeof msg, "%s: MPI_Get_elements %d, expected %d", what, n, count * nmap);
    CHECK(n == count * nmap, "%s", msg);
    /* typed to ints: the type map's order */
    MPI_Sendrecv(sbuf + base, count, t, right, 2, cbuf, count * nmap, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
    bad = 0;
    for (int e = 0; e < count; e++)
        for (int k = 0; k < nmap; k++) bad += cbuf[e * nmap + k] != val(left, base + e * ext + map[k]);
    snprintf(msg, sizeof msg, "%s: received as ints, wrong at %d places", what, bad);
    CHECK(bad == 0, "%s", msg);
    /* ints to typed */
    for (int i = 0; i < NB; i++) rbuf[i] = -1;
    MPI_Sendrecv(sbuf, count * nmap, MPI_INT, right, 3, rbuf + base, count, t, left, 3, MPI_COMM_WORLD, &st);
    bad = 0;
    for (int i = 0; i < NB; i++) expect[i] = -1;
    for (int e = 0; e < count; e++)
        for (int k = 0; k < nmap; k++) expect[base + e * ext + map[k]] = val(left, e * nmap + k);
    for (int i = 0; i < NB; i++) bad += rbuf[i] != expect[i];
    snprintf(msg, sizeof msg, "%s: sent as ints, received typed, wrong at %d places", what, bad);
    CHECK(bad == 0, "%s", msg);
}

static int map[MAXMAP];

static void constructors(void)
{
    MPI_Datatype t, inner, outer;
    int n;

    MPI_Type_contiguous(5, MPI_INT, &t);
    MPI_Type_commit(&t);
    check_extent("contiguous(5)", t, 20, 0, 20, 0, 20);
    for (int i = 0; i < 5; i++) map[i] = i;
    ring_map("contiguous(5)", t, 3, 0, map, 5, 5);
    MPI_Type_free(&t);
    CHECK(t == MPI_DATATYPE_NULL, "MPI_Type_free sets MPI_DATATYPE_NULL");

    MPI_Type_vector(4, 2, 3, MPI_INT, &t);
    MPI_Type_commit(&t);
    check_extent("vector(4,2,3)", t, 32, 0, 44, 0, 44);
    n = 0;
    for (int b = 0; b < 4; b++)
        for (int j = 0; j < 2; j++) map[n++] = b * 3 + j;
    ring_map("vector(4,2,3)", t, 2, 0, map, n, 11);
    MPI_Type_free(&t);

    /* negative stride: blocks at 0, -2, -4 ints */
    MPI_Type_vector(3, 1, -2, MPI_INT, &t);
    MPI_Type_commit(&t);
    check_extent("vector(3,1,-2)", t, 12, -16, 20, -16, 20);
    map[0] = 0, map[1] = -2, map[2] = -4;
    ring_map("vector(3,1,-2)", t, 3, 16, map, 3, 5);
    MPI_Type_free(&t);

    MPI_Type_create_hvector(3, 2, 5 * sizeof(int), MPI_INT, &t);
    MPI_Type_commit(&t);
    check_extent("hvector(3,2,20B)", t, 24, 0, 48, 0, 48);
    n = 0;
    for (int b = 0; b < 3; b++)
        for (int j = 0; j < 2; j++) map[n++] = b * 5 + j;
    ring_map("hvector(3,2,20B)", t, 2, 0, map, n, 12);
    MPI_Type_free(&t);

    {
        int bl[3] = {2, 1, 3}, d[3] = {5, 0, 9};
        MPI_Aint hd[3] = {5 * sizeof(int), 0, 9 * sizeof(int)};
        int m[6] = {5, 6, 0, 9, 10, 11};
        MPI_Type_indexed(3, bl, d, MPI_INT, &t);
        MPI_Type_commit(&t);
        check_extent("indexed", t, 24, 0, 48, 0, 48);
        ring_map("indexed", t, 2, 0, m, 6, 12);
        MPI_Type_free(&t);
        MPI_Type_create_hindexed(3, bl, hd, MPI_INT, &t);
        MPI_Type_commit(&t);
        check_extent("hindexed", t, 24, 0, 48, 0, 48);
        ring_map("hindexed", t, 2, 0, m, 6, 12);
        MPI_Type_free(&t);
    }
    {
        int d[3] = {7, 1, 4};
        MPI_Aint hd[3] = {7 * sizeof(int), 1 * sizeof(int), 4 * sizeof(int)};
        int m[6] = {7, 8, 1, 2, 4, 5};
        MPI_Type_create_indexed_block(3, 2, d, MPI_INT, &t);
        MPI_Type_commit(&t);
        check_extent("indexed_block", t, 24, 4, 32, 4, 32);
        ring_map("indexed_block", t, 3, 4, m, 6, 8);
        MPI_Type_free(&t);
        MPI_Type_create_hindexed_block(3, 2, hd, MPI_INT, &t);
        MPI_Type_commit(&t);
        check_extent("hindexed_block", t, 24, 4, 32, 4, 32);
        ring_map("hindexed_block", t, 3, 4, m, 6, 8);
        MPI_Type_free(&t);
    }

    /* resized: a vector (0, 3) shrunk to 4 ints, so elements interleave */
    MPI_Type_vector(2, 1, 3, MPI_INT, &inner);
    MPI_Type_create_resized(inner, 0, 4 * sizeof(int), &t);
    MPI_Type_free(&inner); /* t keeps what it needs */
    MPI_Type_commit(&t);
    check_extent("resized vector", t, 8, 0, 16, 0, 16);
    map[0] = 0, map[1] = 3;
    ring_map("resized vector", t, 5, 0, map, 2, 4);
    MPI_Type_free(&t);

    /* resized with a negative lb: extent 3 ints */
    MPI_Type_create_resized(MPI_INT, -2 * (MPI_Aint)sizeof(int), 3 * sizeof(int), &t);
    MPI_Type_commit(&t);
    check_extent("resized int, negative lb", t, 4, -8, 12, 0, 4);
    map[0] = 0;
    ring_map("resized int, negative lb", t, 6, 2, map, 1, 3);
    MPI_Type_free(&t);

    /* nested: a vector of vectors */
    MPI_Type_vector(3, 1, 2, MPI_INT, &inner);   /* 0 2 4, extent 5 */
    MPI_Type_vector(2, 1, 2, inner, &outer);     /* at 0 and 10, extent 15 */
    MPI_Type_commit(&outer);
    check_extent("vector of vectors", outer, 24, 0, 60, 0, 60);
    {
        int m[6] = {0, 2, 4, 10, 12, 14};
        ring_map("vector of vectors", outer, 3, 0, m, 6, 15);
    }
    MPI_Type_free(&outer);
    /* blocks of 2 of the inner vector, 3 apart: a block is not one run */
    MPI_Type_vector(2, 2, 3, inner, &outer);    /* inner at 0, 5, 15, 20 */
    MPI_Type_commit(&outer);
    check_extent("vector(2,2,3) of vector", outer, 48, 0, 100, 0, 100);
    n = 0;
    for (int b = 0; b < 2; b++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++) map[n++] = b * 15 + j * 5 + k * 2;
    ring_map("vector(2,2,3) of vector", outer, 2, 0, map, n, 25);
    MPI_Type_free(&outer);
    MPI_Type_free(&inner);

    /* struct of a vector, an int and a contiguous */
    {
        MPI_Datatype c2, ty[3];
        MPI_Type_contiguous(2, MPI_INT, &c2);
        int bl[3] = {1, 1, 1};
        MPI_Aint d[3] = {0, 6 * sizeof(int), 10 * sizeof(int)};
        MPI_Type_vector(2, 1, 3, MPI_INT, &ty[0]); /* 0, 3 */
        ty[1] = MPI_INT;
        ty[2] = c2;
        MPI_Type_create_struct(3, bl, d, ty, &t);
        MPI_Type_free(&ty[0]);
        MPI_Type_free(&c2);
        MPI_Type_commit(&t);
        check_extent("struct of vector, int, contiguous", t, 20, 0, 48, 0, 48);
        int m[5] = {0, 3, 6, 10, 11};
        ring_map("struct of vector, int, contiguous", t, 3, 0, m, 5, 12);
        MPI_Type_free(&t);
    }

    /* an irregular index list (more steps than are ever inlined), then
     * vectors and contiguous runs of it */
    {
        int bl[24], d[24];
        n = 0;
        for (int i = 0; i < 24; i++) {
            bl[i] = 1 + i % 2;
            d[i] = i * (i + 3) / 2; /* gaps grow: no two blocks evenly spaced for long */
            for (int j = 0; j < bl[i]; j++) map[n++] = d[i] + j;
        }
        int ext = d[23] + bl[23];
        MPI_Type_indexed(24, bl, d, MPI_INT, &inner);
        MPI_Type_commit(&inner);
        ring_map("indexed, 24 irregular blocks", inner, 2, 0, map, n, ext);
        MPI_Type_contiguous(3, inner, &outer);
        MPI_Type_commit(&outer);
        int m2 = 0;
        for (int e = 0; e < 3; e++)
            for (int k = 0; k < n; k++) map[n + m2++] = map[k] + e * ext;
        ring_map("contiguous(3) of irregular indexed", outer, 2, 0, map + n, m2, 3 * ext);
        MPI_Type_free(&outer);
        MPI_Type_free(&inner);
    }

    /* past the eager size: a long vector */
    MPI_Type_vector(300, 2, 3, MPI_INT, &t);
    MPI_Type_commit(&t);
    n = 0;
    for (int b = 0; b < 300; b++)
        for (int j = 0; j < 2; j++) map[n++] = b * 3 + j;
    ring_map("vector(300,2,3)", t, 2, 0, map, n, 899);
    MPI_Type_free(&t);

    /* dup */
    MPI_Type_vector(3, 2, 4, MPI_INT, &inner);
    MPI_Type_commit(&inner);
    MPI_Type_dup(inner, &t); /* a dup of a committed type is committed */
    MPI_Type_free(&inner);
    check_extent("dup of vector", t, 24, 0, 40, 0, 40);
    n = 0;
    for (int b = 0; b < 3; b++)
        for (int j = 0; j < 2; j++) map[n++] = b * 4 + j;
    ring_map("dup of vector", t, 2, 0, map, n, 10);
    MPI_Type_free(&t);

    /* subarray: the 3x4 block at (1, 2) of a 6x8 array, C order */
    {
        int sizes[2] = {6, 8}, sub[2] = {3, 4}, starts[2] = {1, 2};
        MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        check_extent("subarray C", t, 48, 0, 192, 40, 4 * (3 * 8 + 6 - 10));
        n = 0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++) map[n++] = (1 + i) * 8 + 2 + j;
        ring_map("subarray C", t, 2, 0, map, n, 48);
        MPI_Type_free(&t);
        MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
        MPI_Type_commit(&t);
        n = 0;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 3; i++) map[n++] = (2 + j) * 6 + 1 + i;
        ring_map("subarray Fortran", t, 2, 0, map, n, 48);
        MPI_Type_free(&t);
    }
}

/* zero counts and zero-size types */
static void empty(void)
{
    MPI_Datatype z, v;
    MPI_Status st;
    int n;
    MPI_Type_contiguous(0, MPI_INT, &z);
    MPI_Type_commit(&z);
    check_extent("contiguous(0)", z, 0, 0, 0, 0, 0);
    rbuf[0] = -1;
    MPI_Sendrecv(sbuf, 4, z, right, 4, rbuf, 4, z, left, 4, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, z, &n);
    CHECK(n == 0 && rbuf[0] == -1, "zero-size type: count 0, nothing written");
    MPI_Type_vector(3, 2, 4, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Sendrecv(sbuf, 0, v, right, 5, rbuf, 0, v, left, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, v, &n);
    CHECK(n == 0 && rbuf[0] == -1, "zero count of a vector: count 0, nothing written");
    MPI_Type_free(&z);
    MPI_Type_free(&v);
}

/* a struct with gaps, built with MPI_Get_address, as C lays it out */
struct particle {
    double x[3];
    int id;
    char tag;
};

static void structs(void)
{
    struct particle p[4], q[4];
    MPI_Aint base, d[3];
    MPI_Datatype t, ty[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
    int bl[3] = {3, 1, 1};
    MPI_Status st;
    char msg[160];
    MPI_Get_address(&p[0], &base);
    MPI_Get_address(&p[0].x, &d[0]);
    MPI_Get_address(&p[0].id, &d[1]);
    MPI_Get_address(&p[0].tag, &d[2]);
    for (int i = 0; i < 3; i++) d[i] -= base;
    MPI_Type_create_struct(3, bl, d, ty, &t);
    MPI_Type_commit(&t);
    /* the padded extent is the C struct's size */
    check_extent("struct particle", t, 3 * 8 + 4 + 1, 0, sizeof(struct particle), 0,
                 offsetof(struct particle, tag) + 1);
    memset(p, 0x5a, sizeof p);
    memset(q, 0xab, sizeof q);
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++) p[i].x[k] = rank + i * 0.25 + k * 0.125;
        p[i].id = rank * 10 + i;
        p[i].tag = (char)('a' + i);
    }
    MPI_Sendrecv(p, 4, t, right, 6, q, 4, t, left, 6, MPI_COMM_WORLD, &st);
    int bad = 0, gaps = 0;
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 3; k++) bad += q[i].x[k] != left + i * 0.25 + k * 0.125;
        bad += q[i].id != left * 10 + i;
        bad += q[i].tag != 'a' + i;
        const unsigned char *c = (const unsigned char *)&q[i];
        for (size_t b = offsetof(struct particle, tag) + 1; b < sizeof(struct particle); b++) gaps += c[b] != 0xab;
    }
    snprintf(msg, sizeof msg, "struct particle: %d wrong fields, %d padding bytes written", bad, gaps);
    CHECK(bad == 0 && gaps == 0, "%s", msg);
    int n;
    MPI_Get_elements(&st, t, &n);
    CHECK(n == 20, "struct particle: MPI_Get_elements counts 5 basic elements each");

    /* a partial element: one particle and two more doubles, received as
     * two particles: MPI_Get_count undefined, MPI_Get_elements 5 + 2 */
    {
        MPI_Datatype s2, ty2[2] = {t, MPI_DOUBLE};
        int bl2[2] = {1, 2};
        MPI_Aint d2[2] = {0, sizeof(struct particle)};
        MPI_Type_create_struct(2, bl2, d2, ty2, &s2);
        MPI_Type_commit(&s2);
        memset(q, 0xab, sizeof q);
        MPI_Sendrecv(p, 1, s2, right, 7, q, 2, t, left, 7, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, t, &n);
        CHECK(n == MPI_UNDEFINED, "partial struct: MPI_Get_count is MPI_UNDEFINED");
        MPI_Get_elements(&st, t, &n);
        snprintf(msg, sizeof msg, "partial struct: MPI_Get_elements %d, expected 7", n);
        CHECK(n == 7, "%s", msg);
        CHECK(q[0].id == left * 10 && q[1].x[0] == left + 0.25 && q[1].x[1] == left + 0.375,
              "partial struct: the received prefix");
        const unsigned char *c = (const unsigned char *)&q[1].x[2];
        CHECK(c[0] == 0xab && (unsigned char)q[1].tag == 0xab, "partial struct: nothing past the prefix");
        MPI_Type_free(&s2);
    }
    MPI_Type_free(&t);

    /* value-index pairs keep their padding untouched */
    {
        struct {
            double v;
            int i;
        } a[3], b[3];
        check_extent("MPI_DOUBLE_INT", MPI_DOUBLE_INT, 12, 0, sizeof a[0], 0, 12);
        memset(a, 0, sizeof a);
        memset(b, 0xab, sizeof b);
        for (int i = 0; i < 3; i++) a[i].v = rank + i * 0.5, a[i].i = rank * 3 + i;
        MPI_Sendrecv(a, 3, MPI_DOUBLE_INT, right, 8, b, 3, MPI_DOUBLE_INT, left, 8, MPI_COMM_WORLD, &st);
        int ok = 1;
        for (int i = 0; i < 3; i++) {
            ok &= b[i].v == left + i * 0.5 && b[i].i == left * 3 + i;
            ok &= ((const unsigned char *)&b[i])[12] == 0xab;
        }
        CHECK(ok, "MPI_DOUBLE_INT: values moved, padding untouched");
        MPI_Get_elements(&st, MPI_DOUBLE_INT, &n);
        CHECK(n == 6, "MPI_DOUBLE_INT: MPI_Get_elements counts 2 per pair");
    }
}

/* a short message fills a prefix of a derived receive buffer */
static void short_message(void)
{
    MPI_Datatype v;
    MPI_Status st;
    int n;
    MPI_Type_vector(2, 2, 3, MPI_INT, &v); /* 0 1 3 4, extent 5 */
    MPI_Type_commit(&v);
    for (int i = 0; i < NB; i++) sbuf[i] = val(rank, i), rbuf[i] = -1;
    MPI_Sendrecv(sbuf, 7, MPI_INT, right, 9, rbuf, 2, v, left, 9, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, v, &n);
    CHECK(n == MPI_UNDEFINED, "short message: MPI_Get_count is MPI_UNDEFINED");
    MPI_Get_elements(&st, v, &n);
    CHECK(n == 7, "short message: MPI_Get_elements is 7");
    int want[10] = {0, 1, -1, 2, 3, 4, 5, -1, 6, -1}, bad = 0;
    for (int i = 0; i < 10; i++) bad += rbuf[i] != (want[i] < 0 ? -1 : val(left, want[i]));
    CHECK(bad == 0, "short message: the prefix of the type map is filled, nothing else");
    MPI_Type_free(&v);
}

/* a datatype freed while a receive using it is pending still works */
static void free_while_pending(void)
{
    MPI_Datatype v;
    MPI_Request r;
    MPI_Type_vector(3, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    for (int i = 0; i < NB; i++) sbuf[i] = val(rank, i), rbuf[i] = -1;
    MPI_Irecv(rbuf, 1, v, left, 10, MPI_COMM_WORLD, &r);
    MPI_Type_free(&v);
    MPI_Send(sbuf, 3, MPI_INT, right, 10, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(rbuf[0] == val(left, 0) && rbuf[1] == -1 && rbuf[2] == val(left, 1) && rbuf[4] == val(left, 2),
          "a datatype freed while a receive is pending");
}

/* MPI_Sendrecv_replace with a type with gaps */
static void replace(void)
{
    MPI_Datatype v;
    MPI_Type_vector(3, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    int b[6];
    for (int i = 0; i < 6; i++) b[i] = val(rank, i);
    MPI_Sendrecv_replace(b, 1, v, right, 11, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(b[0] == val(left, 0) && b[2] == val(left, 2) && b[4] == val(left, 4) && b[1] == val(rank, 1) &&
              b[3] == val(rank, 3) && b[5] == val(rank, 5),
          "MPI_Sendrecv_replace with a vector type");
    MPI_Type_free(&v);
}

static long ld_stride(const long double *p) { return (long)((const char *)(p + 1) - (const char *)p); }

/* predefined types: sizes and extents as C lays the data out */
static void predefined(void)
{
    struct { float v; int i; } fi;
    struct { long v; int i; } li;
    struct { short v; int i; } si;
    struct { int v; int i; } ii;
    struct { long double v; int i; } ldi;
    long double ld[2];
    long lds = (long)sizeof(long double);
    (void)fi, (void)li, (void)si, (void)ii, (void)ldi;
    /* on the GPU a long double is a double: sizeof, arrays and MPI agree */
    CHECK(ld_stride(ld) == lds, "long double arrays step by %ld bytes, sizeof says %ld", ld_stride(ld), lds);
    check_extent("MPI_FLOAT_INT", MPI_FLOAT_INT, 8, 0, sizeof fi, 0, 8);
    check_extent("MPI_LONG_INT", MPI_LONG_INT, sizeof(long) + 4, 0, sizeof li, 0, sizeof(long) + 4);
    check_extent("MPI_SHORT_INT", MPI_SHORT_INT, 6, 0, sizeof si, 0, 8);
    check_extent("MPI_2INT", MPI_2INT, 8, 0, sizeof ii, 0, 8);
    check_extent("MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, (int)lds, 0, lds, 0, lds);
    check_extent("MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, (int)lds + 4, 0, sizeof ldi, 0, lds + 4);
    check_extent("MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, 8, 0, 8, 0, 8);
    check_extent("MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, 16, 0, 16, 0, 16);
    check_extent("MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX, 2 * (int)lds, 0, 2 * lds, 0, 2 * lds);
    check_extent("MPI_AINT", MPI_AINT, sizeof(MPI_Aint), 0, sizeof(MPI_Aint), 0, sizeof(MPI_Aint));
    check_extent("MPI_OFFSET", MPI_OFFSET, sizeof(MPI_Offset), 0, sizeof(MPI_Offset), 0, sizeof(MPI_Offset));
    check_extent("MPI_COUNT", MPI_COUNT, sizeof(MPI_Count), 0, sizeof(MPI_Count), 0, sizeof(MPI_Count));
    check_extent("MPI_PACKED", MPI_PACKED, 1, 0, 1, 0, 1);
    check_extent("MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG, 8, 0, 8, 0, 8);
    check_extent("MPI_LONG_LONG", MPI_LONG_LONG, 8, 0, 8, 0, 8);
    check_extent("MPI_C_BOOL", MPI_C_BOOL, 1, 0, 1, 0, 1);

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "MPI_Type_get_name of MPI_DOUBLE");
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_set_name(t, "pair of ints");
    MPI_Type_get_name(t, name, &len);
    CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "MPI_Type_set_name / MPI_Type_get_name");
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    predefined();
    constructors();
    empty();
    structs();
    short_message();
    free_while_pending();
    replace();
    return mt_finish();
}
