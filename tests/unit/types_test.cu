/* Unit test of the datatype engine (runtime/src/types_*.cu): random nested
 * datatypes, each built twice, by the runtime and as an explicit type map
 * (a list of basic elements with their offsets, the standard's
 * definition), then packed, unpacked (whole and partial) and counted both
 * ways. Also checks that common layouts compile to few program steps.
 * Built on the host with the types sources and stubs for the rest of the
 * runtime:
 *
 *   g++ -std=c++17 -x c++ -DGPUMPI_BACKEND_THREADS -I runtime/include -I runtime/src \
 *       -I libc-shim/include tests/unit/types_test.cu runtime/src/types_*.cu runtime/src/reduce_ops.cu \
 *       runtime/src/ops_user.cu libc-shim/src/string.cu -o /tmp/types_test && /tmp/types_test [seed] [cases]
 *
 * Exit status 1 if any check failed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"

/* ---- stubs for the rest of the runtime ----------------------------------- */

gp_world *gp_world_ptr;
gp_world_hot gp_hot;
__thread int gp_threads_rank;
__thread gp_rank_chip gp_threads_chip;
static int raised;

int gp_err(MPI_Comm, const char *fn, int errclass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", fn);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    raised++;
    return errclass;
}
int gp_fatal(const char *fn, int errclass, const char *fmt, ...)
{
    gp_err(0, fn, errclass, "%s", fmt);
    exit(2);
}
int gp_check_initialized(const char *) { return 0; }
int gp_comm_check_general(const char *, MPI_Comm) { return 0; }
void *gp_malloc(size_t n) { return malloc(n ? n : 1); }
void *gp_calloc(size_t n, size_t s) { return calloc(n ? n : 1, s ? s : 1); }
void gp_free(void *p) { free(p); }
/* attributes (attr.cu): this test sets none */
int gp_attrs_copy(int, int, int) { return 0; }
int gp_attrs_delete_all(int, int) { return 0; }
int gp_keyval_create(const char *, int, MPI_Comm_copy_attr_function *, MPI_Comm_delete_attr_function *, int *, void *)
{
    return 0;
}
int gp_keyval_free(const char *, int, int *) { return 0; }
int gp_attr_set(const char *, int, int, int, void *) { return 0; }
int gp_attr_get(const char *, int, int, int, void *, int *) { return 0; }
int gp_attr_delete(const char *, int, int, int) { return 0; }

/* ---- the reference: explicit type maps ------------------------------------ */

typedef struct {
    long off;
    int size; /* of the basic element */
} ent;

typedef struct {
    MPI_Datatype h;
    ent *map;
    int n;
    long lb, ub;
    int align, sticky;
} ref;

