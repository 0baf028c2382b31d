/* Rank lists of communicators and groups: a progression of world ranks
 * kept as (first, stride), or one map shared by the members and reference
 * counted. World -> position lookups are O(1) for progressions and a
 * binary search otherwise, never a scan. */
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN int gp_ranks_world(const gp_ranks *r, int i)
{
    return r->map ? r->map->world[i] : r->first + i * r->stride;
}

GPUMPI_FN int gp_ranks_find(const gp_ranks *r, int world)
{
    if (!r->map) {
        int d = world - r->first;
        if (r->stride == 1) return d >= 0 && d < r->size ? d : MPI_UNDEFINED;
        if (d % r->stride) return MPI_UNDEFINED;
        int i = d / r->stride;
        return i >= 0 && i < r->size ? i : MPI_UNDEFINED;
    }
    const int64_t *a = r->map->by_world;
    int lo = 0, hi = r->size; /* the first entry whose world rank is >= world */
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if ((int)(a[mid] >> 32) < world)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->size && (int)(a[lo] >> 32) == world ? (int)(uint32_t)a[lo] : MPI_UNDEFINED;
}

GPUMPI_FN int gp_ranks_sorted(const gp_ranks *r, int i)
{
    if (r->map) return (int)(r->map->by_world[i] >> 32);
    return r->stride > 0 ? r->first + i * r->stride : r->first + (r->size - 1 - i) * r->stride;
}

GPUMPI_FN void gp_ranks_retain(const gp_ranks *r)
{
    if (r->map) gp_fetch_add(&r->map->refs, 1);
}

GPUMPI_FN void gp_ranks_release(gp_ranks *r)
{
    if (r->map && gp_fetch_add(&r->map->refs, (uint32_t)-1) == 1) gp_free(r->map);
    r->map = 0;
}

GPUMPI_FN gp_rankmap *gp_rankmap_new(int n, uint32_t refs)
{
    size_t head = (sizeof(gp_rankmap) + 7) & ~(size_t)7;
    gp_rankmap *m = (gp_rankmap *)gp_malloc(head + (size_t)n * (sizeof(int64_t) + sizeof(int)));
    if (!m) return 0;
    m->refs = refs;
    m->n = n;
    m->by_world = (int64_t *)((char *)m + head);
    m->world = (int *)(m->by_world + n);
    return m;
}

/* Heapsort: in place, O(n log n), no recursion (the GPU stack is small). */
GPUMPI_FN static void gp_sift_down(int64_t *a, int root, int n)
{
    for (;;) {
        int child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && a[child + 1] > a[child]) child++;
        if (a[root] >= a[child]) return;
        int64_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

GPUMPI_FN void gp_sort64(int64_t *a, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--) gp_sift_down(a, i, n);
    for (int end = n - 1; end > 0; end--) {
        int64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        gp_sift_down(a, 0, end);
    }
}

GPUMPI_FN int gp_ranks_from_list(gp_ranks *r, const int *world, int n)
{
    r->size = n;
    r->map = 0;
    r->first = n ? world[0] : 0;
    r->stride = n > 1 ? world[1] - world[0] : 1;
    int regular = r->stride != 0;
    for (int i = 2; i < n && regular; i++) regular = world[i] - world[i - 1] == r->stride;
    if (regular) return MPI_SUCCESS;
    gp_rankmap *m = gp_rankmap_new(n, 1);
    if (!m) return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        m->world[i] = world[i];
        m->by_world[i] = ((int64_t)world[i] << 32) | (uint32_t)i;
    }
    gp_sort64(m->by_world, n);
    for (int i = 1; i < n; i++)
        if ((m->by_world[i] >> 32) == (m->by_world[i - 1] >> 32)) {
            gp_free(m);
            return MPI_ERR_RANK;
        }
    r->map = m;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_ranks_compare(const gp_ranks *a, const gp_ranks *b)
{
    if (a->size != b->size) return MPI_UNEQUAL;
    int n = a->size, same = 1;
    if (a->map && a->map == b->map) return MPI_IDENT;
    if (!a->map && !b->map && (n <= 1 || (a->first == b->first && a->stride == b->stride)))
        return n == 0 || a->first == b->first ? MPI_IDENT : MPI_UNEQUAL;
    for (int i = 0; i < n && same; i++) same = gp_ranks_world(a, i) == gp_ranks_world(b, i);
    if (same) return MPI_IDENT;
    for (int i = 0; i < n; i++)
        if (gp_ranks_sorted(a, i) != gp_ranks_sorted(b, i)) return MPI_UNEQUAL;
    return MPI_SIMILAR;
}
