/* Groups: local objects, each a list of world ranks (gp_ranks: a
 * progression needs no memory; a group taken from a communicator shares
 * its map). Group constructors build the new list once, then look ranks up
 * by world rank (O(1) or a binary search), so union, intersection and
 * difference cost O(n log n), not O(n^2). */
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN gp_group *gp_group_find(MPI_Group g)
{
    gp_comm_state *cs = gp_cs();
    int i = g - GP_GROUP_BASE;
    return i >= 0 && i < cs->ngroups && cs->groups[i].live ? &cs->groups[i] : 0;
}

GPUMPI_FN int gp_group_check(const char *fn, MPI_Group g)
{
    GP_TRY(gp_check_initialized(fn));
    if (g == MPI_GROUP_EMPTY || gp_group_find(g)) return MPI_SUCCESS;
    if (g == MPI_GROUP_NULL) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_GROUP, "the group is MPI_GROUP_NULL");
    return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_GROUP, "invalid group %d (never created, or freed)", (int)g);
}

/* The ranks of a valid group handle (MPI_GROUP_EMPTY has none). */
GPUMPI_FN static gp_ranks gp_group_ranks(MPI_Group g)
{
    gp_group *p = gp_group_find(g);
    if (p) return p->ranks;
    gp_ranks none = {0, 0, 1, 0};
    return none;
}

GPUMPI_FN MPI_Group gp_group_make(const gp_ranks *ranks)
{
    if (ranks->size == 0) {
        gp_ranks r = *ranks;
        gp_ranks_release(&r);
        return MPI_GROUP_EMPTY;
    }
    gp_comm_state *cs = gp_cs();
    int i = 0;
    while (i < cs->ngroups && cs->groups[i].live) i++;
    if (i == cs->ngroups) {
        if (!gp_table_reserve((void **)&cs->groups, &cs->cap_groups, i + 1, sizeof(gp_group)))
            gp_fatal("MPI_Comm_group", MPI_ERR_NO_MEM, "no device heap left for %d groups", i + 1);
        cs->ngroups++;
    }
    gp_group *g = &cs->groups[i];
    g->live = 1;
    g->ranks = *ranks;
    g->rank = gp_ranks_find(ranks, gp_thread_rank());
    return GP_GROUP_BASE + i;
}

/* A group from a list of world ranks (consumed). */
GPUMPI_FN static int gp_group_from_list(const char *fn, int *world, int n, MPI_Group *out)
{
    gp_ranks r;
    int rc = gp_ranks_from_list(&r, world, n);
    gp_free(world);
    if (rc == MPI_ERR_RANK) return gp_err(MPI_COMM_WORLD, fn, rc, "a rank appears more than once");
    if (rc != MPI_SUCCESS) return gp_err(MPI_COMM_WORLD, fn, rc, "no device heap left for a %d-rank group", n);
    *out = gp_group_make(&r);
    return MPI_SUCCESS;
}

GPUMPI_FN static int *gp_rank_list(const char *fn, int n)
{
    int *p = (int *)gp_malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!p) gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a %d-rank list", n);
    return p;
}

