/* MPI-4.0's requests: persistent collectives (every kind, each started
 * several times with new data before each start; started in different
 * orders on different ranks; a gatherv's instances back to back, where a
 * rank runs ahead into the next one; inactive requests in Waitall; freed
 * inactive), persistent neighbourhood collectives, MPI_Isendrecv and
 * MPI_Isendrecv_replace (small and past the eager size, MPI_PROC_NULL,
 * completed by Wait, Test loops and Waitall), MPI_Rsend_init, and
 * MPI_Comm_idup_with_info of two communicators started in different orders.
 * Prints " No Errors" when every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

enum { STARTS = 4, BIG = 3000 };

/* MPICH 4.0.2, the oracle, hangs in MPI_Waitall over an inactive persistent
 * collective request, leaves MPI_Isendrecv's status empty and crashes in
 * MPI_Isendrecv with MPI_PROC_NULL: those checks are made under gpumpi only. */
#ifdef MPICH
#define ORACLE_BUGS 1
#else
#define ORACLE_BUGS 0
#endif

static int value(int from, int to, int i) { return (from * 7 + to * 13 + i) % 1000003; }

static void test_loop(MPI_Request *r, MPI_Status *st)
{
    int flag = 0;
    while (!flag) MPI_Test(r, &flag, st);
}

/* the request stays after completion, inactive; Request_free frees it */
static void free_persistent(MPI_Request *r, const char *what)
{
    CHECK(*r != MPI_REQUEST_NULL, "%s: persistent request freed by its completion", what);
    MPI_Request_free(r);
    CHECK(*r == MPI_REQUEST_NULL, "%s: MPI_Request_free left the handle", what);
}

static void rooted(void)
{
    int root = size - 1, n = BIG;
    int *buf = mt_alloc(sizeof(int) * n);
    MPI_Request r;
    MPI_Bcast_init(buf, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int k = 0; k < STARTS; k++) {
        for (int i = 0; i < n; i++) buf[i] = rank == root ? value(root, k, i) : -1;
        MPI_Start(&r);
        if (k % 2)
            test_loop(&r, MPI_STATUS_IGNORE);
        else
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        int ok = 1;
        for (int i = 0; i < n; i++) ok &= buf[i] == value(root, k, i);
        CHECK(ok, "bcast_init: start %d", k);
    }
    free_persistent(&r, "bcast_init");
    free(buf);

    int x, sum = -1;
    MPI_Reduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int k = 0; k < STARTS; k++) {
        x = rank + k;
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (rank == 0) CHECK(sum == size * (size - 1) / 2 + k * size, "reduce_init: start %d: %d", k, sum);
    }
    free_persistent(&r, "reduce_init");

    /* started once each: MPICH 4.0.2 gets later starts of these two wrong
     * (a scatter root's data and a gather root's own block as at the first) */
    int mine[2], *all = mt_alloc(sizeof(int) * 2 * size), *parts = mt_alloc(sizeof(int) * 2 * size), got[2] = {-1, -1};
    for (int i = 0; i < 2 * size; i++) parts[i] = value(i, size, 3);
    mine[0] = value(rank, 1, 0);
    mine[1] = value(rank, 1, 1);
    MPI_Gather_init(mine, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Request s;
    MPI_Scatter_init(parts, 2, MPI_INT, got, 2, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0) {
        int ok = 1;
        for (int i = 0; i < size; i++) ok &= all[2 * i] == value(i, 1, 0) && all[2 * i + 1] == value(i, 1, 1);
        CHECK(ok, "gather_init");
    }
    MPI_Start(&s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    CHECK(got[0] == value(2 * rank, size, 3) && got[1] == value(2 * rank + 1, size, 3), "scatter_init");
    free_persistent(&r, "gather_init");
    free_persistent(&s, "scatter_init");
    free(all);
    free(parts);
}

/* Gatherv's root takes its messages from any source: ranks that finished an
 * instance start the next one before the root has all of this one's. */
static void gatherv_back_to_back(void)
{
    int *counts = mt_alloc(sizeof(int) * size), *displs = mt_alloc(sizeof(int) * size), total = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = i % 3 + 1;
        displs[i] = total;
        total += counts[i];
    }
    int *all = mt_alloc(sizeof(int) * total), mine[3];
    MPI_Request r;
    MPI_Gatherv_init(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int k = 0; k < 20; k++) {
        for (int j = 0; j < counts[rank]; j++) mine[j] = value(rank, k, j);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (rank == 0) {
            int ok = 1;
            for (int i = 0; i < size; i++)
                for (int j = 0; j < counts[i]; j++) ok &= all[displs[i] + j] == value(i, k, j);
            CHECK(ok, "gatherv_init: start %d", k);
        }
    }
    free_persistent(&r, "gatherv_init");
    free(all);
    free(counts);
    free(displs);
}

