/* Graph topologies (MPI_Graph_create) and distributed graph topologies
 * (MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create). Like Cartesian
 * ones, the ranks keep their order (reorder is ignored).
 *
 * A graph communicator's members share one copy of the whole graph (the
 * standard's queries return all of it, but no rank needs its own copy). A
 * distributed graph keeps only the calling rank's own neighbours: O(degree)
 * per rank. MPI_Dist_graph_create, where any rank may name any edge, sends
 * each edge to both its ends; how many messages each rank is to receive is
 * counted in one shared table (n counters for the job, not per rank). */
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN void gp_topo_copy_graphs(const gp_comm *from, gp_comm *to)
{
    if (from->graph) {
        gp_fetch_add(&from->graph->refs, 1);
        to->graph = from->graph;
    }
    if (from->dgraph) {
        const gp_dgraph *g = from->dgraph;
        size_t ints = 2 * (size_t)(g->indeg + g->outdeg);
        gp_dgraph *d = (gp_dgraph *)gp_malloc(sizeof(gp_dgraph) + sizeof(int) * ints);
        if (!d) gp_fatal("MPI_Comm_dup", MPI_ERR_NO_MEM, "no device heap left for a graph of degree %d", g->indeg + g->outdeg);
        *d = *g;
        d->in = (int *)(d + 1);
        d->inw = d->in + g->indeg;
        d->out = d->inw + g->indeg;
        d->outw = d->out + g->outdeg;
        gp_memcpy(d->in, g->in, sizeof(int) * ints); /* the four lists are one block in both */
        to->dgraph = d;
    }
}

GPUMPI_FN void gp_topo_release_graphs(gp_comm *c)
{
    if (c->graph && gp_fetch_add(&c->graph->refs, (uint32_t)-1) == 1) gp_free(c->graph);
    c->graph = 0;
    gp_free(c->dgraph);
    c->dgraph = 0;
}

/* ---- MPI_Graph_create and its queries */

