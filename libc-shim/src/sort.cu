/* qsort and bsearch. qsort is an introsort: quicksort with a median of
 * three, the smaller side first and the larger kept on a small explicit
 * stack (no recursion: a GPU thread's stack is small), heapsort for a range
 * that partitions badly too often (O(n log n) worst case), insertion sort
 * for short ranges. Not stable, like glibc's. */
#include "gpumpi/shim_stdlib.h"

typedef int (*gp_cmp_fn)(const void *, const void *);

/* qsort's comparison or qsort_r's, with its argument */
typedef struct gp_cmp_ctx {
    gp_cmp_fn cmp2;
    int (*cmp3)(const void *, const void *, void *);
    void *arg;
} gp_cmp_ctx;

GPUMPI_FN static int gp_cmpc(const gp_cmp_ctx *c, const void *a, const void *b)
{
    return c->cmp3 ? c->cmp3(a, b, c->arg) : c->cmp2(a, b);
}

GPUMPI_FN static void gp_swap(char *a, char *b, size_t size)
{
    if (a == b) return;
    if (((((uintptr_t)a | (uintptr_t)b | size) & 7) == 0)) {
        uint64_t *x = (uint64_t *)a, *y = (uint64_t *)b;
        for (size_t i = 0; i < size / 8; i++) {
            uint64_t t = x[i];
            x[i] = y[i];
            y[i] = t;
        }
        return;
    }
    if (((((uintptr_t)a | (uintptr_t)b | size) & 3) == 0)) {
        uint32_t *x = (uint32_t *)a, *y = (uint32_t *)b;
        for (size_t i = 0; i < size / 4; i++) {
            uint32_t t = x[i];
            x[i] = y[i];
            y[i] = t;
        }
        return;
    }
    for (size_t i = 0; i < size; i++) {
        char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

GPUMPI_FN static void gp_sift_down(char *base, size_t root, size_t n, size_t size, const gp_cmp_ctx *cmp)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && gp_cmpc(cmp, base + child * size, base + (child + 1) * size) < 0) child++;
        if (gp_cmpc(cmp, base + root * size, base + child * size) >= 0) return;
        gp_swap(base + root * size, base + child * size, size);
        root = child;
    }
}

GPUMPI_FN static void gp_heapsort(char *base, size_t n, size_t size, const gp_cmp_ctx *cmp)
{
    for (size_t i = n / 2; i-- > 0;) gp_sift_down(base, i, n, size, cmp);
    for (size_t end = n; end-- > 1;) {
        gp_swap(base, base + end * size, size);
        gp_sift_down(base, 0, end, size, cmp);
    }
}

GPUMPI_FN static void gp_insertion(char *base, size_t n, size_t size, const gp_cmp_ctx *cmp)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && gp_cmpc(cmp, base + (j - 1) * size, base + j * size) > 0; j--)
            gp_swap(base + (j - 1) * size, base + j * size, size);
}

#define GP_SORT_SMALL 12

GPUMPI_FN static void gp_sort(void *array, size_t n, size_t size, const gp_cmp_ctx *cmp)
{
    if (n < 2 || size == 0) return;
    char *base = (char *)array;
    struct {
        size_t lo, n;
        int depth;
    } stack[44]; /* the larger side is pushed: at most log2(n) entries (n < 2^44) */
    int top = 0;
    int depth = 2;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
    size_t lo = 0;
    for (;;) {
        while (n > GP_SORT_SMALL) {
            if (depth-- == 0) {
                gp_heapsort(base + lo * size, n, size, cmp);
                n = 0;
                break;
            }
            char *a = base + lo * size;
            char *mid = a + (n / 2) * size, *last = a + (n - 1) * size;
            /* median of first, middle, last into a[0] */
            if (gp_cmpc(cmp, mid, a) < 0) gp_swap(mid, a, size);
            if (gp_cmpc(cmp, last, mid) < 0) {
                gp_swap(last, mid, size);
                if (gp_cmpc(cmp, mid, a) < 0) gp_swap(mid, a, size);
            }
            gp_swap(a, mid, size); /* the median is the pivot at a[0] */
            size_t i = 0, j = n;
            for (;;) {
                do i++;
                while (i < n && gp_cmpc(cmp, a + i * size, a) < 0);
                do j--;
                while (gp_cmpc(cmp, a + j * size, a) > 0);
                if (i >= j) break;
                gp_swap(a + i * size, a + j * size, size);
            }
            gp_swap(a, a + j * size, size);
            size_t nl = j, nr = n - j - 1;
            if (nl < nr) {
                stack[top].lo = lo + j + 1, stack[top].n = nr, stack[top].depth = depth, top++;
                n = nl;
            } else {
                stack[top].lo = lo, stack[top].n = nl, stack[top].depth = depth, top++;
                lo = lo + j + 1;
                n = nr;
            }
        }
        if (n > 1) gp_insertion(base + lo * size, n, size, cmp);
        if (top == 0) return;
        top--;
        lo = stack[top].lo, n = stack[top].n, depth = stack[top].depth;
    }
}

GPUMPI_FN void gp_qsort(void *base, size_t n, size_t size, gp_cmp_fn cmp)
{
    gp_cmp_ctx c = {cmp, 0, 0};
    gp_sort(base, n, size, &c);
}

GPUMPI_FN void gp_qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *arg)
{
    gp_cmp_ctx c = {0, cmp, arg};
    gp_sort(base, n, size, &c);
}

GPUMPI_FN void *gp_bsearch(const void *key, const void *array, size_t n, size_t size, gp_cmp_fn cmp)
{
    const char *base = (const char *)array;
    while (n > 0) {
        const char *mid = base + (n / 2) * size;
        int c = cmp(key, mid);
        if (c == 0) return (void *)mid;
        if (c > 0) {
            base = mid + size;
            n -= n / 2 + 1;
        } else {
            n /= 2;
        }
    }
    return 0;
}
