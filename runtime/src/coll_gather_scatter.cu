/* MPI_Gather, MPI_Scatter (binomial trees of packed blocks) and
 * MPI_Gatherv, MPI_Scatterv (linear at the root: only the root knows the
 * counts, so each rank's data goes straight to or from the root; the root
 * takes the messages as they come, placing each by its source, and sends
 * GP_SCHED_WINDOW at a time).
 *
 * In a binomial tree rooted at `root`, rank rel (relative to the root)
 * holds the blocks of ranks rel .. rel + size - 1, packed in that order:
 * a gather node collects its children's ranges next to its own block and
 * sends the whole range up; a scatter node receives its range and sends
 * each child its part. The root's buffer is in relative order, rotated to
 * or from rank order by two copies (none when the root is rank 0 and the
 * user's buffer is contiguous: the tree then works in it directly). */
#include "coll.h"

/* Packed bytes of the blocks of relative ranks [from, to): uniform blocks,
 * or per-rank counts (reduce_scatter's scatter). */
GPUMPI_FN static size_t gp_tree_span(gp_sched *s, int root, int from, int to)
{
    gp_tree_state *t = &s->tree;
    if (!t->counts) return (size_t)(to - from) * t->block;
    size_t bytes = 0;
    for (int i = from; i < to; i++) bytes += (size_t)t->counts[gp_tree_real(s, root, i)] * (size_t)t->esize;
    return bytes;
}

/* ---- gather ------------------------------------------------------------------ */

GPUMPI_FN static int gp_gather_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    gp_tree_state *t = &s->tree;
    int n = s->n, root = a->root, rel = gp_tree_rel(s, root), size = gp_tree_subtree(rel, n);
    size_t b = t->block;
    char *mine = a->in_place ? gp_coll_at(a->rbuf, root, a->rcount, a->rtype) : (char *)a->sbuf;
    int mine_count = a->in_place ? a->rcount : a->scount;
    MPI_Datatype mine_type = a->in_place ? a->rtype : a->stype;
    if (k == 0) {
        if (size == 1) {
            if (rel)
                gp_sched_send(s, gp_tree_real(s, root, gp_tree_parent(rel)), mine, mine_count, mine_type);
            else if (!a->in_place) /* one rank */
                gp_coll_copy(mine, mine_count, mine_type, a->rbuf, a->rcount, a->rtype);
            return 0;
        }
        char *direct = rel == 0 && root == 0 ? gp_coll_contiguous(a->rbuf, n * a->rcount, a->rtype) : 0;
        t->buf = direct ? direct : (char *)gp_sched_scratch(s, (size_t)size * b);
        if (t->buf != mine) gp_coll_copy(mine, mine_count, mine_type, t->buf, (int)b, MPI_BYTE);
        for (int m = 1; m < size; m <<= 1) {
            int blocks = m < size - m ? m : size - m;
            gp_sched_recv(s, gp_tree_real(s, root, rel + m), t->buf + (size_t)m * b, (int)((size_t)blocks * b),
                          MPI_BYTE, 1);
        }
        return 1;
    }
    if (k > 1) return 0;
    if (rel) {
        gp_sched_send(s, gp_tree_real(s, root, gp_tree_parent(rel)), t->buf, (int)((size_t)size * b), MPI_BYTE);
        return 1;
    }
    if (t->buf != gp_coll_contiguous(a->rbuf, n * a->rcount, a->rtype)) {
        /* relative order 0 .. n-root-1 are ranks root .. n-1; the rest 0 .. root-1 */
        gp_coll_copy(t->buf, (int)((size_t)(n - root) * b), MPI_BYTE, gp_coll_at(a->rbuf, root, a->rcount, a->rtype),
                     (n - root) * a->rcount, a->rtype);
        gp_coll_copy(t->buf + (size_t)(n - root) * b, (int)((size_t)root * b), MPI_BYTE, a->rbuf, root * a->rcount,
                     a->rtype);
    }
    return 0;
}

GPUMPI_FN void gp_coll_gather(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Gather", comm);
    s->rooted = 1;
    gp_coll_args *a = &s->a;
    a->in_place = sbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, rcount, rtype);
    a->root = root;
    s->tree.block = s->me == root ? gp_coll_bytes(rcount, rtype) : gp_coll_bytes(scount, stype);
    if (s->tree.block == 0) return; /* the same at every rank */
    gp_sched_add_phase(s, gp_gather_round);
}

