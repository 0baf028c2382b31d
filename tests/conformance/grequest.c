/* Generalized requests (MPI-4.0 13.2): MPI_Grequest_start and
 * MPI_Grequest_complete with the Wait/Test family, MPI_Request_get_status,
 * MPI_Request_free and MPI_Cancel. The query callback's status is what
 * the completing call returns (source, tag, element count, cancelled); the
 * free callback runs once, after the query, when the request is handed
 * back or (freed early) completed; the cancel callback learns whether the
 * request was already complete; a callback's error is the call's. Every
 * rank works on its own requests, with a real message from its neighbour
 * among them. */
#include "mpitest.h"
#include <string.h>

typedef struct greq_state {
    int id;
    int queries, frees, cancels;
    int cancel_saw_complete; /* the complete argument of the last cancel */
    int cancelled;           /* what the query reports */
    int query_err;
    char log[16]; /* 'q' query, 'f' free, in order */
    int nlog;
} greq_state;

static int query_fn(void *extra, MPI_Status *status)
{
    greq_state *g = (greq_state *)extra;
    g->queries++;
    if (g->nlog < 15) g->log[g->nlog++] = 'q';
    status->MPI_SOURCE = 1000 + g->id;
    status->MPI_TAG = 2000 + g->id;
    MPI_Status_set_elements(status, MPI_INT, g->id);
    MPI_Status_set_cancelled(status, g->cancelled);
    return g->query_err;
}

static int free_fn(void *extra)
{
    greq_state *g = (greq_state *)extra;
    g->frees++;
    if (g->nlog < 15) g->log[g->nlog++] = 'f';
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    greq_state *g = (greq_state *)extra;
    g->cancels++;
    g->cancel_saw_complete = complete;
    if (!complete) g->cancelled = 1;
    return MPI_SUCCESS;
}

static void start(greq_state *g, int id, MPI_Request *r)
{
    memset(g, 0, sizeof *g);
    g->id = id;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, r);
}

/* The status a query for g gave: source, tag, count of MPI_INT, cancelled. */
static void check_status(const MPI_Status *st, const greq_state *g, const char *what)
{
    int count = -1, flag = -1;
    MPI_Get_count(st, MPI_INT, &count);
    MPI_Test_cancelled(st, &flag);
    CHECK(st->MPI_SOURCE == 1000 + g->id && st->MPI_TAG == 2000 + g->id && count == g->id && flag == g->cancelled,
          "%s: status source %d tag %d count %d cancelled %d, want %d %d %d %d", what, st->MPI_SOURCE, st->MPI_TAG,
          count, flag, 1000 + g->id, 2000 + g->id, g->id, g->cancelled);
}

static void check_once(const greq_state *g, int queries, const char *what)
{
    CHECK(g->frees == 1 && g->queries == queries && g->nlog == queries + 1 && g->log[g->nlog - 1] == 'f',
          "%s: %d queries (want %d), %d frees (want 1), the free last: %.*s", what, g->queries, queries, g->frees,
          g->nlog, g->log);
}

static void check_wait_test(void)
{
    greq_state g;
    MPI_Request r;
    MPI_Status st;
    int flag = -1;
    start(&g, 3, &r);
    MPI_Test(&r, &flag, &st);
    CHECK(!flag && r != MPI_REQUEST_NULL, "MPI_Test before MPI_Grequest_complete: flag %d", flag);
    MPI_Request_get_status(r, &flag, &st);
    CHECK(!flag && g.queries == 0, "MPI_Request_get_status before completion: flag %d, %d queries", flag, g.queries);
    MPI_Grequest_complete(r);
    CHECK(g.queries == 0 && g.frees == 0, "MPI_Grequest_complete called a callback");
    memset(&st, 0, sizeof st);
    MPI_Request_get_status(r, &flag, &st);
    CHECK(flag && r != MPI_REQUEST_NULL && g.queries == 1 && g.frees == 0,
          "MPI_Request_get_status after completion: flag %d, %d queries, %d frees", flag, g.queries, g.frees);
    check_status(&st, &g, "MPI_Request_get_status");
    memset(&st, 0, sizeof st);
    MPI_Wait(&r, &st);
    CHECK(r == MPI_REQUEST_NULL, "MPI_Wait left the request");
    check_status(&st, &g, "MPI_Wait");
    check_once(&g, 2, "MPI_Wait");
    /* MPI_Test and MPI_STATUS_IGNORE: the query still runs (on a status of MPI's) */
    start(&g, 4, &r);
    MPI_Grequest_complete(r);
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    CHECK(flag && r == MPI_REQUEST_NULL, "MPI_Test of a complete request: flag %d", flag);
    check_once(&g, 1, "MPI_Test");
}

