/* Intercommunicators: MPI_Intercomm_create between the low and the high
 * part of the world (uneven sizes), point to point across it (ranks and
 * wildcards name the remote group), every collective with its
 * intercommunicator meaning (data from one group lands in the other; a
 * root group passes MPI_ROOT and MPI_PROC_NULL), nonblocking ones, and
 * MPI_Intercomm_merge, MPI_Comm_dup, MPI_Comm_split and MPI_Comm_create
 * of one, and MPI_Comm_idup(_with_info) of one overlapping other traffic
 * (a dup that blocked until both groups had called it deadlocks there).
 * With one rank there is no second group: only the world's checks. */
#include "mpitest.h"
#include <string.h>

static MPI_Comm ic;
static int low, lrank, lsize, rsize; /* this rank's side, rank and sizes */

/* the value remote rank r sends to local rank i in a check */
static int val(int side_low, int r, int i) { return (side_low ? 1000 : 2000) + 10 * r + i; }

static void check_p2p(void)
{
    int out = val(low, lrank, 0), in = -1;
    MPI_Status st;
    /* each rank of the low side talks to the rank of the same number on the high side, if any */
    int peer = lrank < rsize ? lrank : MPI_PROC_NULL;
    MPI_Sendrecv(&out, 1, MPI_INT, peer, 5, &in, 1, MPI_INT, peer, 5, ic, &st);
    if (peer != MPI_PROC_NULL) {
        CHECK(in == val(!low, peer, 0), "sendrecv across: got %d, want %d", in, val(!low, peer, 0));
        CHECK(st.MPI_SOURCE == peer, "status source %d, want remote rank %d", st.MPI_SOURCE, peer);
    }
    /* remote rank 0 sends to every local rank; MPI_ANY_SOURCE names it by its remote rank */
    if (lrank == 0)
        for (int i = 0; i < rsize; i++) MPI_Send(&out, 1, MPI_INT, i, 6, ic);
    MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 6, ic, &st);
    CHECK(in == val(!low, 0, 0) && st.MPI_SOURCE == 0, "any-source receive: %d from %d", in, st.MPI_SOURCE);
}

static void check_rooted(void)
{
    int *buf = (int *)mt_alloc(sizeof(int) * (size_t)(rsize + lsize) * 2), x = -1;
    /* the low group's rank 0 is the root of each; the high group receives or contributes */
    int root = low ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    x = low ? 77 : -1;
    MPI_Bcast(&x, 1, MPI_INT, root, ic);
    if (!low) CHECK(x == 77, "bcast: %d", x);
    x = val(low, lrank, 1);
    for (int i = 0; i < rsize; i++) buf[i] = -1;
    MPI_Gather(&x, 1, MPI_INT, buf, 1, MPI_INT, root, ic);
    if (root == MPI_ROOT)
        for (int i = 0; i < rsize; i++) CHECK(buf[i] == val(0, i, 1), "gather[%d] %d", i, buf[i]);
    int *counts = buf + rsize + lsize, *displs = counts + rsize;
    (void)displs;
    for (int i = 0; i < rsize; i++) buf[i] = val(low, i, 2);
    x = -1;
    MPI_Scatter(buf, 1, MPI_INT, &x, 1, MPI_INT, root, ic);
    if (!low) CHECK(x == val(1, lrank, 2), "scatter: %d", x);
    /* reduce: the high group's ranks sum to the low root */
    int sum = 0;
    x = lrank + 1;
    MPI_Reduce(&x, &sum, 1, MPI_INT, MPI_SUM, root, ic);
    if (root == MPI_ROOT) CHECK(sum == rsize * (rsize + 1) / 2, "reduce: %d", sum);
    free(buf);
}

