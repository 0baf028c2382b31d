/* Narrowing the large-count (_c) bindings' arguments to the int functions'
 * (large_count.h). */
#include "large_count.h"
#include "requests.h"
#include "gpumpi/shim_stdlib.h"

#define GP_INT_MAX 2147483647LL
#define GP_INT_MIN (-2147483647LL - 1)

GPUMPI_FN int gp_lc_int(const char *fn, MPI_Comm comm, const char *what, MPI_Count v, int *out)
{
    if (v > GP_INT_MAX || v < GP_INT_MIN)
        return gp_err(comm, fn, MPI_ERR_COUNT,
                      "%s %lld is past what gpumpi moves (at most 2^31-1 elements or bytes per argument)", what,
                      (long long)v);
    *out = (int)v;
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_lc_degree(MPI_Comm comm, int in, int *n)
{
    int topo = MPI_UNDEFINED, deg = 0;
    GP_TRY(MPI_Topo_test(comm, &topo));
    if (topo == MPI_CART) {
        int nd = 0;
        GP_TRY(MPI_Cartdim_get(comm, &nd));
        deg = 2 * nd;
    } else if (topo == MPI_GRAPH) {
        GP_TRY(MPI_Graph_neighbors_count(comm, gp_comm_rank(comm), &deg));
    } else if (topo == MPI_DIST_GRAPH) {
        int indeg = 0, outdeg = 0, weighted = 0;
        GP_TRY(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted));
        deg = in ? indeg : outdeg;
    } /* no topology: the int function raises MPI_ERR_TOPOLOGY */
    *n = deg;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_lc_len(gp_lc *lc, int kind, int root, int skip, int *n)
{
    *n = 0;
    GP_TRY(gp_comm_check(lc->fn, lc->comm));
    if (skip) return MPI_SUCCESS;
    int inter = gp_comm_is_inter(lc->comm);
    switch (kind) {
    case GP_LC_LOCAL: *n = gp_comm_size(lc->comm); break;
    case GP_LC_GROUP: *n = gp_comm_peer_size(lc->comm); break;
    case GP_LC_ROOT:
        if (inter ? root == MPI_ROOT : root == gp_comm_rank(lc->comm)) *n = gp_comm_peer_size(lc->comm);
        break;
    default: return gp_lc_degree(lc->comm, kind == GP_LC_IN, n);
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_lc_alloc(gp_lc *lc, int total)
{
    lc->block = (int *)gp_malloc(sizeof(int) * (size_t)(total > 0 ? total : 1));
    if (!lc->block) return gp_fatal(lc->fn, MPI_ERR_NO_MEM, "no device heap left for %d counts", total);
    lc->cap = total;
    lc->used = 0;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_lc_counts(gp_lc *lc, const char *what, const MPI_Count *src, int n, const int **out)
{
    *out = 0;
    if (!src) return MPI_SUCCESS;
    int *dst = lc->block + lc->used;
    lc->used += n;
    for (int i = 0; i < n; i++) GP_TRY(gp_lc_int(lc->fn, lc->comm, what, src[i], &dst[i]));
    *out = dst;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_lc_displs(gp_lc *lc, const char *what, const MPI_Aint *src, int n, const int **out)
{
    *out = 0;
    if (!src) return MPI_SUCCESS;
    int *dst = lc->block + lc->used;
    lc->used += n;
    for (int i = 0; i < n; i++) GP_TRY(gp_lc_int(lc->fn, lc->comm, what, (MPI_Count)src[i], &dst[i]));
    *out = dst;
    return MPI_SUCCESS;
}

GPUMPI_FN static void gp_lc_free_then(void *block, int err)
{
    (void)err;
    gp_free(block);
}

GPUMPI_FN int gp_lc_done(gp_lc *lc, int rc, MPI_Request *request)
{
    if (!lc->block) return rc;
    if (rc == MPI_SUCCESS && request && *request != MPI_REQUEST_NULL) {
        gp_req *q = gp_req_at(*request);
        if (q->persistent && q->recipe) {
            gp_coll_persistent_keep(q, lc->block);
            return rc;
        }
        if (q->kind == GP_REQ_COLL && q->sched) {
            gp_coll_req_then(*request, gp_lc_free_then, lc->block);
            return rc;
        }
    }
    gp_free(lc->block);
    return rc;
}
