/* The MPI-4.0 large-count (_c) bindings: point to point, blocking,
 * nonblocking and persistent collectives with MPI_Count counts and
 * MPI_Aint displacements, datatypes built by the _c constructors (one of
 * more than 2^31 bytes) and their envelopes, packing, and a reduction with
 * an MPI_User_function_c on a struct with padding. Under MPI_ERRORS_RETURN
 * a negative count is MPI_ERR_COUNT everywhere; a count past 2^31-1 is
 * MPI_ERR_COUNT under gpumpi (which moves at most 2^31-1 elements) and
 * fine under MPICH. Runs with any number of ranks >= 1. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

typedef struct {
    int i;
    double d;
} pair_t;

static int user_calls, user_len_ok;
static MPI_Datatype pair_type;

/* inout = in + inout field by field, for a struct type with a hole */
static void pair_sum(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    const pair_t *a = (const pair_t *)in;
    pair_t *b = (pair_t *)inout;
    user_calls++;
    if (*len >= 1 && *len <= 3 && *dt == pair_type) user_len_ok++;
    for (MPI_Count k = 0; k < *len; k++) {
        b[k].i += a[k].i;
        b[k].d += a[k].d;
    }
}

static void check_p2p(void)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[8], in[8];
    MPI_Status st;
    MPI_Count n = -1;
    for (int k = 0; k < 8; k++) out[k] = rank * 100 + k, in[k] = -1;
    MPI_Sendrecv_c(out, 8, MPI_INT, next, 5, in, 8, MPI_INT, prev, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(n == 8, "MPI_Get_count_c after MPI_Sendrecv_c: %lld", (long long)n);
    for (int k = 0; k < 8; k++) CHECK(in[k] == prev * 100 + k, "Sendrecv_c in[%d] = %d", k, in[k]);

    MPI_Request r[2];
    for (int k = 0; k < 8; k++) in[k] = -1;
    MPI_Irecv_c(in, 8, MPI_INT, prev, 6, MPI_COMM_WORLD, &r[0]);
    MPI_Isend_c(out, 5, MPI_INT, next, 6, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 5; k++) CHECK(in[k] == prev * 100 + k, "Irecv_c in[%d] = %d", k, in[k]);
    CHECK(in[5] == -1, "Irecv_c wrote past the 5 elements sent: %d", in[5]);

    /* persistent, started twice with new data */
    MPI_Send_init_c(out, 3, MPI_INT, next, 7, MPI_COMM_WORLD, &r[1]);
    MPI_Recv_init_c(in, 3, MPI_INT, prev, 7, MPI_COMM_WORLD, &r[0]);
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 3; k++) out[k] = rank * 10 + k + round * 1000;
        MPI_Startall(2, r);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        for (int k = 0; k < 3; k++)
            CHECK(in[k] == prev * 10 + k + round * 1000, "Send_init_c round %d in[%d] = %d", round, k, in[k]);
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);

    /* Ssend_c / Recv_c pairs, then Sendrecv_replace_c */
    if (size > 1) {
        if (rank == 0) {
            MPI_Ssend_c(out, 2, MPI_INT, 1, 8, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv_c(in, 8, MPI_INT, 0, 8, MPI_COMM_WORLD, &st);
            MPI_Get_count_c(&st, MPI_INT, &n);
            CHECK(n == 2 && in[0] == 1000 && in[1] == 1001, "Ssend_c: count %lld, %d %d", (long long)n, in[0], in[1]);
        }
    }
    int v[2] = {rank, -rank};
    MPI_Sendrecv_replace_c(v, 2, MPI_INT, next, 9, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v[0] == prev && v[1] == -prev, "Sendrecv_replace_c: %d %d", v[0], v[1]);
}

