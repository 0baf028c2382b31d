/* Graph and distributed graph topologies: MPI_Graph_create and its queries
 * (Graphdims_get, Graph_get, Graph_neighbors(_count), Graph_map),
 * MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create with and without
 * weights, Dist_graph_neighbors(_count), MPI_Topo_test for each kind, and
 * that a dup keeps the topology. Each rank builds only O(1) edges of its own
 * (the graph communicator's arrays are the whole graph, as the standard
 * requires, so it is made on at most 64 ranks). Self-checking: rank 0
 * prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpitest.h"

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Graph: node i is joined to i-1 and i+1 (a ring), and node 0 also to
 * every third node (edges both ways). */
static int graph_nbrs(int i, int n, int *out)
{
    int k = 0;
    if (n == 1) return 0;
    out[k++] = (i + n - 1) % n;
    if (n > 2) out[k++] = (i + 1) % n;
    if (i == 0)
        for (int j = 3; j < n; j += 3) out[k++] = j;
    else if (i % 3 == 0)
        out[k++] = 0;
    return k;
}

static void graph(void)
{
    int n = size < 64 ? size : 64;
    int *index = malloc(sizeof(int) * n), *edges = malloc(sizeof(int) * n * 4 + 64), tmp[64];
    if (n > 64) n = 64;
    int e = 0;
    for (int i = 0; i < n; i++) {
        int k = graph_nbrs(i, n, tmp);
        for (int j = 0; j < k; j++) edges[e + j] = tmp[j];
        e += k;
        index[i] = e;
    }
    int newrank = -5;
    MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank);
    CHECK(rank < n ? (newrank >= 0 && newrank < n) : newrank == MPI_UNDEFINED, "Graph_map gave %d", newrank);
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
    if (rank >= n) {
        CHECK(g == MPI_COMM_NULL, "a rank beyond nnodes gets MPI_COMM_NULL");
    } else {
        int st = -1, gr, gs;
        MPI_Topo_test(g, &st);
        CHECK(st == MPI_GRAPH, "Topo_test gives %d, want MPI_GRAPH", st);
        MPI_Comm_size(g, &gs);
        MPI_Comm_rank(g, &gr);
        CHECK(gs == n, "graph communicator size %d, want %d", gs, n);
        int nn = -1, ne = -1;
        MPI_Graphdims_get(g, &nn, &ne);
        CHECK(nn == n && ne == e, "Graphdims_get %d %d, want %d %d", nn, ne, n, e);
        int *i2 = malloc(sizeof(int) * n), *e2 = malloc(sizeof(int) * (e + 1));
        MPI_Graph_get(g, n, e, i2, e2);
        int same = 1;
        for (int i = 0; i < n; i++) same &= i2[i] == index[i];
        for (int i = 0; i < e; i++) same &= e2[i] == edges[i];
        CHECK(same, "Graph_get returns the graph");
        /* every node's neighbours, from any rank */
        for (int r = 0; r < n; r += (n > 8 ? n / 8 : 1)) {
            int want[64], got[64], k = graph_nbrs(r, n, want), c = -1;
            MPI_Graph_neighbors_count(g, r, &c);
            CHECK(c == k, "Graph_neighbors_count(%d) %d, want %d", r, c, k);
            MPI_Graph_neighbors(g, r, 64, got);
            for (int j = 0; j < k && j < c; j++) CHECK(got[j] == want[j], "node %d neighbour %d: %d, want %d", r, j, got[j], want[j]);
        }
        /* a neighbour exchange over the graph with point-to-point: each
         * neighbour pair really is mutual */
        int nb[64], k = graph_nbrs(gr, n, nb), vals[64];
        MPI_Request rq[128];
        for (int j = 0; j < k; j++) {
            MPI_Irecv(&vals[j], 1, MPI_INT, nb[j], 7, g, &rq[j]);
            MPI_Isend(&gr, 1, MPI_INT, nb[j], 7, g, &rq[k + j]);
        }
        MPI_Waitall(2 * k, rq, MPI_STATUSES_IGNORE);
        for (int j = 0; j < k; j++) CHECK(vals[j] == nb[j], "graph exchange: got %d from %d", vals[j], nb[j]);
        MPI_Comm d;
        MPI_Comm_dup(g, &d);
        MPI_Topo_test(d, &st);
        MPI_Graphdims_get(d, &nn, &ne);
        CHECK(st == MPI_GRAPH && nn == n && ne == e, "a dup keeps the graph: %d %d %d", st, nn, ne);
        MPI_Comm_free(&d);
        MPI_Comm_free(&g);
        free(i2);
        free(e2);
    }
    free(index);
    free(edges);
}

/* Distributed graph: rank i sends to i+1 and i+3 (mod size), with weights
 * 10 * i + 1 and 10 * i + 3; so it receives from i-1 and i-3. */