GPUMPI_FN int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                               MPI_Comm *comm_graph)
{
    (void)reorder;
    const char *fn = "MPI_Graph_create";
    GP_TRY(gp_comm_check(fn, comm_old));
    if (!comm_graph) return gp_err(comm_old, fn, MPI_ERR_ARG, "the comm_graph argument is NULL");
    int n = gp_comm_size(comm_old);
    if (nnodes < 0 || nnodes > n)
        return gp_err(comm_old, fn, MPI_ERR_ARG, "nnodes %d is outside 0..%d (the communicator's size)", nnodes, n);
    if (nnodes > 0 && (!index || !edges)) return gp_err(comm_old, fn, MPI_ERR_ARG, "the index or edges array is NULL");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return gp_err(comm_old, fn, MPI_ERR_ARG, "index[%d] = %d is less than the entry before it", i, index[i]);
    int nedges = nnodes ? index[nnodes - 1] : 0;
    for (int e = 0; e < nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return gp_err(comm_old, fn, MPI_ERR_RANK, "edges[%d] = %d is not a node (0..%d)", e, edges[e], nnodes - 1);
    int me = gp_comm_rank(comm_old);
    GP_TRY(gp_comm_split(fn, comm_old, me < nnodes ? 0 : MPI_UNDEFINED, me, comm_graph));
    if (*comm_graph == MPI_COMM_NULL) return MPI_SUCCESS;
    /* the new communicator's rank 0 copies the graph once for all members */
    gp_graph *g = 0;
    if (me == 0) {
        g = (gp_graph *)gp_malloc(sizeof(gp_graph) + sizeof(int) * (size_t)(nnodes + nedges));
        if (!g) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a graph of %d edges", nedges);
        g->refs = (uint32_t)nnodes;
        g->nnodes = nnodes;
        g->nedges = nedges;
        g->index = (int *)(g + 1);
        g->edges = g->index + nnodes;
        gp_memcpy(g->index, index, sizeof(int) * (size_t)nnodes);
        gp_memcpy(g->edges, edges, sizeof(int) * (size_t)nedges);
    }
    MPI_Bcast(&g, (int)sizeof g, MPI_BYTE, 0, *comm_graph);
    gp_comm_find(*comm_graph)->graph = g;
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_graph_of(const char *fn, MPI_Comm comm, gp_graph **g)
{
    GP_TRY(gp_comm_check(fn, comm));
    *g = gp_comm_find(comm)->graph;
    if (!*g) return gp_err(comm, fn, MPI_ERR_TOPOLOGY, "the communicator has no graph topology");
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    gp_graph *g;
    GP_TRY(gp_graph_of("MPI_Graphdims_get", comm, &g));
    *nnodes = g->nnodes;
    *nedges = g->nedges;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    gp_graph *g;
    GP_TRY(gp_graph_of("MPI_Graph_get", comm, &g));
    if (maxindex < 0 || maxedges < 0)
        return gp_err(comm, "MPI_Graph_get", MPI_ERR_ARG, "negative maxindex %d or maxedges %d", maxindex, maxedges);
    for (int i = 0; i < g->nnodes && i < maxindex; i++) index[i] = g->index[i];
    for (int e = 0; e < g->nedges && e < maxedges; e++) edges[e] = g->edges[e];
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_graph_rank_check(const char *fn, MPI_Comm comm, const gp_graph *g, int rank)
{
    if (rank < 0 || rank >= g->nnodes)
        return gp_err(comm, fn, MPI_ERR_RANK, "invalid rank %d (the graph has %d nodes)", rank, g->nnodes);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    gp_graph *g;
    GP_TRY(gp_graph_of("MPI_Graph_neighbors_count", comm, &g));
    GP_TRY(gp_graph_rank_check("MPI_Graph_neighbors_count", comm, g, rank));
    *nneighbors = g->index[rank] - (rank ? g->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    gp_graph *g;
    GP_TRY(gp_graph_of("MPI_Graph_neighbors", comm, &g));
    GP_TRY(gp_graph_rank_check("MPI_Graph_neighbors", comm, g, rank));
    int first = rank ? g->index[rank - 1] : 0;
    for (int e = first; e < g->index[rank] && e - first < maxneighbors; e++) neighbors[e - first] = g->edges[e];
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    (void)index;
    (void)edges;
    GP_TRY(gp_comm_check("MPI_Graph_map", comm));
    if (nnodes < 0 || nnodes > gp_comm_size(comm))
        return gp_err(comm, "MPI_Graph_map", MPI_ERR_ARG, "nnodes %d is outside 0..%d", nnodes, gp_comm_size(comm));
    int me = gp_comm_rank(comm);
    *newrank = me < nnodes ? me : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---- distributed graphs */

GPUMPI_FN static gp_dgraph *gp_dgraph_new(int indeg, int outdeg, int weighted)
{
    gp_dgraph *d = (gp_dgraph *)gp_malloc(sizeof(gp_dgraph) + sizeof(int) * 2 * (size_t)(indeg + outdeg));
    if (!d) gp_fatal("MPI_Dist_graph_create", MPI_ERR_NO_MEM, "no device heap left for a graph of degree %d", indeg + outdeg);
    d->indeg = indeg;
    d->outdeg = outdeg;
    d->weighted = weighted;
    d->in = (int *)(d + 1);
    d->inw = d->in + indeg;
    d->out = d->inw + indeg;
    d->outw = d->out + outdeg;
    return d;
}

GPUMPI_FN static int gp_check_nodes(const char *fn, MPI_Comm comm, int count, const int *ranks, const char *what)
{
    int n = gp_comm_size(comm);
    if (count > 0 && !ranks) return gp_err(comm, fn, MPI_ERR_ARG, "the %s array is NULL", what);
    for (int i = 0; i < count; i++)
        if (ranks[i] < 0 || ranks[i] >= n)
            return gp_err(comm, fn, MPI_ERR_RANK, "%s[%d] = %d is not a rank of the communicator (0..%d)", what, i,
                          ranks[i], n - 1);
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_check_weights(const char *fn, MPI_Comm comm, int count, const int *w, const char *what)
{
    if (w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY) return MPI_SUCCESS;
    if (count > 0 && !w) return gp_err(comm, fn, MPI_ERR_ARG, "the %s array is NULL", what);
    for (int i = 0; i < count; i++)
        if (w[i] < 0) return gp_err(comm, fn, MPI_ERR_ARG, "%s[%d] = %d is negative", what, i, w[i]);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                             const int sourceweights[], int outdegree, const int destinations[],
                                             const int destweights[], MPI_Info info, int reorder,
                                             MPI_Comm *comm_dist_graph)
{
    (void)reorder;
    const char *fn = "MPI_Dist_graph_create_adjacent";
    GP_TRY(gp_comm_check(fn, comm_old));
    if (!comm_dist_graph) return gp_err(comm_old, fn, MPI_ERR_ARG, "the comm_dist_graph argument is NULL");
    if (indegree < 0 || outdegree < 0)
        return gp_err(comm_old, fn, MPI_ERR_ARG, "negative indegree %d or outdegree %d", indegree, outdegree);
    GP_TRY(gp_check_nodes(fn, comm_old, indegree, sources, "sources"));
    GP_TRY(gp_check_nodes(fn, comm_old, outdegree, destinations, "destinations"));
    GP_TRY(gp_check_weights(fn, comm_old, indegree, sourceweights, "sourceweights"));
    GP_TRY(gp_check_weights(fn, comm_old, outdegree, destweights, "destweights"));
    int weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    gp_dgraph *d = gp_dgraph_new(indegree, outdegree, weighted);
    for (int i = 0; i < indegree; i++) {
        d->in[i] = sources[i];
        d->inw[i] = weighted && sourceweights != MPI_WEIGHTS_EMPTY ? sourceweights[i] : 1;
    }
    for (int i = 0; i < outdegree; i++) {
        d->out[i] = destinations[i];
        d->outw[i] = weighted && destweights != MPI_WEIGHTS_EMPTY ? destweights[i] : 1;
    }
    int rc = gp_comm_dup(fn, comm_old, 1, info, comm_dist_graph);
    if (rc != MPI_SUCCESS) {
        gp_free(d);
        return rc;
    }
    gp_comm *c = gp_comm_find(*comm_dist_graph);
    gp_free(c->topo); /* a dup keeps a Cartesian parent's grid: this one has a graph instead */
    c->topo = 0;
    gp_topo_release_graphs(c);
    c->dgraph = d;
    return MPI_SUCCESS;
}

/* One edge end, sent to the rank at that end. */
typedef struct gp_edge_msg {
    int out;    /* 1: the receiver's out-edge to peer; 0: its in-edge from peer */
    int peer;
    int weight;
} gp_edge_msg;

typedef struct gp_edge_table {
    uint32_t done; /* ranks finished with the table: the last frees it */
    uint32_t counts[1]; /* messages each rank is to receive */
} gp_edge_table;

/* (peer, weight) order: the order of a rank's neighbours, the same
 * whatever order the edges arrived in. */
GPUMPI_FN static void gp_sort_edges(int *peer, int *w, int n)
{
    for (int i = 1; i < n; i++) { /* insertion sort: degrees are small */
        int p = peer[i], x = w[i], j = i - 1;
        while (j >= 0 && (peer[j] > p || (peer[j] == p && w[j] > x))) {
            peer[j + 1] = peer[j];
            w[j + 1] = w[j];
            j--;
        }
        peer[j + 1] = p;
        w[j + 1] = x;
    }
}

#define GP_EDGE_TAG 0x5ed9e

GPUMPI_FN int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                    const int destinations[], const int weights[], MPI_Info info, int reorder,
                                    MPI_Comm *comm_dist_graph)
{
    (void)reorder;
    const char *fn = "MPI_Dist_graph_create";
    GP_TRY(gp_comm_check(fn, comm_old));
    if (!comm_dist_graph) return gp_err(comm_old, fn, MPI_ERR_ARG, "the comm_dist_graph argument is NULL");
    if (n < 0) return gp_err(comm_old, fn, MPI_ERR_ARG, "negative n %d", n);
    GP_TRY(gp_check_nodes(fn, comm_old, n, sources, "sources"));
    if (n > 0 && !degrees) return gp_err(comm_old, fn, MPI_ERR_ARG, "the degrees array is NULL");
    int nedges = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0) return gp_err(comm_old, fn, MPI_ERR_ARG, "degrees[%d] = %d is negative", i, degrees[i]);
        nedges += degrees[i];
    }
    GP_TRY(gp_check_nodes(fn, comm_old, nedges, destinations, "destinations"));
    GP_TRY(gp_check_weights(fn, comm_old, nedges, weights, "weights"));
    int weighted = weights != MPI_UNWEIGHTED;
    /* the new communicator first: its context carries the edges, which no
     * other traffic can meet before the program has the handle */
    GP_TRY(gp_comm_dup(fn, comm_old, 1, info, comm_dist_graph));
    MPI_Comm c = *comm_dist_graph;
    int size = gp_comm_size(c), me = gp_comm_rank(c), ctx = gp_ctx_p2p(c);
    gp_edge_table *t = 0;
    if (me == 0) {
        t = (gp_edge_table *)gp_calloc(1, sizeof(gp_edge_table) + sizeof(uint32_t) * (size_t)size);
        if (!t) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a %d-entry edge table", size);
    }
    MPI_Bcast(&t, (int)sizeof t, MPI_BYTE, 0, c);
    for (int i = 0, e = 0; i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            gp_fetch_add(&t->counts[sources[i]], 1);
            gp_fetch_add(&t->counts[destinations[e]], 1);
        }
    MPI_Barrier(c);
    uint32_t expect = gp_fetch_add(&t->counts[me], 0);
    for (int i = 0, e = 0; i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            int w = weighted && weights != MPI_WEIGHTS_EMPTY ? weights[e] : 1;
            gp_edge_msg to_src = {1, destinations[e], w}, to_dst = {0, sources[i], w};
            gp_send_bytes(&to_src, sizeof to_src, gp_comm_to_world(c, sources[i]), GP_EDGE_TAG, ctx);
            gp_send_bytes(&to_dst, sizeof to_dst, gp_comm_to_world(c, destinations[e]), GP_EDGE_TAG, ctx);
        }
    gp_edge_msg *got = (gp_edge_msg *)gp_malloc(sizeof(gp_edge_msg) * (size_t)(expect ? expect : 1));
    if (!got) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %u graph edges", expect);
    int indeg = 0, outdeg = 0;
    for (uint32_t k = 0; k < expect; k++) {
        int src, tag;
        size_t bytes;
        gp_recv_bytes(&got[k], sizeof got[k], MPI_ANY_SOURCE, GP_EDGE_TAG, ctx, &src, &tag, &bytes);
        if (got[k].out)
            outdeg++;
        else
            indeg++;
    }
    /* every rank has read its count: the last one out frees the table */
    if (gp_fetch_add(&t->done, 1) == (uint32_t)size - 1) gp_free(t);
    gp_dgraph *d = gp_dgraph_new(indeg, outdeg, weighted);
    int ni = 0, no = 0;
    for (uint32_t k = 0; k < expect; k++) {
        if (got[k].out) {
            d->out[no] = got[k].peer;
            d->outw[no++] = got[k].weight;
        } else {
            d->in[ni] = got[k].peer;
            d->inw[ni++] = got[k].weight;
        }
    }
    gp_free(got);
    gp_sort_edges(d->in, d->inw, indeg);
    gp_sort_edges(d->out, d->outw, outdeg);
    gp_comm *cc = gp_comm_find(c);
    gp_free(cc->topo);
    cc->topo = 0;
    gp_topo_release_graphs(cc);
    cc->dgraph = d;
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_dgraph_of(const char *fn, MPI_Comm comm, gp_dgraph **d)
{
    GP_TRY(gp_comm_check(fn, comm));
    *d = gp_comm_find(comm)->dgraph;
    if (!*d) return gp_err(comm, fn, MPI_ERR_TOPOLOGY, "the communicator has no distributed graph topology");
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    gp_dgraph *d;
    GP_TRY(gp_dgraph_of("MPI_Dist_graph_neighbors_count", comm, &d));
    *indegree = d->indeg;
    *outdegree = d->outdeg;
    *weighted = d->weighted;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                       int maxoutdegree, int destinations[], int destweights[])
{
    gp_dgraph *d;
    GP_TRY(gp_dgraph_of("MPI_Dist_graph_neighbors", comm, &d));
    int wi = d->weighted && sourceweights != MPI_UNWEIGHTED && sourceweights != MPI_WEIGHTS_EMPTY && sourceweights;
    int wo = d->weighted && destweights != MPI_UNWEIGHTED && destweights != MPI_WEIGHTS_EMPTY && destweights;
    for (int i = 0; i < d->indeg && i < maxindegree; i++) {
        sources[i] = d->in[i];
        if (wi) sourceweights[i] = d->inw[i];
    }
    for (int i = 0; i < d->outdeg && i < maxoutdegree; i++) {
        destinations[i] = d->out[i];
        if (wo) destweights[i] = d->outw[i];
    }
    return MPI_SUCCESS;
}
