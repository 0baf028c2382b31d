/* Groups and MPI_Comm_create: every group constructor, ranks and sizes,
 * MPI_Group_translate_ranks, MPI_Group_compare, and communicators made
 * from groups. Self-checking: rank 0 prints " No Errors" when every check
 * passed on every rank. Any number of ranks >= 1; work per rank is
 * O(n log n) at most, memory O(n) only in temporary rank lists. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpitest.h"

static int gsize(MPI_Group g)
{
    int n = -1;
    MPI_Group_size(g, &n);
    return n;
}

static int grank(MPI_Group g)
{
    int r = -2;
    MPI_Group_rank(g, &r);
    return r;
}

static int compare(MPI_Group a, MPI_Group b)
{
    int c = -1;
    MPI_Group_compare(a, b, &c);
    return c;
}

/* world rank of position i of g (through translate_ranks) */
static int world_of(MPI_Group g, MPI_Group world, int i)
{
    int w = -5;
    MPI_Group_translate_ranks(g, 1, &i, world, &w);
    return w;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int n = size;
    int *list = malloc(sizeof(int) * (n + 1));

    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    CHECK(gsize(world) == n && grank(world) == rank, "world group: size %d rank %d", gsize(world), grank(world));

    /* evens, listed in reverse (incl) */
    int ne = (n + 1) / 2, k = 0;
    for (int i = ne - 1; i >= 0; i--) list[k++] = 2 * i;
    MPI_Group evens_rev;
    MPI_Group_incl(world, ne, list, &evens_rev);
    CHECK(gsize(evens_rev) == ne, "incl: size %d, want %d", gsize(evens_rev), ne);
    int want = rank % 2 ? MPI_UNDEFINED : ne - 1 - rank / 2;
    CHECK(grank(evens_rev) == want, "incl: rank %d, want %d", grank(evens_rev), want);
    CHECK(world_of(evens_rev, world, 0) == 2 * (ne - 1), "incl: position 0 is world %d", world_of(evens_rev, world, 0));

    /* evens in order, by range_incl and by excl of the odds */
    int range[1][3] = {{0, n - 1, 2}};
    MPI_Group evens;
    MPI_Group_range_incl(world, 1, range, &evens);
    CHECK(gsize(evens) == ne, "range_incl: size %d, want %d", gsize(evens), ne);
    CHECK(grank(evens) == (rank % 2 ? MPI_UNDEFINED : rank / 2), "range_incl: rank %d", grank(evens));
    k = 0;
    for (int i = 1; i < n; i += 2) list[k++] = i;
    MPI_Group evens2;
    MPI_Group_excl(world, k, list, &evens2);
    CHECK(compare(evens, evens2) == MPI_IDENT, "range_incl vs excl of the odds: %d", compare(evens, evens2));
    CHECK(compare(evens, evens_rev) == (ne > 1 ? MPI_SIMILAR : MPI_IDENT), "evens vs reversed evens: %d",
          compare(evens, evens_rev));
    CHECK(compare(world, world) == MPI_IDENT, "world vs world");
    CHECK(compare(world, evens) == (n > 1 ? MPI_UNEQUAL : MPI_IDENT), "world vs evens: %d", compare(world, evens));

    /* odds by range_excl; a descending range; several ranges at once */
    MPI_Group odds;
    MPI_Group_range_excl(world, 1, range, &odds);
    CHECK(gsize(odds) == n / 2, "range_excl: size %d, want %d", gsize(odds), n / 2);
    CHECK(grank(odds) == (rank % 2 ? rank / 2 : MPI_UNDEFINED), "range_excl: rank %d", grank(odds));
    int down[1][3] = {{n - 1, 0, -1}};
    MPI_Group rev;
    MPI_Group_range_incl(world, 1, down, &rev);
    CHECK(grank(rev) == n - 1 - rank, "descending range: rank %d", grank(rev));
    CHECK(compare(rev, world) == (n > 1 ? MPI_SIMILAR : MPI_IDENT), "reversed world vs world: %d",
          compare(rev, world));
    if (n >= 4) {
        int two[2][3] = {{n - 1, n - 1, 1}, {0, n / 2 - 1, 1}}; /* the last rank, then the first half */
        MPI_Group g2;
        MPI_Group_range_incl(world, 2, two, &g2);
        CHECK(gsize(g2) == 1 + n / 2, "two ranges: size %d", gsize(g2));
        want = rank == n - 1 ? 0 : rank < n / 2 ? rank + 1 : MPI_UNDEFINED;
        CHECK(grank(g2) == want, "two ranges: rank %d, want %d", grank(g2), want);
        MPI_Group_free(&g2);
    }

    /* union, intersection, difference */
    MPI_Group u, x, d, empty_x;
    MPI_Group_union(evens, odds, &u);
    CHECK(gsize(u) == n, "union: size %d", gsize(u));
    /* evens first, then odds */
    want = rank % 2 ? ne + rank / 2 : rank / 2;
    CHECK(grank(u) == want, "union: rank %d, want %d", grank(u), want);
    CHECK(compare(u, world) == (n > 2 ? MPI_SIMILAR : MPI_IDENT), "union vs world: %d", compare(u, world));
    MPI_Group_intersection(evens_rev, evens, &x);
    CHECK(compare(x, evens_rev) == MPI_IDENT, "intersection keeps the first group's order: %d",
          compare(x, evens_rev));
    MPI_Group_intersection(evens, odds, &empty_x);
    CHECK(gsize(empty_x) == 0 && compare(empty_x, MPI_GROUP_EMPTY) == MPI_IDENT, "disjoint intersection is empty");
    CHECK(grank(empty_x) == MPI_UNDEFINED, "rank in the empty group");
    MPI_Group_difference(world, odds, &d);
    CHECK(compare(d, evens) == MPI_IDENT, "world minus odds vs evens: %d", compare(d, evens));
    MPI_Group self_d, u2;
    MPI_Group_difference(world, world, &self_d);
    CHECK(gsize(self_d) == 0, "world minus world: size %d", gsize(self_d));
    MPI_Group_union(rev, evens, &u2);
    CHECK(compare(u2, rev) == MPI_IDENT, "union with a subset keeps the first order: %d", compare(u2, rev));

    /* translate_ranks: all of evens_rev into world, world into evens,
     * with MPI_PROC_NULL */
    k = 0;
    for (int i = 0; i < ne; i++) list[i] = i;
    int *out = malloc(sizeof(int) * (n + 1));
    MPI_Group_translate_ranks(evens_rev, ne, list, world, out);
    int ok = 1;
    for (int i = 0; i < ne; i++) ok &= out[i] == 2 * (ne - 1 - i);
    CHECK(ok, "translate evens_rev -> world");
    for (int i = 0; i < n; i++) list[i] = i;
    list[n] = MPI_PROC_NULL;
    MPI_Group_translate_ranks(world, n + 1, list, evens, out);
    ok = out[n] == MPI_PROC_NULL;
    for (int i = 0; i < n; i++) ok &= out[i] == (i % 2 ? MPI_UNDEFINED : i / 2);
    CHECK(ok, "translate world -> evens (odds undefined, MPI_PROC_NULL kept)");

    /* an irregular group (ranks 0 and 3 mod 4, descending): built from a
     * list that is not a progression */
    k = 0;
    for (int i = n - 1; i >= 0; i--)
        if (i % 4 == 0 || i % 4 == 3) list[k++] = i;
    MPI_Group irr;
    MPI_Group_incl(world, k, list, &irr);
    want = MPI_UNDEFINED;
    for (int i = 0; i < k; i++)
        if (list[i] == rank) want = i;
    CHECK(grank(irr) == want, "irregular group: rank %d, want %d", grank(irr), want);

    /* MPI_Comm_create from the reversed evens and from the irregular group */
    MPI_Comm ce;
    MPI_Comm_create(MPI_COMM_WORLD, evens_rev, &ce);
    if (rank % 2) {
        CHECK(ce == MPI_COMM_NULL, "Comm_create: non-member gets MPI_COMM_NULL");
    } else {
        int cr = -1, cs = -1;
        MPI_Comm_rank(ce, &cr);
        MPI_Comm_size(ce, &cs);
        CHECK(cs == ne && cr == ne - 1 - rank / 2, "Comm_create: size %d rank %d", cs, cr);
        MPI_Group cg;
        MPI_Comm_group(ce, &cg);
        CHECK(compare(cg, evens_rev) == MPI_IDENT, "Comm_group of the new comm vs its group: %d",
              compare(cg, evens_rev));
        MPI_Group_free(&cg);
        /* traffic: a ring, statuses in comm ranks */
        int right = (cr + 1) % cs, left = (cr - 1 + cs) % cs, v = -1;
        MPI_Status st;
        MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &v, 1, MPI_INT, MPI_ANY_SOURCE, 1, ce, &st);
        CHECK(v == 2 * (ne - 1 - left) && st.MPI_SOURCE == left, "Comm_create ring: %d from %d", v, st.MPI_SOURCE);
        long sum = 0, mine = rank, want_sum = 0;
        for (int i = 0; i < n; i += 2) want_sum += i;
        MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, ce);
        CHECK(sum == want_sum, "Comm_create allreduce %ld, want %ld", sum, want_sum);
        MPI_Comm_free(&ce);
    }
    MPI_Comm ci;
    MPI_Comm_create(MPI_COMM_WORLD, irr, &ci);
    if (grank(irr) == MPI_UNDEFINED) {
        CHECK(ci == MPI_COMM_NULL, "Comm_create (irregular): non-member gets MPI_COMM_NULL");
    } else {
        int cr = -1, cs = -1;
        MPI_Comm_rank(ci, &cr);
        MPI_Comm_size(ci, &cs);
        CHECK(cs == k && cr == grank(irr), "Comm_create (irregular): size %d rank %d", cs, cr);
        int root_world = list[k - 1], v = rank == root_world ? 77 : 0;
        MPI_Bcast(&v, 1, MPI_INT, k - 1, ci);
        CHECK(v == 77, "Comm_create (irregular): bcast from the last rank got %d", v);
        MPI_Group cg;
        MPI_Comm_group(ci, &cg);
        int back = -1, pos = k - 1;
        MPI_Group_translate_ranks(cg, 1, &pos, world, &back);
        CHECK(back == root_world, "translate from the new comm's group: %d, want %d", back, root_world);
        MPI_Group_free(&cg);
        MPI_Comm_free(&ci);
    }
    /* MPI_Comm_create_group: called by the group's members only */
    if (grank(irr) != MPI_UNDEFINED) {
        MPI_Comm cg;
        MPI_Comm_create_group(MPI_COMM_WORLD, irr, 5, &cg);
        int cr = -1, cs = -1;
        MPI_Comm_rank(cg, &cr);
        MPI_Comm_size(cg, &cs);
        CHECK(cs == k && cr == grank(irr), "Comm_create_group: size %d rank %d", cs, cr);
        int right = (cr + 1) % cs, left = (cr - 1 + cs) % cs, v = -1;
        MPI_Status st;
        MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &v, 1, MPI_INT, MPI_ANY_SOURCE, 1, cg, &st);
        CHECK(v == list[left] && st.MPI_SOURCE == left, "Comm_create_group ring: %d from %d", v, st.MPI_SOURCE);
        long sum = 0, mine = rank, want_sum = 0;
        for (int i = 0; i < k; i++) want_sum += list[i];
        MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, cg);
        CHECK(sum == want_sum, "Comm_create_group allreduce %ld, want %ld", sum, want_sum);
        MPI_Comm_free(&cg);
    }
    if (rank % 2) { /* the odds, twice at once with different tags */
        MPI_Comm o1, o2;
        MPI_Comm_create_group(MPI_COMM_WORLD, odds, 1, &o1);
        MPI_Comm_create_group(MPI_COMM_WORLD, odds, 2, &o2);
        int r1 = -1, r2 = -1, s1 = 0;
        MPI_Comm_rank(o1, &r1);
        MPI_Comm_rank(o2, &r2);
        CHECK(r1 == rank / 2 && r2 == rank / 2, "Comm_create_group of the odds: ranks %d %d", r1, r2);
        MPI_Allreduce(&r1, &s1, 1, MPI_INT, MPI_SUM, o2);
        CHECK(s1 == (n / 2) * (n / 2 - 1) / 2, "Comm_create_group of the odds: allreduce %d", s1);
        MPI_Comm_free(&o1);
        MPI_Comm_free(&o2);
    }

    /* a communicator of a subcommunicator's group */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    MPI_Group hg, hsub;
    MPI_Comm_group(half, &hg);
    int hsize = gsize(hg), first_two[2] = {0, 1};
    MPI_Group_incl(hg, hsize < 2 ? hsize : 2, first_two, &hsub);
    MPI_Comm hc;
    MPI_Comm_create(half, hsub, &hc);
    int hr = grank(hsub);
    if (hr == MPI_UNDEFINED) {
        CHECK(hc == MPI_COMM_NULL, "Comm_create on a split: non-member gets MPI_COMM_NULL");
    } else {
        int cs = -1, cr = -1;
        MPI_Comm_size(hc, &cs);
        MPI_Comm_rank(hc, &cr);
        CHECK(cs == gsize(hsub) && cr == hr, "Comm_create on a split: size %d rank %d", cs, cr);
        int mx = -1;
        MPI_Allreduce(&rank, &mx, 1, MPI_INT, MPI_MAX, hc);
        int top = (n - 1) % 2 == rank % 2 ? n - 1 : n - 2;
        CHECK(mx == top, "Comm_create on a split: max %d, want %d", mx, top);
        MPI_Comm_free(&hc);
    }
    MPI_Comm_free(&half);
    MPI_Group_free(&hsub);
    MPI_Group_free(&hg);

    /* MPI_GROUP_EMPTY */
    CHECK(gsize(MPI_GROUP_EMPTY) == 0, "MPI_GROUP_EMPTY has size 0");
    MPI_Comm cn;
    MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &cn);
    CHECK(cn == MPI_COMM_NULL, "Comm_create of the empty group gives MPI_COMM_NULL");
    MPI_Group none;
    MPI_Group_incl(world, 0, list, &none);
    CHECK(gsize(none) == 0 && compare(none, MPI_GROUP_EMPTY) == MPI_IDENT, "incl of no ranks is empty");

    /* disjoint groups (MPI-2.2): each rank passes the group of its own
     * third of the world, and gets a communicator of that third */
    {
        int third = rank * 3 / size, lo = (third * size + 2) / 3, hi = ((third + 1) * size + 2) / 3;
        int range[1][3] = {{lo, hi - 1, 1}};
        MPI_Group mine;
        MPI_Group_range_incl(world, 1, range, &mine);
        MPI_Comm ct;
        MPI_Comm_create(MPI_COMM_WORLD, mine, &ct);
        int cs = -1, cr = -1;
        if (ct != MPI_COMM_NULL) MPI_Comm_size(ct, &cs), MPI_Comm_rank(ct, &cr);
        CHECK(ct != MPI_COMM_NULL && cs == hi - lo && cr == rank - lo,
              "Comm_create of disjoint groups: size %d rank %d, want %d and %d", cs, cr, hi - lo, rank - lo);
        int sum = -1;
        if (ct != MPI_COMM_NULL) MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ct);
        CHECK(sum == (lo + hi - 1) * (hi - lo) / 2, "Comm_create of disjoint groups: allreduce %d", sum);
        if (ct != MPI_COMM_NULL) MPI_Comm_free(&ct);
        MPI_Group_free(&mine);
    }

    MPI_Group *all[] = {&world, &evens_rev, &evens, &evens2, &odds, &rev, &u, &x, &d, &empty_x, &self_d, &u2, &irr, &none};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++) {
        MPI_Group_free(all[i]);
        CHECK(*all[i] == MPI_GROUP_NULL, "Group_free sets MPI_GROUP_NULL (%u)", i);
    }
    free(list);
    free(out);

    return mt_finish();
}