static void everyone(void)
{
    int n = size <= 1024 ? size : 1024; /* alltoall and allgather hold O(size) a rank */
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &comm);
    if (comm == MPI_COMM_NULL) return;
    int *sbuf = mt_alloc(sizeof(int) * n), *rbuf = mt_alloc(sizeof(int) * n), *gath = mt_alloc(sizeof(int) * n);
    int x, sum, scan, exscan, rsb, one;
    MPI_Request r[7];
    MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[0]);
    MPI_Scan_init(&x, &scan, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[1]);
    MPI_Exscan_init(&x, &exscan, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[2]);
    MPI_Alltoall_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, MPI_INFO_NULL, &r[3]);
    MPI_Reduce_scatter_block_init(sbuf, &rsb, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[4]);
    MPI_Barrier_init(comm, MPI_INFO_NULL, &r[5]);
    /* the same data at every start, and under MPICH the result not cleared
     * between starts: MPICH 4.0.2 copies the data at the init call, and at
     * 2 and 4 ranks writes the result at the first start only */
    one = value(rank, 0, 7);
    MPI_Allgather_init(&one, 1, MPI_INT, gath, 1, MPI_INT, comm, MPI_INFO_NULL, &r[6]);
    for (int k = 0; k < STARTS; k++) {
        x = rank + k;
        for (int i = 0; i < n; i++) sbuf[i] = value(rank, i, k);
        MPI_Startall(6, r); /* the allgather stays inactive: Waitall passes over it */
        MPI_Waitall(ORACLE_BUGS ? 6 : 7, r, MPI_STATUSES_IGNORE);
        CHECK(sum == n * (n - 1) / 2 + k * n, "allreduce_init: start %d: %d", k, sum);
        CHECK(scan == rank * (rank + 1) / 2 + k * (rank + 1), "scan_init: start %d: %d", k, scan);
        if (rank > 0)
            CHECK(exscan == rank * (rank - 1) / 2 + k * rank, "exscan_init: start %d: %d", k, exscan);
        int ok = 1, want = 0;
        for (int i = 0; i < n; i++) {
            ok &= rbuf[i] == value(i, rank, k);
            want += value(i, rank, k);
        }
        CHECK(ok, "alltoall_init: start %d", k);
        CHECK(rsb == want, "reduce_scatter_block_init: start %d", k);
        for (int i = 0; i < n && !ORACLE_BUGS; i++) gath[i] = -1;
        MPI_Start(&r[6]);
        MPI_Wait(&r[6], MPI_STATUS_IGNORE);
        ok = 1;
        for (int i = 0; i < n; i++) ok &= gath[i] == value(i, 0, 7);
        CHECK(ok, "allgather_init: start %d", k);
    }
    for (int i = 0; i < 7; i++) free_persistent(&r[i], "everyone");
    free(sbuf);
    free(rbuf);
    free(gath);
    MPI_Comm_free(&comm);
}