static void check_all(void)
{
    int n = rsize > lsize ? rsize : lsize;
    int *s = (int *)mt_alloc(sizeof(int) * (size_t)n), *r = (int *)mt_alloc(sizeof(int) * (size_t)n);
    int x = lrank + (low ? 1 : 100), sum = -1;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, ic);
    int want = low ? 100 * rsize + rsize * (rsize - 1) / 2 : rsize * (rsize + 1) / 2;
    CHECK(sum == want, "allreduce: %d, want the other group's sum %d", sum, want);
    /* non-commutative order: MPI_Op on the remote ranks in rank order */
    x = val(low, lrank, 3);
    for (int i = 0; i < rsize; i++) r[i] = -1;
    MPI_Allgather(&x, 1, MPI_INT, r, 1, MPI_INT, ic);
    for (int i = 0; i < rsize; i++) CHECK(r[i] == val(!low, i, 3), "allgather[%d] %d", i, r[i]);
    for (int i = 0; i < rsize; i++) s[i] = val(low, lrank, 10 + i % 10) + 100000 * i;
    MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, ic);
    for (int i = 0; i < rsize; i++)
        CHECK(r[i] == val(!low, i, 10 + lrank % 10) + 100000 * lrank, "alltoall[%d] %d", i, r[i]);
    /* reduce_scatter_block: the other group's vectors of lsize... here each
     * vector has as many entries as the receiving group has ranks */
    int total = rsize; /* the other group scatters over rsize ranks: my vector has rsize entries */
    for (int i = 0; i < total; i++) s[i] = i + 1;
    x = -1;
    int *rc = (int *)mt_alloc(sizeof(int) * (size_t)lsize);
    for (int i = 0; i < lsize; i++) rc[i] = 1;
    if (lsize == rsize) { /* the block variant needs the same total on both sides */
        MPI_Reduce_scatter_block(s, &x, 1, MPI_INT, MPI_SUM, ic);
        CHECK(x == rsize * (lrank + 1), "reduce_scatter_block: %d", x);
    }
    free(rc);
    MPI_Request req;
    x = low ? 55 : -1;
    MPI_Ibcast(&x, 1, MPI_INT, low ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, ic, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (!low) CHECK(x == 55, "ibcast: %d", x);
    x = 1;
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, ic, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(sum == rsize, "iallreduce: %d", sum);
    MPI_Ibarrier(ic, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(ic);
    free(s);
    free(r);
}

static void check_made(void)
{
    /* merge: the high group asks to come last, so world order comes back */
    MPI_Comm m;
    MPI_Intercomm_merge(ic, !low, &m);
    int mr, ms;
    MPI_Comm_rank(m, &mr);
    MPI_Comm_size(m, &ms);
    CHECK(ms == size && mr == rank, "merge: rank %d of %d, want %d of %d", mr, ms, rank, size);
    int x = rank, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, m);
    CHECK(sum == size * (size - 1) / 2, "allreduce on the merged: %d", sum);
    MPI_Comm_free(&m);
    /* dup keeps both groups; its traffic is apart from the parent's */
    MPI_Comm d;
    MPI_Comm_dup(ic, &d);
    int flag = 0, rs = 0;
    MPI_Comm_test_inter(d, &flag);
    MPI_Comm_remote_size(d, &rs);
    CHECK(flag && rs == rsize, "dup: inter %d, remote size %d", flag, rs);
    int in = -1, out = val(low, lrank, 4);
    int peer = lrank < rsize ? lrank : MPI_PROC_NULL;
    MPI_Sendrecv(&out, 1, MPI_INT, peer, 0, &in, 1, MPI_INT, peer, 0, d, MPI_STATUS_IGNORE);
    if (peer != MPI_PROC_NULL) CHECK(in == val(!low, peer, 4), "sendrecv on the dup: %d", in);
    MPI_Comm_free(&d);
    /* split by parity of the local rank: the even ranks of both sides meet */
    MPI_Comm sp;
    MPI_Comm_split(ic, lrank % 2, lrank, &sp);
    int want_remote = lrank % 2 ? rsize / 2 : (rsize + 1) / 2;
    if (want_remote == 0) {
        CHECK(sp == MPI_COMM_NULL, "split: a color with no remote member must give MPI_COMM_NULL");
    } else {
        int ls, sr;
        MPI_Comm_size(sp, &ls);
        MPI_Comm_remote_size(sp, &sr);
        CHECK(ls == (lrank % 2 ? lsize / 2 : (lsize + 1) / 2) && sr == want_remote, "split: sizes %d / %d", ls, sr);
        int one = 1, got = 0;
        MPI_Allreduce(&one, &got, 1, MPI_INT, MPI_SUM, sp);
        CHECK(got == sr, "allreduce on the split: %d, want %d", got, sr);
        MPI_Comm_free(&sp);
    }
    /* create: the first local rank of each side alone */
    MPI_Group lg, g0;
    MPI_Comm_group(ic, &lg);
    int zero = 0;
    MPI_Group_incl(lg, 1, &zero, &g0);
    MPI_Comm c0;
    MPI_Comm_create(ic, g0, &c0);
    if (lrank == 0) {
        int rs0 = 0;
        MPI_Comm_remote_size(c0, &rs0);
        CHECK(rs0 == 1, "create: remote size %d", rs0);
        MPI_Comm_free(&c0);
    } else {
        CHECK(c0 == MPI_COMM_NULL, "create: a rank outside the group must get MPI_COMM_NULL");
    }
    MPI_Group_free(&g0);
    MPI_Group_free(&lg);
}