/* ---- scatter ----------------------------------------------------------------- */

GPUMPI_FN int gp_scatter_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    gp_tree_state *t = &s->tree;
    int n = s->n, root = a->root, rel = gp_tree_rel(s, root), size = gp_tree_subtree(rel, n);
    if (t->finished) return 0;
    if (k == 0 && rel) {
        int parent = gp_tree_real(s, root, gp_tree_parent(rel));
        if (size == 1) {
            gp_sched_recv(s, parent, a->rbuf, a->rcount, a->rtype, 1);
            t->finished = 1;
            return 1;
        }
        size_t bytes = gp_tree_span(s, root, rel, rel + size);
        t->buf = (char *)gp_sched_scratch(s, bytes);
        gp_sched_recv(s, parent, t->buf, (int)bytes, MPI_BYTE, 1);
        return 1;
    }
    if (k == 0) { /* the root: its blocks in relative order */
        size_t total = gp_tree_span(s, root, 0, n);
        char *direct = t->counts ? (char *)a->sbuf /* reduce_scatter's: packed, at rank 0 */
                       : root == 0 ? gp_coll_contiguous(a->sbuf, n * a->scount, a->stype)
                                   : 0;
        t->buf = direct ? direct : (char *)gp_sched_scratch(s, total);
        if (!direct) {
            gp_coll_copy(gp_coll_at(a->sbuf, root, a->scount, a->stype), (n - root) * a->scount, a->stype, t->buf,
                         (int)((size_t)(n - root) * t->block), MPI_BYTE);
            gp_coll_copy(a->sbuf, root * a->scount, a->stype, t->buf + (size_t)(n - root) * t->block,
                         (int)((size_t)root * t->block), MPI_BYTE);
        }
    }
    /* this rank's range is in t->buf: each child its part, the largest first */
    t->finished = 1;
    for (int m = gp_pow2_below(size); m > 0; m >>= 1) {
        int blocks = m < size - m ? m : size - m;
        size_t off = gp_tree_span(s, root, rel, rel + m), len = gp_tree_span(s, root, rel + m, rel + m + blocks);
        gp_sched_send(s, gp_tree_real(s, root, rel + m), t->buf + off, (int)len, MPI_BYTE);
    }
    if (!(rel == 0 && a->in_place))
        gp_coll_copy(t->buf, (int)gp_tree_span(s, root, rel, rel + 1), MPI_BYTE, a->rbuf, a->rcount, a->rtype);
    return 1;
}

GPUMPI_FN void gp_coll_scatter(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Scatter", comm);
    s->rooted = 1;
    gp_coll_args *a = &s->a;
    a->in_place = rbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, rcount, rtype);
    a->root = root;
    s->tree.block = s->me == root ? gp_coll_bytes(scount, stype) : gp_coll_bytes(rcount, rtype);
    if (s->tree.block == 0) return;
    gp_sched_add_phase(s, gp_scatter_round);
}

/* ---- gatherv, scatterv: linear at the root ----------------------------------- */

GPUMPI_FN static void gp_gatherv_locate(gp_sched *s, int src, void **buf, int *count, MPI_Datatype *type)
{
    *buf = gp_coll_at(s->a.rbuf, s->a.rdispls[src], 1, s->a.rtype);
    *count = s->a.rcounts[src];
    *type = s->a.rtype;
}

GPUMPI_FN static int gp_gatherv_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    if (k) return 0;
    if (s->me != a->root) {
        if (gp_coll_bytes(a->scount, a->stype)) gp_sched_send(s, a->root, a->sbuf, a->scount, a->stype);
        return 1;
    }
    if (!a->in_place) {
        void *mine;
        int count;
        MPI_Datatype type;
        gp_gatherv_locate(s, s->me, &mine, &count, &type);
        gp_coll_copy(a->sbuf, a->scount, a->stype, mine, count, type);
    }
    int expect = 0; /* empty contributions are not sent */
    for (int i = 0; i < s->n; i++) expect += i != s->me && gp_coll_bytes(a->rcounts[i], a->rtype) > 0;
    gp_sched_recv_any(s, expect, gp_gatherv_locate);
    return 1;
}