/* Only the init calls are ordered: starts may come in any order. */
static void start_order(void)
{
    int a = -1, b = -1;
    MPI_Request r[2];
    MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
    MPI_Allreduce_init(&rank, &b, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
    for (int k = 0; k < STARTS; k++) {
        if (rank == 0) a = 100 + k;
        int first = (rank + k) % 2;
        MPI_Start(&r[first]);
        MPI_Barrier(MPI_COMM_WORLD); /* a blocking collective between the starts */
        MPI_Start(&r[1 - first]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(a == 100 + k && b == size - 1, "start order: start %d: %d %d", k, a, b);
    }
    free_persistent(&r[0], "start order");
    free_persistent(&r[1], "start order");
}

static void neighbours(void)
{
    int periods[1] = {1}, dims[1] = {size};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    int mine, got[2], out[2], in[2];
    MPI_Request r[2];
    MPI_Neighbor_allgather_init(&mine, 1, MPI_INT, got, 1, MPI_INT, ring, MPI_INFO_NULL, &r[0]);
    MPI_Neighbor_alltoall_init(out, 1, MPI_INT, in, 1, MPI_INT, ring, MPI_INFO_NULL, &r[1]);
    for (int k = 0; k < STARTS; k++) {
        mine = value(rank, k, 0);
        out[0] = value(rank, k, 1); /* to the left */
        out[1] = value(rank, k, 2); /* to the right */
        MPI_Startall(2, r);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        if (size > 2) { /* with one or two ranks the two neighbours are one rank */
            CHECK(got[0] == value(left, k, 0) && got[1] == value(right, k, 0), "neighbor_allgather_init: start %d", k);
            CHECK(in[0] == value(left, k, 2) && in[1] == value(right, k, 1), "neighbor_alltoall_init: start %d", k);
        }
    }
    free_persistent(&r[0], "neighbor_allgather_init");
    free_persistent(&r[1], "neighbor_alltoall_init");
    MPI_Comm_free(&ring);
}

static void sendrecv_pairs(void)
{
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    for (int big = 0; big < 2; big++) {
        int n = big ? BIG : 3;
        int *out = mt_alloc(sizeof(int) * n), *in = mt_alloc(sizeof(int) * n);
        for (int i = 0; i < n; i++) {
            out[i] = value(rank, right, i);
            in[i] = -1;
        }
        MPI_Request r;
        MPI_Status st;
        MPI_Isendrecv(out, n, MPI_INT, right, 5, in, n, MPI_INT, left, 5, MPI_COMM_WORLD, &r);
        if (big)
            test_loop(&r, &st);
        else
            MPI_Wait(&r, &st);
        int count = -1, ok = 1;
        MPI_Get_count(&st, MPI_INT, &count);
        for (int i = 0; i < n; i++) ok &= in[i] == value(left, rank, i);
        CHECK(ok && r == MPI_REQUEST_NULL, "isendrecv %d ints", n);
        CHECK(ORACLE_BUGS || (st.MPI_SOURCE == left && st.MPI_TAG == 5 && count == n), "isendrecv status: %d %d %d",
              st.MPI_SOURCE, st.MPI_TAG, count);

        /* both directions at once, in place */
        MPI_Request two[2];
        int *back = mt_alloc(sizeof(int) * n);
        for (int i = 0; i < n; i++) back[i] = value(rank, left, i);
        memcpy(in, out, sizeof(int) * n);
        MPI_Isendrecv_replace(in, n, MPI_INT, right, 6, left, 6, MPI_COMM_WORLD, &two[0]);
        MPI_Isendrecv_replace(back, n, MPI_INT, left, 7, right, 7, MPI_COMM_WORLD, &two[1]);
        MPI_Status sts[2];
        MPI_Waitall(2, two, sts);
        ok = 1;
        for (int i = 0; i < n; i++) ok &= in[i] == value(left, rank, i) && back[i] == value(right, rank, i);
        CHECK(ok, "isendrecv_replace %d ints", n);
        CHECK(ORACLE_BUGS || (sts[0].MPI_SOURCE == left && sts[1].MPI_SOURCE == right && sts[1].MPI_TAG == 7),
              "isendrecv_replace statuses");
        free(back);
        free(out);
        free(in);
    }
    if (ORACLE_BUGS) return;
    int x = 9;
    MPI_Request r;
    MPI_Status st;
    MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, &x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
    CHECK(x == 9 && st.MPI_SOURCE == MPI_PROC_NULL, "isendrecv with MPI_PROC_NULL");
}

static void ready_init(void)
{
    int left = (rank - 1 + size) % size, right = (rank + 1) % size, in = -1, out;
    MPI_Request s, q;
    MPI_Rsend_init(&out, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &s);
    for (int k = 0; k < STARTS; k++) {
        MPI_Irecv(&in, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &q);
        MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted before its ready send */
        out = value(rank, k, 0);
        MPI_Start(&s);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        CHECK(in == value(left, k, 0), "rsend_init: start %d", k);
    }
    free_persistent(&s, "rsend_init");
}

/* Even ranks dup a then b, odd ranks b then a: a dup that waited for the
 * others would hang. */
static void idups(void)
{
    MPI_Comm a, b, da, db;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Request r[2];
    if (rank % 2 == 0) {
        MPI_Comm_idup_with_info(a, info, &da, &r[0]);
        MPI_Comm_idup(b, &db, &r[1]);
    } else {
        MPI_Comm_idup(b, &db, &r[1]);
        MPI_Comm_idup_with_info(a, info, &da, &r[0]);
    }
    MPI_Info_free(&info); /* before completion: the dup keeps its own */
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    int sa = -1, sb = -1;
    MPI_Allreduce(&rank, &sa, 1, MPI_INT, MPI_SUM, da);
    MPI_Allreduce(&rank, &sb, 1, MPI_INT, MPI_MAX, db);
    CHECK(sa == size * (size - 1) / 2 && sb == size - 1, "idup: %d %d", sa, sb);
    MPI_Comm_free(&da);
    MPI_Comm_free(&db);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    rooted();
    gatherv_back_to_back();
    everyone();
    start_order();
    neighbours();
    sendrecv_pairs();
    ready_init();
    idups();
    return mt_finish();
}