/* One dup's traffic: a value across to the rank of the same number, and
 * the remote group's sum of tagged local ranks. */
static void check_dup_works(MPI_Comm d, int tag, const char *what)
{
    int flag = 0, rs = 0, ls = 0, lr = -1;
    MPI_Comm_test_inter(d, &flag);
    MPI_Comm_remote_size(d, &rs);
    MPI_Comm_size(d, &ls);
    MPI_Comm_rank(d, &lr);
    CHECK(flag && rs == rsize && ls == lsize && lr == lrank, "%s: inter %d, sizes %d / %d, rank %d", what, flag, ls, rs,
          lr);
    int in = -1, out = val(low, lrank, tag), peer = lrank < rsize ? lrank : MPI_PROC_NULL;
    MPI_Sendrecv(&out, 1, MPI_INT, peer, tag, &in, 1, MPI_INT, peer, tag, d, MPI_STATUS_IGNORE);
    if (peer != MPI_PROC_NULL) CHECK(in == val(!low, peer, tag), "%s: sendrecv got %d", what, in);
    int x = 1000 * tag + lrank, sum = -1;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, d);
    CHECK(sum == 1000 * tag * rsize + rsize * (rsize - 1) / 2, "%s: allreduce %d", what, sum);
}

static void check_idup(void)
{
    /* each group's rank 0 takes a message from every other remote rank
     * before it calls MPI_Comm_idup; those ranks send only after theirs */
    MPI_Comm d;
    MPI_Request req;
    int buf[2];
    if (lrank == 0) {
        for (int i = 1; i < rsize; i++) {
            MPI_Recv(buf, 2, MPI_INT, i, 9, ic, MPI_STATUS_IGNORE);
            CHECK(buf[0] == val(!low, i, 5) && buf[1] == i, "before idup: got %d %d from %d", buf[0], buf[1], i);
        }
        MPI_Comm_idup(ic, &d, &req);
    } else {
        MPI_Comm_idup(ic, &d, &req);
        buf[0] = val(low, lrank, 5);
        buf[1] = lrank;
        MPI_Ssend(buf, 2, MPI_INT, 0, 9, ic);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(req == MPI_REQUEST_NULL, "the idup's request is not MPI_REQUEST_NULL after MPI_Wait");
    check_dup_works(d, 6, "idup");
    /* two dups and a collective on the parent in flight at once, handed
     * back in another order than started; each dup's traffic is its own */
    MPI_Comm d2, d3;
    MPI_Request reqs[3];
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    int x = lrank + 1, sum = -1;
    MPI_Comm_idup_with_info(ic, info, &d2, &reqs[2]);
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, ic, &reqs[1]);
    MPI_Comm_idup(d, &d3, &reqs[0]);
    MPI_Info_free(&info);
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    CHECK(sum == rsize * (rsize + 1) / 2, "iallreduce beside the idups: %d", sum);
    check_dup_works(d3, 7, "idup of an idup");
    check_dup_works(d2, 8, "idup_with_info");
    MPI_Comm_free(&d3);
    MPI_Comm_free(&d2);
    MPI_Comm_free(&d);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int flag = 1;
    MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
    CHECK(!flag, "MPI_COMM_WORLD is not an intercommunicator");
    if (size >= 2) {
        /* the low part is the smaller one with an odd world size */
        int nlow = size / 2;
        low = rank < nlow;
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? nlow : 0, 7, &ic);
        MPI_Comm_rank(ic, &lrank);
        MPI_Comm_size(ic, &lsize);
        MPI_Comm_remote_size(ic, &rsize);
        CHECK(lsize == (low ? nlow : size - nlow) && rsize == size - lsize, "sizes %d / %d", lsize, rsize);
        MPI_Comm_test_inter(ic, &flag);
        CHECK(flag, "MPI_Comm_test_inter says false");
        MPI_Group rg;
        MPI_Comm_remote_group(ic, &rg);
        int r0 = 0, w0 = -1;
        MPI_Group wg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_translate_ranks(rg, 1, &r0, wg, &w0);
        CHECK(w0 == (low ? nlow : 0), "remote group's rank 0 is world rank %d", w0);
        MPI_Group_free(&rg);
        MPI_Group_free(&wg);
        check_p2p();
        check_rooted();
        check_all();
        check_made();
        check_idup();
        MPI_Comm_free(&ic);
        MPI_Comm_free(&half);
    }
    return mt_finish();
}