/* Several at once, with a receive from the left neighbour among them. */
static void check_many(void)
{
    enum { N = 4 };
    greq_state g[N];
    MPI_Request r[N + 1];
    MPI_Status st[N + 1];
    int left = (rank + size - 1) % size, right = (rank + 1) % size, in = -1, out = 10 * rank + 7;
    for (int i = 0; i < N; i++) start(&g[i], i + 1, &r[i]);
    MPI_Irecv(&in, 1, MPI_INT, left, 33, MPI_COMM_WORLD, &r[N]);
    MPI_Send(&out, 1, MPI_INT, right, 33, MPI_COMM_WORLD);
    int flag = -1, index = -1, outcount = -1, indices[N + 1];
    MPI_Testall(N + 1, r, &flag, st);
    CHECK(!flag, "MPI_Testall with generalized requests incomplete: flag %d", flag);
    MPI_Testany(N, r, &index, &flag, st);
    CHECK(!flag && index == MPI_UNDEFINED, "MPI_Testany with none complete: flag %d index %d", flag, index);
    MPI_Grequest_complete(r[2]);
    MPI_Waitany(N, r, &index, &st[0]);
    CHECK(index == 2 && r[2] == MPI_REQUEST_NULL, "MPI_Waitany: index %d", index);
    check_status(&st[0], &g[2], "MPI_Waitany");
    check_once(&g[2], 1, "MPI_Waitany");
    MPI_Grequest_complete(r[0]);
    MPI_Grequest_complete(r[3]);
    MPI_Testsome(N, r, &outcount, indices, st);
    CHECK(outcount == 2 && indices[0] == 0 && indices[1] == 3, "MPI_Testsome: %d done (%d, %d), want 0 and 3",
          outcount, indices[0], indices[1]);
    if (outcount == 2) {
        check_status(&st[0], &g[0], "MPI_Testsome");
        check_status(&st[1], &g[3], "MPI_Testsome");
    }
    check_once(&g[0], 1, "MPI_Testsome");
    check_once(&g[3], 1, "MPI_Testsome");
    MPI_Grequest_complete(r[1]);
    MPI_Waitall(N + 1, r, st);
    for (int i = 0; i < N + 1; i++) CHECK(r[i] == MPI_REQUEST_NULL, "MPI_Waitall left request %d", i);
    check_status(&st[1], &g[1], "MPI_Waitall");
    check_once(&g[1], 1, "MPI_Waitall");
    CHECK(in == 10 * left + 7 && st[N].MPI_SOURCE == left && st[N].MPI_TAG == 33,
          "the receive beside them: %d from %d tag %d", in, st[N].MPI_SOURCE, st[N].MPI_TAG);
    /* Waitsome over all of them: null requests only now */
    MPI_Waitsome(N + 1, r, &outcount, indices, st);
    CHECK(outcount == MPI_UNDEFINED, "MPI_Waitsome over null requests: %d", outcount);
}

static void check_free_cancel(void)
{
    greq_state g;
    MPI_Request r, copy;
    MPI_Status st;
    /* freed before it is complete: the free callback runs by the end of MPI_Grequest_complete, once, with no query */
    start(&g, 5, &r);
    copy = r;
    MPI_Request_free(&r);
    CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the request");
    MPI_Grequest_complete(copy);
    CHECK(g.frees == 1 && g.queries == 0, "freed, then completed: %d frees, %d queries", g.frees, g.queries);
    /* freed once complete: at once */
    start(&g, 6, &r);
    MPI_Grequest_complete(r);
    MPI_Request_free(&r);
    CHECK(r == MPI_REQUEST_NULL && g.frees == 1 && g.queries == 0, "completed, then freed: %d frees, %d queries",
          g.frees, g.queries);
    /* cancelled before completion: complete = false, and the query says cancelled */
    start(&g, 7, &r);
    MPI_Cancel(&r);
    CHECK(g.cancels == 1 && g.cancel_saw_complete == 0, "cancel before completion: %d calls, complete %d", g.cancels,
          g.cancel_saw_complete);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    int flag = 0;
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "the cancelled request's status does not say cancelled");
    check_once(&g, 1, "cancelled");
    /* cancelled after completion: complete = true, nothing cancelled */
    start(&g, 8, &r);
    MPI_Grequest_complete(r);
    MPI_Cancel(&r);
    CHECK(g.cancels == 1 && g.cancel_saw_complete == 1, "cancel after completion: %d calls, complete %d", g.cancels,
          g.cancel_saw_complete);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag, "a request completed before its cancel says cancelled");
}

/* The query callback's error is the completing call's: MPI_Wait returns
 * it, MPI_Waitall says MPI_ERR_IN_STATUS with it in that status alone. */
static void check_errors(void)
{
    greq_state g[3];
    MPI_Request r[3];
    MPI_Status st[3];
    int cls = -1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    start(&g[0], 1, &r[0]);
    g[0].query_err = MPI_ERR_OTHER;
    MPI_Grequest_complete(r[0]);
    int rc = MPI_Wait(&r[0], &st[0]);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER && r[0] == MPI_REQUEST_NULL, "MPI_Wait with a failing query: class %d", cls);
    check_once(&g[0], 1, "failing query");
    for (int i = 0; i < 3; i++) {
        start(&g[i], i + 1, &r[i]);
        st[i].MPI_ERROR = -5;
    }
    g[1].query_err = MPI_ERR_OTHER;
    for (int i = 0; i < 3; i++) MPI_Grequest_complete(r[i]);
    rc = MPI_Waitall(3, r, st);
    MPI_Error_class(st[1].MPI_ERROR, &cls);
    /* the request after the failing one: completed, or (MPICH) left pending for another call */
    int pending = st[2].MPI_ERROR == MPI_ERR_PENDING;
    CHECK(rc == MPI_ERR_IN_STATUS && st[0].MPI_ERROR == MPI_SUCCESS && cls == MPI_ERR_OTHER &&
              (st[2].MPI_ERROR == MPI_SUCCESS || pending) && (r[2] != MPI_REQUEST_NULL) == pending,
          "MPI_Waitall with one failing query: %d, errors %d %d %d", rc, st[0].MPI_ERROR, st[1].MPI_ERROR,
          st[2].MPI_ERROR);
    if (pending) MPI_Wait(&r[2], MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; i++) check_once(&g[i], 1, "MPI_Waitall with a failing query");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    check_wait_test();
    check_many();
    check_free_cancel();
    check_errors();
    return mt_finish();
}