static void check_collectives(void)
{
    MPI_Count *counts = (MPI_Count *)mt_alloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Aint *displs = (MPI_Aint *)mt_alloc(sizeof(MPI_Aint) * (size_t)size);
    int *sbuf = (int *)mt_alloc(sizeof(int) * (size_t)size * 3);
    int *rbuf = (int *)mt_alloc(sizeof(int) * (size_t)size * 3);

    int b[4] = {0, 0, 0, 0};
    if (rank == size - 1) b[0] = 7, b[1] = 8, b[2] = 9, b[3] = 10;
    MPI_Bcast_c(b, 4, MPI_INT, size - 1, MPI_COMM_WORLD);
    CHECK(b[0] == 7 && b[3] == 10, "Bcast_c: %d %d", b[0], b[3]);

    long long x = rank + 1, sum = 0;
    MPI_Allreduce_c(&x, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == (long long)size * (size + 1) / 2, "Allreduce_c: %lld", sum);
    MPI_Scan_c(&x, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == (long long)(rank + 1) * (rank + 2) / 2, "Scan_c: %lld", sum);

    /* alltoallv: one int to each rank, at 3 * its rank (as MPICH's coll_large) */
    for (int i = 0; i < size; i++) counts[i] = 1, displs[i] = 3 * i;
    for (int i = 0; i < 3 * size; i++) sbuf[i] = rank * 1000 + i, rbuf[i] = -1;
    MPI_Alltoallv_c(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        CHECK(rbuf[3 * i] == i * 1000 + 3 * rank, "Alltoallv_c from %d: %d", i, rbuf[3 * i]);

    /* the nonblocking one: the arrays it was given are changed after the
     * call returns only once it is done */
    for (int i = 0; i < 3 * size; i++) rbuf[i] = -1;
    MPI_Request req;
    MPI_Ialltoallv_c(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < size; i++)
        CHECK(rbuf[3 * i] == i * 1000 + 3 * rank, "Ialltoallv_c from %d: %d", i, rbuf[3 * i]);

    /* gatherv at rank 0: rank i gives i % 3 + 1 ints, packed back to back */
    MPI_Aint at = 0;
    for (int i = 0; i < size; i++) counts[i] = i % 3 + 1, displs[i] = at, at += counts[i];
    for (int k = 0; k < 3; k++) sbuf[k] = rank * 10 + k;
    for (int i = 0; i < 3 * size; i++) rbuf[i] = -1;
    MPI_Gatherv_c(sbuf, rank % 3 + 1, MPI_INT, rbuf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int i = 0; i < size; i++)
            for (int k = 0; k < counts[i]; k++)
                CHECK(rbuf[displs[i] + k] == i * 10 + k, "Gatherv_c from %d [%d]: %d", i, k, rbuf[displs[i] + k]);

    /* persistent allgatherv, started twice */
    MPI_Allgatherv_init_c(sbuf, rank % 3 + 1, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &req);
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 3; k++) sbuf[k] = rank * 10 + k + round * 500;
        for (int i = 0; i < 3 * size; i++) rbuf[i] = -1;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < size; i++)
            for (int k = 0; k < counts[i]; k++)
                CHECK(rbuf[displs[i] + k] == i * 10 + k + round * 500, "Allgatherv_init_c round %d from %d: %d", round,
                      i, rbuf[displs[i] + k]);
    }
    MPI_Request_free(&req);

    /* reduce_scatter: rank i gets i % 2 + 1 sums */
    int total = 0;
    for (int i = 0; i < size; i++) counts[i] = i % 2 + 1, total += (int)counts[i];
    for (int k = 0; k < total; k++) sbuf[k] = k + rank;
    MPI_Reduce_scatter_c(sbuf, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int first = 0;
    for (int i = 0; i < rank; i++) first += i % 2 + 1;
    for (int k = 0; k < rank % 2 + 1; k++)
        CHECK(rbuf[k] == size * (first + k) + size * (size - 1) / 2, "Reduce_scatter_c [%d]: %d", k, rbuf[k]);

    /* alltoallw: displacements in bytes, one int each way */
    MPI_Datatype *types = (MPI_Datatype *)mt_alloc(sizeof(MPI_Datatype) * (size_t)size);
    for (int i = 0; i < size; i++) counts[i] = 1, displs[i] = (MPI_Aint)(i * sizeof(int)), types[i] = MPI_INT;
    for (int i = 0; i < size; i++) sbuf[i] = rank * 1000 + i, rbuf[i] = -1;
    MPI_Alltoallw_c(sbuf, counts, displs, types, rbuf, counts, displs, types, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++) CHECK(rbuf[i] == i * 1000 + rank, "Alltoallw_c from %d: %d", i, rbuf[i]);
    free(types);

    /* a periodic ring: the neighbour arrays have 2 entries (its degree) */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int prev = (rank + size - 1) % size, next = (rank + 1) % size;
    MPI_Count nc[2] = {1, 1};
    MPI_Aint nd[2] = {0, 1};
    int ns[2] = {rank * 10, rank * 10 + 1}, nr[2] = {-1, -1};
    MPI_Neighbor_alltoallv_c(ns, nc, nd, MPI_INT, nr, nc, nd, MPI_INT, ring);
    /* (below 3 ranks both neighbours are one rank, whose two messages
     * MPICH 4.0.2 matches in the other order) */
    CHECK(size < 3 || (nr[0] == prev * 10 + 1 && nr[1] == next * 10), "Neighbor_alltoallv_c: %d %d (want %d %d)", nr[0], nr[1],
          prev * 10 + 1, next * 10);
    MPI_Comm_free(&ring);

    free(counts);
    free(displs);
    free(sbuf);
    free(rbuf);
}