GPUMPI_FN int MPI_Group_size(MPI_Group group, int *size)
{
    GP_TRY(gp_group_check("MPI_Group_size", group));
    *size = gp_group_ranks(group).size;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Group_rank(MPI_Group group, int *rank)
{
    GP_TRY(gp_group_check("MPI_Group_rank", group));
    gp_group *g = gp_group_find(group);
    *rank = g ? g->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Group_free(MPI_Group *group)
{
    if (!group) return gp_err(MPI_COMM_WORLD, "MPI_Group_free", MPI_ERR_ARG, "the group argument is NULL");
    GP_TRY(gp_group_check("MPI_Group_free", *group));
    gp_group *g = gp_group_find(*group);
    if (g) { /* MPI_GROUP_EMPTY is predefined: freeing the handle is all */
        gp_ranks_release(&g->ranks);
        g->live = 0;
    }
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_check_group_rank(const char *fn, int r, int size)
{
    if (r < 0 || r >= size)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_RANK, "invalid rank %d (the group has %d ranks)", r, size);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    GP_TRY(gp_group_check("MPI_Group_incl", group));
    gp_ranks g = gp_group_ranks(group);
    if (n < 0 || n > g.size)
        return gp_err(MPI_COMM_WORLD, "MPI_Group_incl", MPI_ERR_ARG, "invalid count %d (the group has %d ranks)", n,
                      g.size);
    for (int i = 0; i < n; i++) GP_TRY(gp_check_group_rank("MPI_Group_incl", ranks[i], g.size));
    int *w = gp_rank_list("MPI_Group_incl", n);
    for (int i = 0; i < n; i++) w[i] = gp_ranks_world(&g, ranks[i]);
    return gp_group_from_list("MPI_Group_incl", w, n, newgroup);
}

/* Marks ranks of a group, kept sorted so lookups are binary searches:
 * excl and range_excl need "is position i excluded" for every i. */
GPUMPI_FN static int gp_in_sorted(const int64_t *a, int n, int v)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == v;
}

/* The group without the positions in ex[0..nex) (sorted, distinct). */
GPUMPI_FN static int gp_group_without(const char *fn, const gp_ranks *g, int64_t *ex, int nex, MPI_Group *out)
{
    gp_sort64(ex, nex);
    for (int i = 1; i < nex; i++)
        if (ex[i] == ex[i - 1]) {
            gp_free(ex);
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_RANK, "rank %d is excluded twice", (int)ex[i]);
        }
    int n = g->size - nex, k = 0;
    int *w = gp_rank_list(fn, n);
    for (int i = 0; i < g->size; i++)
        if (!gp_in_sorted(ex, nex, i)) w[k++] = gp_ranks_world(g, i);
    gp_free(ex);
    return gp_group_from_list(fn, w, n, out);
}

GPUMPI_FN int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    GP_TRY(gp_group_check("MPI_Group_excl", group));
    gp_ranks g = gp_group_ranks(group);
    if (n < 0 || n > g.size)
        return gp_err(MPI_COMM_WORLD, "MPI_Group_excl", MPI_ERR_ARG, "invalid count %d (the group has %d ranks)", n,
                      g.size);
    for (int i = 0; i < n; i++) GP_TRY(gp_check_group_rank("MPI_Group_excl", ranks[i], g.size));
    int64_t *ex = (int64_t *)gp_malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    if (!ex) return gp_fatal("MPI_Group_excl", MPI_ERR_NO_MEM, "no device heap left for %d ranks", n);
    for (int i = 0; i < n; i++) ex[i] = ranks[i];
    return gp_group_without("MPI_Group_excl", &g, ex, n, newgroup);
}

/* The number of ranks in the triplets, after checking them. */
GPUMPI_FN static int gp_ranges_count(const char *fn, int n, int ranges[][3], int size, long *total)
{
    *total = 0;
    if (n < 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "invalid count %d", n);
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "range %d has stride 0", i);
        GP_TRY(gp_check_group_rank(fn, first, size));
        GP_TRY(gp_check_group_rank(fn, last, size));
        if ((stride > 0 && first > last) || (stride < 0 && first < last)) continue; /* empty */
        *total += (last - first) / stride + 1;
    }
    if (*total > size) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_RANK, "the ranges name %ld ranks, the group has %d", *total, size);
    return MPI_SUCCESS;
}

/* Expands the triplets into positions. */
GPUMPI_FN static void gp_ranges_expand(int n, int ranges[][3], int64_t *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) out[k++] = r;
    }
}