static void dist_graph_adjacent(void)
{
    int src[2] = {(rank + size - 1) % size, (rank + size - 3 % size) % size};
    int dst[2] = {(rank + 1) % size, (rank + 3) % size};
    int sw[2] = {10 * src[0] + 1, 10 * src[1] + 3}, dw[2] = {10 * rank + 1, 10 * rank + 3};
    MPI_Comm dg;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, sw, 2, dst, dw, MPI_INFO_NULL, 0, &dg);
    int st = -1, indeg = -1, outdeg = -1, weighted = -1;
    MPI_Topo_test(dg, &st);
    CHECK(st == MPI_DIST_GRAPH, "Topo_test gives %d, want MPI_DIST_GRAPH", st);
    MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 2 && weighted, "adjacent: degrees %d %d weighted %d", indeg, outdeg, weighted);
    int s2[2], sw2[2], d2[2], dw2[2];
    MPI_Dist_graph_neighbors(dg, 2, s2, sw2, 2, d2, dw2);
    for (int j = 0; j < 2; j++) {
        CHECK(s2[j] == src[j] && sw2[j] == sw[j], "adjacent source %d: %d (%d)", j, s2[j], sw2[j]);
        CHECK(d2[j] == dst[j] && dw2[j] == dw[j], "adjacent destination %d: %d (%d)", j, d2[j], dw2[j]);
    }
    MPI_Comm_free(&dg);
    /* unweighted, and a rank with no edges at all */
    int none = rank % 2;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, none ? 0 : 1, src, MPI_UNWEIGHTED, none ? 0 : 1, dst,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
    MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted);
    CHECK(indeg == (none ? 0 : 1) && outdeg == (none ? 0 : 1) && !weighted, "unweighted: %d %d %d", indeg, outdeg,
          weighted);
    MPI_Comm_free(&dg);
}

/* MPI_Dist_graph_create: rank i names the edges i -> i+1 and (i+2) -> i
 * (mod size), so each edge is named by one rank, and some by a rank that is
 * neither end. */
static void dist_graph_general(void)
{
    int srcs[2] = {rank, (rank + 2) % size}, degs[2] = {1, 1};
    int dsts[2] = {(rank + 1) % size, rank}, w[2] = {rank, 1000 + rank};
    MPI_Comm dg;
    MPI_Dist_graph_create(MPI_COMM_WORLD, 2, srcs, degs, dsts, w, MPI_INFO_NULL, 0, &dg);
    int indeg = -1, outdeg = -1, weighted = -1, st = -1;
    MPI_Topo_test(dg, &st);
    CHECK(st == MPI_DIST_GRAPH, "Topo_test %d", st);
    MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 2 && weighted, "general: degrees %d %d weighted %d", indeg, outdeg, weighted);
    if (indeg == 2 && outdeg == 2) {
        int s2[2], sw2[2], d2[2], dw2[2];
        MPI_Dist_graph_neighbors(dg, 2, s2, sw2, 2, d2, dw2);
        /* in-edges: (i-1) -> i with weight i-1; (i+2) -> i with weight 1000 + i.
         * out-edges: i -> i+1 weight i; i -> i-2 weight 1000 + i - 2. Order is
         * the library's: match them up. */
        int pm = (rank + size - 1) % size, pp = (rank + 2) % size, om = (rank + 1) % size, oo = (rank + size - 2) % size;
        int found_a = 0, found_b = 0, found_c = 0, found_d = 0;
        for (int j = 0; j < 2; j++) {
            if (s2[j] == pm && sw2[j] == pm && !found_a) found_a = 1;
            else if (s2[j] == pp && sw2[j] == 1000 + rank && !found_b) found_b = 1;
            if (d2[j] == om && dw2[j] == rank && !found_c) found_c = 1;
            else if (d2[j] == oo && dw2[j] == 1000 + oo && !found_d) found_d = 1;
        }
        CHECK(found_a && found_b, "general in-edges: %d(%d) %d(%d)", s2[0], sw2[0], s2[1], sw2[1]);
        CHECK(found_c && found_d, "general out-edges: %d(%d) %d(%d)", d2[0], dw2[0], d2[1], dw2[1]);
    }
    MPI_Comm_free(&dg);
    /* only rank 0 names edges: a star from 0 to every rank (itself too) */
    int *all = NULL, cnt = rank == 0 ? size : 0, zero = 0;
    if (rank == 0) {
        all = malloc(sizeof(int) * size);
        for (int i = 0; i < size; i++) all[i] = i;
    }
    MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? 1 : 0, &zero, &cnt, all, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
    MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted);
    CHECK(indeg == 1 && outdeg == (rank == 0 ? size : 0) && !weighted, "star: %d %d %d", indeg, outdeg, weighted);
    if (rank == 0 && outdeg == size) {
        int *d = malloc(sizeof(int) * size), s;
        MPI_Dist_graph_neighbors(dg, 1, &s, MPI_UNWEIGHTED, size, d, MPI_UNWEIGHTED);
        qsort(d, size, sizeof(int), cmp_int);
        for (int i = 0; i < size; i++) CHECK(d[i] == i, "star destination %d: %d", i, d[i]);
        free(d);
    }
    free(all);
    MPI_Comm_free(&dg);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int st = -1;
    MPI_Topo_test(MPI_COMM_WORLD, &st);
    CHECK(st == MPI_UNDEFINED, "MPI_COMM_WORLD has no topology: %d", st);
    graph();
    dist_graph_adjacent();
    dist_graph_general();
    /* queries of the wrong kind fail with MPI_ERR_TOPOLOGY */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int nn, ne, cls = -1, rc = MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TOPOLOGY, "Graphdims_get on world: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mt_finish();
}