static void check_types(void)
{
    MPI_Count sz = -1, lb = -1, ext = -1;

    /* more than 2^31 bytes: described, never sent */
    MPI_Datatype big;
    MPI_Type_contiguous_c(3LL << 30, MPI_CHAR, &big);
    MPI_Type_size_c(big, &sz);
    MPI_Type_get_extent_c(big, &lb, &ext);
    CHECK(sz == 3LL << 30 && lb == 0 && ext == 3LL << 30, "contiguous_c 3 GiB: size %lld lb %lld extent %lld",
          (long long)sz, (long long)lb, (long long)ext);
    MPI_Type_free(&big);

    /* a vector: 3 blocks of 2 ints, 4 apart */
    MPI_Datatype vec;
    MPI_Type_vector_c(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_size_c(vec, &sz);
    MPI_Type_get_extent_c(vec, &lb, &ext);
    CHECK(sz == 6 * (MPI_Count)sizeof(int) && ext == 10 * (MPI_Count)sizeof(int), "vector_c: size %lld extent %lld",
          (long long)sz, (long long)ext);
    MPI_Count ni = -1, na = -1, nc = -1, nd = -1;
    int combiner = -1;
    MPI_Type_get_envelope_c(vec, &ni, &na, &nc, &nd, &combiner);
    CHECK(combiner == MPI_COMBINER_VECTOR && ni == 0 && na == 0 && nc == 3 && nd == 1,
          "vector_c envelope: combiner %d, %lld ints %lld addresses %lld large counts %lld types", combiner,
          (long long)ni, (long long)na, (long long)nc, (long long)nd);
    if (nc == 3 && nd == 1 && ni == 0 && na == 0) {
        MPI_Count lc[3];
        MPI_Datatype t[1];
        MPI_Type_get_contents_c(vec, 0, 0, 3, 1, NULL, NULL, lc, t);
        CHECK(lc[0] == 3 && lc[1] == 2 && lc[2] == 4 && t[0] == MPI_INT, "vector_c contents: %lld %lld %lld",
              (long long)lc[0], (long long)lc[1], (long long)lc[2]);
    }

    /* send the vector around the ring: 6 ints land contiguous */
    int src[12], dst[6];
    for (int k = 0; k < 12; k++) src[k] = rank * 100 + k;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv_c(src, 1, vec, next, 11, dst, 6, MPI_INT, prev, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    static const int picked[6] = {0, 1, 4, 5, 8, 9};
    for (int k = 0; k < 6; k++) CHECK(dst[k] == prev * 100 + picked[k], "vector_c sent: [%d] = %d", k, dst[k]);

    /* hindexed: 2 ints at byte 8, 1 at byte 0; then resized to 5 ints */
    MPI_Count bls[2] = {2, 1}, hd[2] = {2 * sizeof(int), 0};
    MPI_Datatype hix, rs;
    MPI_Type_create_hindexed_c(2, bls, hd, MPI_INT, &hix);
    MPI_Type_create_resized_c(hix, 0, 5 * sizeof(int), &rs);
    MPI_Type_commit(&rs);
    MPI_Type_get_true_extent_c(rs, &lb, &ext);
    MPI_Type_size_c(rs, &sz);
    CHECK(lb == 0 && ext == 4 * (MPI_Count)sizeof(int) && sz == 3 * (MPI_Count)sizeof(int),
          "hindexed_c/resized_c: true lb %lld true extent %lld size %lld", (long long)lb, (long long)ext,
          (long long)sz);

    /* pack two of them and unpack as plain ints: type-map order */
    char packed[64];
    MPI_Count pos = 0, psize = -1;
    MPI_Pack_size_c(2, rs, MPI_COMM_WORLD, &psize);
    CHECK(psize >= 6 * (MPI_Count)sizeof(int), "Pack_size_c: %lld", (long long)psize);
    MPI_Pack_c(src, 2, rs, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    CHECK(pos == 6 * (MPI_Count)sizeof(int), "Pack_c position %lld", (long long)pos);
    int un[6];
    MPI_Count upos = 0;
    MPI_Unpack_c(packed, pos, &upos, un, 6, MPI_INT, MPI_COMM_WORLD);
    static const int order[6] = {2, 3, 0, 7, 8, 5};
    for (int k = 0; k < 6; k++) CHECK(un[k] == rank * 100 + order[k], "Pack_c/Unpack_c [%d] = %d", k, un[k]);
    MPI_Type_free(&hix);
    MPI_Type_free(&rs);
    MPI_Type_free(&vec);

    /* a struct with padding, reduced by a _c user op */
    MPI_Count sbl[2] = {1, 1}, sd[2] = {offsetof(pair_t, i), offsetof(pair_t, d)};
    MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct_c(2, sbl, sd, st, &pair_type);
    MPI_Type_commit(&pair_type);
    MPI_Type_get_extent_c(pair_type, &lb, &ext);
    CHECK(ext == (MPI_Count)sizeof(pair_t), "struct_c extent %lld", (long long)ext);
    MPI_Op op;
    MPI_Op_create_c(pair_sum, 1, &op);
    pair_t mine[3], all[3];
    for (int k = 0; k < 3; k++) mine[k].i = rank + k, mine[k].d = 0.5 * rank + k;
    MPI_Allreduce_c(mine, all, 3, pair_type, op, MPI_COMM_WORLD);
    for (int k = 0; k < 3; k++) {
        int ei = size * (size - 1) / 2 + size * k;
        double ed = 0.25 * size * (size - 1) + size * k;
        CHECK(all[k].i == ei && all[k].d == ed, "Allreduce_c with Op_create_c [%d]: %d %g (want %d %g)", k, all[k].i,
              all[k].d, ei, ed);
    }
    pair_t acc[3] = {{1, 1.0}, {2, 2.0}, {3, 3.0}};
    user_calls = user_len_ok = 0;
    MPI_Reduce_local_c(mine, acc, 3, pair_type, op);
    CHECK(user_calls >= 1 && user_len_ok == user_calls, "Reduce_local_c: %d calls, %d with the right length and type",
          user_calls, user_len_ok);
    for (int k = 0; k < 3; k++)
        CHECK(acc[k].i == k + 1 + rank + k && acc[k].d == k + 1 + 0.5 * rank + k, "Reduce_local_c [%d]: %d %g", k,
              acc[k].i, acc[k].d);
    MPI_Op_free(&op);
    MPI_Type_free(&pair_type);
}

static void check_errors(void)
{
    int buf[2] = {0, 0}, cls = -1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Send_c(buf, -1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_COUNT, "MPI_Send_c count -1: rc %d class %d", rc, cls);

    /* past 2^31-1: gpumpi's limit (an error), a legal count elsewhere (to
     * MPI_PROC_NULL nothing moves) */
    rc = MPI_Send_c(buf, 1LL << 31, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
#ifdef MPICH_VERSION
    CHECK(rc == MPI_SUCCESS, "MPI_Send_c count 2^31 to MPI_PROC_NULL: rc %d class %d", rc, cls);
#else
    CHECK(cls == MPI_ERR_COUNT, "MPI_Send_c count 2^31: rc %d class %d (want MPI_ERR_COUNT)", rc, cls);
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    check_p2p();
    check_collectives();
    check_types();
    check_errors();
    return mt_finish();
}