GPUMPI_FN int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    GP_TRY(gp_group_check("MPI_Group_range_incl", group));
    gp_ranks g = gp_group_ranks(group);
    long total;
    GP_TRY(gp_ranges_count("MPI_Group_range_incl", n, ranges, g.size, &total));
    int64_t *pos = (int64_t *)gp_malloc(sizeof(int64_t) * (size_t)(total ? total : 1));
    if (!pos) return gp_fatal("MPI_Group_range_incl", MPI_ERR_NO_MEM, "no device heap left for %ld ranks", total);
    gp_ranges_expand(n, ranges, pos);
    int *w = gp_rank_list("MPI_Group_range_incl", (int)total);
    for (long i = 0; i < total; i++) w[i] = gp_ranks_world(&g, (int)pos[i]);
    gp_free(pos);
    return gp_group_from_list("MPI_Group_range_incl", w, (int)total, newgroup);
}

GPUMPI_FN int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    GP_TRY(gp_group_check("MPI_Group_range_excl", group));
    gp_ranks g = gp_group_ranks(group);
    long total;
    GP_TRY(gp_ranges_count("MPI_Group_range_excl", n, ranges, g.size, &total));
    int64_t *ex = (int64_t *)gp_malloc(sizeof(int64_t) * (size_t)(total ? total : 1));
    if (!ex) return gp_fatal("MPI_Group_range_excl", MPI_ERR_NO_MEM, "no device heap left for %ld ranks", total);
    gp_ranges_expand(n, ranges, ex);
    return gp_group_without("MPI_Group_range_excl", &g, ex, (int)total, newgroup);
}

enum { GP_UNION, GP_INTERSECTION, GP_DIFFERENCE };

/* Union: group1, then group2's ranks not in group1, in group2's order.
 * Intersection and difference: group1's ranks in (not in) group2, in
 * group1's order. */
GPUMPI_FN static int gp_group_setop(const char *fn, int op, MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    GP_TRY(gp_group_check(fn, group1));
    GP_TRY(gp_group_check(fn, group2));
    gp_ranks a = gp_group_ranks(group1), b = gp_group_ranks(group2);
    int *w = gp_rank_list(fn, a.size + b.size);
    int k = 0;
    for (int i = 0; i < a.size; i++) {
        int x = gp_ranks_world(&a, i);
        int in_b = gp_ranks_find(&b, x) != MPI_UNDEFINED;
        if (op == GP_UNION || (op == GP_INTERSECTION) == in_b) w[k++] = x;
    }
    if (op == GP_UNION)
        for (int i = 0; i < b.size; i++) {
            int x = gp_ranks_world(&b, i);
            if (gp_ranks_find(&a, x) == MPI_UNDEFINED) w[k++] = x;
        }
    return gp_group_from_list(fn, w, k, newgroup);
}

GPUMPI_FN int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return gp_group_setop("MPI_Group_union", GP_UNION, group1, group2, newgroup);
}

GPUMPI_FN int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return gp_group_setop("MPI_Group_intersection", GP_INTERSECTION, group1, group2, newgroup);
}

GPUMPI_FN int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return gp_group_setop("MPI_Group_difference", GP_DIFFERENCE, group1, group2, newgroup);
}

GPUMPI_FN int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
    GP_TRY(gp_group_check("MPI_Group_translate_ranks", group1));
    GP_TRY(gp_group_check("MPI_Group_translate_ranks", group2));
    gp_ranks a = gp_group_ranks(group1), b = gp_group_ranks(group2);
    if (n < 0) return gp_err(MPI_COMM_WORLD, "MPI_Group_translate_ranks", MPI_ERR_ARG, "invalid count %d", n);
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL) GP_TRY(gp_check_group_rank("MPI_Group_translate_ranks", ranks1[i], a.size));
    for (int i = 0; i < n; i++)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : gp_ranks_find(&b, gp_ranks_world(&a, ranks1[i]));
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    GP_TRY(gp_group_check("MPI_Group_compare", group1));
    GP_TRY(gp_group_check("MPI_Group_compare", group2));
    gp_ranks a = gp_group_ranks(group1), b = gp_group_ranks(group2);
    *result = gp_ranks_compare(&a, &b);
    return MPI_SUCCESS;
}
