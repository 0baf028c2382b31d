/* Generalized requests (MPI-4.0 13.2): MPI_Grequest_start and
 * MPI_Grequest_complete, and what the request calls (requests.cu) do
 * with one.
 *
 * The program finishes the work and says so with MPI_Grequest_complete;
 * MPI never moves such a request along. The request then completes like
 * any other: the call that hands it back (Wait/Test and their -any, -some,
 * -all forms) asks the query callback for its status, then calls the
 * free callback and releases the handle. The free callback runs once:
 * there, or, for a request freed with MPI_Request_free before it was
 * complete, in MPI_Grequest_complete (the program still holds a copy of
 * the handle for that call, so the handle stays in the table until then).
 * An error class a callback returns is the error of the call that ran it. */
#include "requests.h"
#include "gpumpi/shim_stdlib.h"

typedef struct gp_greq {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    int queried; /* q->status and q->err hold the query's answer for the call completing it */
} gp_greq;

GPUMPI_FN int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                                 MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    const char *fn = "MPI_Grequest_start";
    GP_TRY(gp_check_initialized(fn));
    if (!query_fn || !free_fn || !cancel_fn)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the %s callback is NULL",
                      !query_fn ? "query" : !free_fn ? "free" : "cancel");
    if (!request) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the request argument is NULL");
    gp_greq *g = (gp_greq *)gp_malloc(sizeof *g);
    if (!g) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a generalized request");
    g->query_fn = query_fn;
    g->free_fn = free_fn;
    g->cancel_fn = cancel_fn;
    g->extra_state = extra_state;
    g->queried = 0;
    int h = gp_req_new(GP_REQ_GREQ);
    gp_req *q = gp_req_at(h);
    q->greq = g;
    q->active = 1;
    q->comm = MPI_COMM_WORLD; /* its errors are no communicator's */
    q->peer = q->peer_world = q->tag = GP_BLOCK_NONE; /* the watchdog: it waits for no rank */
    *request = h;
    return MPI_SUCCESS;
}

/* Runs the free callback and releases the handle; the callback's error. */
GPUMPI_FN static int gp_greq_release(int h)
{
    gp_greq *g = gp_req_at(h)->greq;
    int rc = g->free_fn(g->extra_state);
    gp_free(g);
    gp_req_release(h);
    return rc;
}

GPUMPI_FN int MPI_Grequest_complete(MPI_Request request)
{
    const char *fn = "MPI_Grequest_complete";
    if (request <= 0 || request > gp_self()->nreqs || gp_req_at(request)->kind != GP_REQ_GREQ)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST, "request %d is not a generalized request", request);
    gp_req *q = gp_req_at(request);
    if (q->done)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST, "generalized request %d is already complete", request);
    q->done = 1;
    if (!q->freed) return MPI_SUCCESS;
    int rc = gp_greq_release(request);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, fn, rc, "the free callback of freed generalized request %d returned error %d",
                      request, rc);
    return MPI_SUCCESS;
}

/* The query callback on a status that starts empty. */
GPUMPI_FN static int gp_greq_ask(gp_req *q, MPI_Status *st)
{
    gp_set_status(st, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
    st->MPI_ERROR = MPI_SUCCESS;
    return q->greq->query_fn(q->greq->extra_state, st);
}

GPUMPI_FN void gp_greq_query(int h)
{
    gp_req *q = gp_req_at(h);
    q->err = gp_greq_ask(q, &q->status);
    q->greq->queried = 1;
}

GPUMPI_FN int gp_greq_hand_back(const char *fn, int h, MPI_Status *status)
{
    gp_req *q = gp_req_at(h);
    if (!q->greq->queried) gp_greq_query(h);
    gp_status_out(status, &q->status);
    int err = q->err, freed = gp_greq_release(h);
    if (err != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, fn, err, "the query callback of generalized request %d returned error %d", h, err);
    if (freed != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, fn, freed, "the free callback of generalized request %d returned error %d", h,
                      freed);
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_greq_get_status(int h, MPI_Status *status)
{
    MPI_Status st;
    int rc = gp_greq_ask(gp_req_at(h), &st);
    gp_status_out(status, &st);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, "MPI_Request_get_status", rc,
                      "the query callback of generalized request %d returned error %d", h, rc);
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_greq_free(int h)
{
    gp_req *q = gp_req_at(h);
    if (!q->done) {
        q->freed = 1; /* MPI_Grequest_complete runs the free callback */
        return MPI_SUCCESS;
    }
    int rc = gp_greq_release(h);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, "MPI_Request_free", rc,
                      "the free callback of generalized request %d returned error %d", h, rc);
    return MPI_SUCCESS;
}

/* The cancel callback learns whether MPI_Grequest_complete came first;
 * the request still completes only through MPI_Grequest_complete. */
GPUMPI_FN int gp_greq_cancel(int h)
{
    gp_req *q = gp_req_at(h);
    int rc = q->greq->cancel_fn(q->greq->extra_state, q->done);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, "MPI_Cancel", rc, "the cancel callback of generalized request %d returned error %d",
                      h, rc);
    return MPI_SUCCESS;
}