static int failures;
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        failures++;                                                                                \
        if (failures < 20) {                                                                       \
            printf("FAILED: ");                                                                    \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static ref basic(MPI_Datatype h, int size)
{
    ref r = {h, (ent *)malloc(sizeof(ent)), 1, 0, size, size, 0};
    r.map[0].off = 0;
    r.map[0].size = size;
    return r;
}

static long ext(const ref *r) { return r->ub - r->lb; }

/* count blocks: block i is bl[i] copies of kids[i] at disp[i] bytes */
static ref blocks(MPI_Datatype h, int count, const int *bl, const long *disp, ref **kids, int is_struct)
{
    ref r = {h, 0, 0, 0, 0, 1, 0};
    int cap = 0, any = 0;
    for (int i = 0; i < count; i++) {
        ref *k = kids[i];
        if (bl[i] <= 0) continue;
        if (k->align > r.align) r.align = k->align;
        r.sticky |= k->sticky;
        for (int j = 0; j < bl[i]; j++) {
            long o = disp[i] + j * ext(k);
            if (!any || o + k->lb < r.lb) r.lb = o + k->lb;
            if (!any || o + k->ub > r.ub) r.ub = o + k->ub;
            any = 1;
            for (int m = 0; m < k->n; m++) {
                if (r.n == cap) {
                    cap = cap ? 2 * cap : 16;
                    r.map = (ent *)realloc(r.map, sizeof(ent) * cap);
                }
                r.map[r.n].off = o + k->map[m].off;
                r.map[r.n].size = k->map[m].size;
                r.n++;
            }
        }
    }
    if (is_struct && any && !r.sticky && r.align > 1) {
        long e = r.ub - r.lb, rem = e % r.align;
        if (rem > 0) r.ub += r.align - rem;
    }
    return r;
}

static unsigned long long rng_state = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* ---- random types ---------------------------------------------------------- */

static ref random_type(int depth, int *budget);

static ref random_leafish(int depth, int *budget)
{
    if (depth <= 0 || rnd(3) == 0) {
        static const MPI_Datatype hs[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_SHORT};
        static const int ss[4] = {4, 8, 1, 2};
        int k = rnd(4);
        ref r = basic(hs[k], ss[k]);
        r.align = ss[k];
        return r;
    }
    return random_type(depth - 1, budget);
}

static ref *heap_ref(ref r)
{
    ref *p = (ref *)malloc(sizeof(ref));
    *p = r;
    return p;
}

static void free_ref(ref *r)
{
    if (r->h >= GP_FIRST_DERIVED) MPI_Type_free(&r->h);
    free(r->map);
}

static ref random_type(int depth, int *budget)
{
    ref old = random_leafish(depth, budget);
    ref r;
    MPI_Datatype h = MPI_DATATYPE_NULL;
    int kind = rnd(9);
    long e = ext(&old);
    if (old.n * 8 > *budget) kind = 7; /* keep maps small: only resize */
    switch (kind) {
    case 0: { /* contiguous */
        int n = rnd(4);
        MPI_Type_contiguous(n, old.h, &h);
        int bl = n;
        long d = 0;
        ref *k = &old;
        r = blocks(h, 1, &bl, &d, &k, 0);
        break;
    }
    case 1:
    case 2: { /* vector / hvector, strides maybe negative or overlapping */
        int count = rnd(5), blen = rnd(3) + (rnd(4) == 0 ? 0 : 1);
        int stride = (int)rnd(7) - 2;
        int bls[8];
        long ds[8];
        ref *ks[8];
        if (kind == 1) {
            MPI_Type_vector(count, blen, stride, old.h, &h);
            for (int i = 0; i < count; i++) ds[i] = (long)i * stride * e;
        } else {
            long hs = (long)stride * 3 + rnd(2) * e;
            MPI_Type_create_hvector(count, blen, hs, old.h, &h);
            for (int i = 0; i < count; i++) ds[i] = i * hs;
        }
        for (int i = 0; i < count; i++) bls[i] = blen, ks[i] = &old;
        r = blocks(h, count, bls, ds, ks, 0);
        break;
    }
    case 3:
    case 4:
    case 5: { /* indexed, hindexed, indexed_block */
        int count = rnd(6), bls[8], di[8];
        long ds[8];
        MPI_Aint ad[8];
        ref *ks[8];
        int blen = rnd(3);
        for (int i = 0; i < count; i++) {
            bls[i] = kind == 5 ? blen : (int)rnd(4);
            di[i] = (int)rnd(12) - 3;
            ks[i] = &old;
        }
        if (kind == 3) {
            MPI_Type_indexed(count, bls, di, old.h, &h);
            for (int i = 0; i < count; i++) ds[i] = di[i] * e;
        } else if (kind == 4) {
            for (int i = 0; i < count; i++) ad[i] = ds[i] = di[i] * 5 + rnd(3);
            MPI_Type_create_hindexed(count, bls, ad, old.h, &h);
        } else {
            MPI_Type_create_indexed_block(count, blen, di, old.h, &h);
            for (int i = 0; i < count; i++) ds[i] = di[i] * e;
        }
        r = blocks(h, count, bls, ds, ks, 0);
        break;
    }
    case 6: { /* struct of up to 3 random children */
        int count = 1 + rnd(3), bls[3];
        long ds[3];
        MPI_Aint ad[3];
        MPI_Datatype ts[3];
        ref kid[3], *ks[3];
        long at = 0;
        kid[0] = old;
        for (int i = 1; i < count; i++) kid[i] = random_leafish(depth - 1, budget);
        for (int i = 0; i < count; i++) {
            bls[i] = rnd(3);
            at += rnd(2) * 4 * (long)(1 + rnd(3)) - (rnd(5) == 0 ? 16 : 0);
            ad[i] = ds[i] = at;
            at += bls[i] * (ext(&kid[i]) > 0 ? ext(&kid[i]) : 0);
            ts[i] = kid[i].h;
            ks[i] = &kid[i];
        }
        MPI_Type_create_struct(count, bls, ad, ts, &h);
        r = blocks(h, count, bls, ds, ks, 1);
        for (int i = 1; i < count; i++) free_ref(&kid[i]);
        break;
    }
    case 7: { /* resized */
        long lb = (long)rnd(9) - 4, ex = (long)rnd(24);
        MPI_Type_create_resized(old.h, lb, ex, &h);
        r = old;
        r.map = (ent *)malloc(sizeof(ent) * (old.n ? old.n : 1));
        if (old.n) memcpy(r.map, old.map, sizeof(ent) * old.n);
        r.h = h;
        r.lb = lb;
        r.ub = lb + ex;
        r.sticky = 1;
        break;
    }
    default: { /* dup */
        MPI_Type_dup(old.h, &h);
        r = old;
        r.map = (ent *)malloc(sizeof(ent) * (old.n ? old.n : 1));
        if (old.n) memcpy(r.map, old.map, sizeof(ent) * old.n);
        r.h = h;
        break;
    }
    }
    *budget -= r.n;
    free_ref(&old); /* the new type keeps what it needs */
    return r;
}

/* ---- checks ---------------------------------------------------------------- */

enum { SPAN = 1 << 16 };
static unsigned char src[SPAN], dst1[SPAN], dst2[SPAN], packed1[SPAN], packed2[SPAN];

static void check_type(ref *r, int count)
{
    const gp_tobj *o = gp_tobj_of(r->h);
    long size = 0, tlb = 0, tub = 0;
    for (int m = 0; m < r->n; m++) {
        size += r->map[m].size;
        long a = r->map[m].off, b = a + r->map[m].size;
        if (m == 0 || a < tlb) tlb = a;
        if (m == 0 || b > tub) tub = b;
    }
    if (o->size != size || o->lb != r->lb || o->ub != r->ub || (size && (o->true_lb != tlb || o->true_ub != tub))) {
        FAIL("type %d: size %ld lb %ld ub %ld true %ld..%ld, reference %ld %ld %ld %ld..%ld", r->h, (long)o->size,
             (long)o->lb, (long)o->ub, (long)o->true_lb, (long)o->true_ub, size, r->lb, r->ub, tlb, tub);
        return;
    }
    if (o->nelems != r->n) FAIL("type %d: %lld elements, reference %d", r->h, (long long)o->nelems, r->n);
    /* place the buffer so every element's bytes are inside it */
    long e = ext(r), lo = 0, hi = 0;
    for (int i = 0; i < count; i++)
        for (int m = 0; m < r->n; m++) {
            long a = i * e + r->map[m].off;
            if (a < lo) lo = a;
            if (a + r->map[m].size > hi) hi = a + r->map[m].size;
        }
    if (hi - lo > SPAN || size * count > SPAN - 16) return;
    long base = -lo;
    for (int i = 0; i < SPAN; i++) src[i] = (unsigned char)rnd(256);
    /* reference pack */
    long p = 0;
    for (int i = 0; i < count; i++)
        for (int m = 0; m < r->n; m++) {
            memcpy(packed1 + p, src + base + i * e + r->map[m].off, r->map[m].size);
            p += r->map[m].size;
        }
    memset(packed2, 0xee, p + 8);
    gp_type_pack(src + base, count, r->h, packed2);
    if (memcmp(packed1, packed2, p) || packed2[p] != 0xee) {
        FAIL("type %d count %d: pack differs from the type map", r->h, count);
        return;
    }
    const void *first;
    if (gp_type_contiguous(r->h, count, src + base, &first) &&
        memcmp((const char *)first, packed1, p))
        FAIL("type %d count %d: said contiguous but is not", r->h, count);
    /* unpack, whole and a prefix ending at a basic element */
    int cut = r->n ? (int)rnd(r->n * count + 1) : 0;
    long cut_bytes = 0;
    for (int k = 0; k < cut; k++) cut_bytes += r->map[k % r->n].size;
    for (int pass = 0; pass < 2; pass++) {
        long bytes = pass ? cut_bytes : p;
        memset(dst1, 0x11, hi - lo);
        memset(dst2, 0x11, hi - lo);
        long q = 0;
        for (int i = 0; i < count && q < bytes; i++)
            for (int m = 0; m < r->n && q < bytes; m++) {
                memcpy(dst1 + base + i * e + r->map[m].off, packed1 + q, r->map[m].size);
                q += r->map[m].size;
            }
        gp_type_unpack(packed1, bytes, dst2 + base, count, r->h);
        if (memcmp(dst1, dst2, hi - lo)) FAIL("type %d count %d: unpack of %ld bytes differs", r->h, count, bytes);
        MPI_Status st;
        st.gp_count_bytes = (int)bytes;
        int n;
        MPI_Get_elements(&st, r->h, &n);
        int want = pass ? cut : r->n * count;
        if (size == 0) want = 0;
        if (n != want) FAIL("type %d: MPI_Get_elements of %ld bytes is %d, reference %d", r->h, bytes, n, want);
    }
}

static ref ref_vector(int count, int bl, int stride, ref *old)
{
    MPI_Datatype h;
    MPI_Type_vector(count, bl, stride, old->h, &h);
    int bls[64];
    long ds[64];
    ref *ks[64];
    for (int i = 0; i < count; i++) bls[i] = bl, ds[i] = (long)i * stride * ext(old), ks[i] = old;
    return blocks(h, count, bls, ds, ks, 0);
}

static ref ref_struct(int count, const int *bls, const long *ds, ref **ks)
{
    MPI_Datatype h, ts[8];
    MPI_Aint ad[8];
    for (int i = 0; i < count; i++) ts[i] = ks[i]->h, ad[i] = ds[i];
    MPI_Type_create_struct(count, bls, ad, ts, &h);
    return blocks(h, count, bls, ds, ks, 1);
}

/* Layouts where runs meet and merge (or must not): a strided step
 * continued by one of another stride, by a single run, blocks evenly then
 * unevenly spaced, a step continued by one of another length. */
static void merge_edges(void)
{
    ref i4 = basic(MPI_INT, 4), d8 = basic(MPI_DOUBLE, 8);
    i4.align = 4, d8.align = 8;
    ref a = ref_vector(3, 1, 2, &i4), b = ref_vector(2, 1, 3, &i4), c = ref_vector(4, 1, 2, &i4);
    ref e = ref_vector(2, 2, 3, &i4), f = ref_vector(3, 1, 1, &d8);
    struct {
        int n;
        int bl[4];
        long d[4];
        ref *k[4];
    } cases[] = {
        {2, {1, 1}, {0, 24}, {&a, &b}},            /* stride 8 then stride 12, meeting at 24 */
        {2, {1, 1}, {0, 24}, {&a, &c}},            /* stride 8 then stride 8, meeting */
        {3, {1, 1, 1}, {0, 24, 28}, {&a, &i4, &i4}}, /* a strided step, then single runs */
        {3, {1, 1, 1}, {0, 8, 20}, {&i4, &i4, &i4}}, /* evenly, then not */
        {2, {1, 1}, {0, 20}, {&e, &a}},            /* runs of 8 then runs of 4 */
        {2, {1, 1}, {0, 24}, {&f, &a}},            /* one run then a strided step */
        {2, {2, 1}, {0, 48}, {&a, &b}},            /* two copies of a strided step */
        {4, {1, 1, 1, 1}, {12, 8, 4, 0}, {&i4, &i4, &i4, &i4}}, /* backwards */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ref r = ref_struct(cases[i].n, cases[i].bl, cases[i].d, cases[i].k);
        MPI_Type_commit(&r.h);
        for (int count = 1; count < 4; count++) check_type(&r, count);
        free_ref(&r);
    }
    free_ref(&a), free_ref(&b), free_ref(&c), free_ref(&e), free_ref(&f);
    free(i4.map), free(d8.map);
}

static int steps(MPI_Datatype t) { return gp_tobj_of(t)->nent; }

static void compactness(void)
{
    MPI_Datatype v, c, s, sv, x;
    MPI_Type_vector(1000, 1, 2, MPI_DOUBLE, &v);
    if (steps(v) != 1) FAIL("vector of doubles: %d steps", steps(v));
    MPI_Type_free(&v);
    MPI_Type_vector(1000, 3, 4, MPI_INT, &v);
    if (steps(v) != 1) FAIL("vector of int blocks: %d steps", steps(v));
    MPI_Type_contiguous(100, v, &c);
    if (steps(c) != 1 || gp_tobj_of(c)->ents[0].child != gp_tobj_of(v)) FAIL("contiguous of a vector: one nest step");
    int bl[3] = {3, 1, 1};
    MPI_Aint d[3] = {0, 24, 28};
    MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
    MPI_Type_create_struct(3, bl, d, ty, &s); /* {double x[3]; int id; char tag;} */
    if (steps(s) != 1 || !gp_tobj_of(s)->run || gp_tobj_of(s)->ents[0].len != 29)
        FAIL("a struct without inner gaps is one run (%d steps)", steps(s));
    MPI_Type_contiguous(1000, s, &sv);
    if (steps(sv) != 1 || gp_tobj_of(sv)->ents[0].count != 1000 || gp_tobj_of(sv)->ents[0].stride != 32)
        FAIL("contiguous of a padded struct: one strided step (%d steps)", steps(sv));
    int idx[50];
    for (int i = 0; i < 50; i++) idx[i] = 3 * i;
    MPI_Type_create_indexed_block(50, 2, idx, MPI_FLOAT, &x);
    if (steps(x) != 1) FAIL("evenly spaced indexed blocks: one strided step (%d steps)", steps(x));
    MPI_Datatype all[5] = {v, c, s, sv, x};
    for (int i = 0; i < 5; i++) MPI_Type_free(&all[i]);
}

int main(int argc, char **argv)
{
    if (argc > 1) rng_state = strtoull(argv[1], 0, 10) * 2654435761ull + 1;
    int cases = argc > 2 ? atoi(argv[2]) : 3000;
    static gp_rank one;
    static gp_world w;
    w.nranks = 1;
    w.ranks = &one;
    gp_world_ptr = &w;
    gp_hot.ranks = &one;
    gp_hot.nranks = 1;
    compactness();
    merge_edges();
    for (int c = 0; c < cases; c++) {
        int budget = 3000;
        ref r = random_type(1 + rnd(4), &budget);
        MPI_Type_commit(&r.h);
        for (int count = 0; count < 4; count++) check_type(&r, count);
        free_ref(&r);
    }
    gp_type_state *s = gp_types();
    int live = 0;
    for (int i = 0; i < s->nslots; i++) live += s->slots[i].obj != 0;
    if (live) FAIL("%d datatype handles still live after freeing every one", live);
    if (raised) FAIL("%d errors raised", raised);
    printf("%d random types: %s\n", cases, failures ? "FAILED" : "ok");
    return failures != 0;
}