GPUMPI_FN void gp_coll_gatherv(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Gatherv", comm);
    s->rooted = 1;
    gp_coll_args *a = &s->a;
    a->in_place = sbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, scount, stype, rbuf, 0, rtype);
    a->rcounts = rcounts;
    a->rdispls = displs;
    a->root = root;
    gp_sched_add_phase(s, gp_gatherv_round);
}

GPUMPI_FN static int gp_scatterv_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int n = s->n;
    if (s->me != a->root) {
        if (k) return 0;
        if (gp_coll_bytes(a->rcount, a->rtype)) gp_sched_recv(s, a->root, a->rbuf, a->rcount, a->rtype, 0);
        return 1;
    }
    if (k == 0 && !a->in_place)
        gp_coll_copy(gp_coll_at(a->sbuf, a->sdispls[s->me], 1, a->stype), a->scounts[s->me], a->stype, a->rbuf,
                     a->rcount, a->rtype);
    int first = k * GP_SCHED_WINDOW; /* the other ranks, from root + 1 on */
    if (first >= n - 1) return 0;
    for (int j = first; j < n - 1 && j < first + GP_SCHED_WINDOW; j++) {
        int p = (a->root + 1 + j) % n;
        if (gp_coll_bytes(a->scounts[p], a->stype))
            gp_sched_send(s, p, gp_coll_at(a->sbuf, a->sdispls[p], 1, a->stype), a->scounts[p], a->stype);
    }
    return 1;
}

GPUMPI_FN void gp_coll_scatterv(gp_sched *s, const void *sbuf, const int *scounts, const int *displs,
                                MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                                MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Scatterv", comm);
    s->rooted = 1;
    gp_coll_args *a = &s->a;
    a->in_place = rbuf == MPI_IN_PLACE;
    gp_coll_set_bufs(s, sbuf, 0, stype, rbuf, rcount, rtype);
    a->scounts = scounts;
    a->sdispls = displs;
    a->root = root;
    gp_sched_add_phase(s, gp_scatterv_round);
}

/* ---- the MPI functions ------------------------------------------------------- */

GPUMPI_FN int gp_gather_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Gather");
    if (gp_coll_is_inter(comm))
        return gp_inter_rooted(nb, fn, comm, 1, root, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, 0);
    GP_TRY(gp_coll_check_rooted(comm, fn, root, 1, 0, sendbuf, sendcount, sendtype, recvbuf, recvcount, 0, 0,
                                recvtype));
    if (!nb && gp_shm_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
        return MPI_SUCCESS;
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_gather(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gp_gather_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

GPUMPI_FN int gp_gatherv_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                              int root, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Gatherv");
    if (gp_coll_is_inter(comm))
        return gp_inter_rooted(nb, fn, comm, 2, root, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts,
                               displs);
    GP_TRY(gp_coll_check_rooted(comm, fn, root, 1, 1, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                                recvtype));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_gatherv(s, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gp_gatherv_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

GPUMPI_FN int gp_scatter_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Scatter");
    if (gp_coll_is_inter(comm))
        return gp_inter_rooted(nb, fn, comm, 3, root, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, 0);
    GP_TRY(gp_coll_check_rooted(comm, fn, root, 0, 0, recvbuf, recvcount, recvtype, sendbuf, sendcount, 0, 0,
                                sendtype));
    if (!nb && gp_shm_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
        return MPI_SUCCESS;
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_scatter(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gp_scatter_call(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

GPUMPI_FN int gp_scatterv_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[], const int displs[],
                               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm)
{
    const char *fn = GP_COLL_FN(nb, "MPI_Scatterv");
    if (gp_coll_is_inter(comm))
        return gp_inter_rooted(nb, fn, comm, 4, root, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype, sendcounts,
                               displs);
    GP_TRY(gp_coll_check_rooted(comm, fn, root, 0, 1, recvbuf, recvcount, recvtype, sendbuf, 0, sendcounts, displs,
                                sendtype));
    gp_sched local, *s = gp_coll_sched(nb, &local);
    gp_coll_scatterv(s, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return gp_coll_go(nb, s);
}

GPUMPI_FN int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gp_scatterv_call(0, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
