/* Matched probes: MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv.
 *
 * A matched probe takes the message out of the unexpected queue at once
 * (gp_take_match), so no other probe or receive can match it; the message
 * handle then names it until MPI_Mrecv or MPI_Imrecv copies it out. The
 * handles index the calling rank's own table (handle = index + 1);
 * MPI_MESSAGE_NO_PROC stands for a probe of MPI_PROC_NULL. The message is
 * already here, so MPI_Imrecv receives at once and its request is complete. */
#include "requests.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

typedef struct gp_probed {
    gp_msg *m;          /* NULL: free */
    MPI_Comm comm;
} gp_probed;

typedef struct gp_probed_table {
    gp_probed *e;
    int n, cap;
} gp_probed_table;

GPUMPI_FN static gp_probed_table *gp_probed_tab(void)
{
    gp_rank *r = gp_self();
    if (!r->messages) {
        gp_probed_table *t = (gp_probed_table *)gp_malloc(sizeof(gp_probed_table));
        if (!t) gp_fatal("MPI_Mprobe", MPI_ERR_NO_MEM, "no device heap left for the message table (raise --heap)");
        gp_memset(t, 0, sizeof *t);
        r->messages = t;
    }
    return (gp_probed_table *)r->messages;
}

GPUMPI_FN static MPI_Message gp_probed_new(gp_msg *m, MPI_Comm comm)
{
    gp_probed_table *t = gp_probed_tab();
    int i = 0;
    while (i < t->n && t->e[i].m) i++;
    if (i == t->n) {
        if (t->n == t->cap) {
            int cap = t->cap ? 2 * t->cap : 8;
            gp_probed *grown = (gp_probed *)gp_malloc(sizeof(gp_probed) * (size_t)cap);
            if (!grown) gp_fatal("MPI_Mprobe", MPI_ERR_NO_MEM, "no device heap left for %d message handles", cap);
            if (t->n) gp_memcpy(grown, t->e, sizeof(gp_probed) * (size_t)t->n);
            gp_free(t->e);
            t->e = grown;
            t->cap = cap;
        }
        t->n++;
    }
    t->e[i].m = m;
    t->e[i].comm = comm;
    return i + 1;
}

/* Improbe's work; fn names the call for errors. */
GPUMPI_FN static int gp_improbe(const char *fn, int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                                MPI_Status *status)
{
    GP_TRY(gp_comm_check(fn, comm));
    GP_TRY(gp_check_peer(fn, comm, source, 1));
    GP_TRY(gp_check_tag(comm, fn, tag, 1));
    if (!message || !flag) return gp_err(comm, fn, MPI_ERR_ARG, "the message or flag argument is NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        gp_set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
        return MPI_SUCCESS;
    }
    gp_progress(); /* receives posted earlier have the first claim */
    int src = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : gp_comm_to_world(comm, source);
    gp_msg *m = gp_take_match(src, tag, gp_ctx_p2p(comm), 0);
    *flag = m != 0;
    if (!m) return MPI_SUCCESS;
    *message = gp_probed_new(m, comm);
    gp_set_status(status, gp_world_to_comm(comm, m->src), m->tag, m->bytes);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    return gp_improbe("MPI_Improbe", source, tag, comm, flag, message, status);
}

GPUMPI_FN int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    unsigned spins = 0;
    int entered = 0, flag = 0;
    for (;;) {
        uint32_t mark = gp_arrival_mark();
        int rc = gp_improbe("MPI_Mprobe", source, tag, comm, &flag, message, status);
        if (rc != MPI_SUCCESS || flag) {
            if (entered) gp_block_leave();
            return rc;
        }
        if (!entered) {
            int peer = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : gp_comm_to_world(comm, source);
            gp_block_enter("MPI_Mprobe", comm, peer, tag);
            entered = 1;
        }
        if (gp_wait_must_poll())
            gp_block_wait(&spins);
        else
            gp_arrival_wait(mark, &spins);
    }
}

/* The message behind *message, taken out of the table; NULL for
 * MPI_MESSAGE_NO_PROC. */
GPUMPI_FN static int gp_probed_take(const char *fn, MPI_Message *message, gp_msg **m, MPI_Comm *comm)
{
    GP_TRY(gp_check_initialized(fn));
    if (!message) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the message argument is NULL");
    *m = 0;
    *comm = MPI_COMM_NULL;
    if (*message == MPI_MESSAGE_NO_PROC) return MPI_SUCCESS;
    gp_probed_table *t = (gp_probed_table *)gp_self()->messages;
    int i = *message - 1;
    if (*message == MPI_MESSAGE_NULL || !t || i < 0 || i >= t->n || !t->e[i].m)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                      *message == MPI_MESSAGE_NULL ? "the message is MPI_MESSAGE_NULL"
                                                   : "invalid message handle %d (received already, or never probed)",
                      *message);
    *m = t->e[i].m;
    *comm = t->e[i].comm;
    return MPI_SUCCESS;
}

GPUMPI_FN static void gp_probed_drop(MPI_Message *message)
{
    if (*message != MPI_MESSAGE_NO_PROC) ((gp_probed_table *)gp_self()->messages)->e[*message - 1].m = 0;
    *message = MPI_MESSAGE_NULL;
}

/* Copies the message out into (count, datatype) at buf; *status as a receive's. */
GPUMPI_FN static int gp_mrecv(const char *fn, void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                              MPI_Status *status, MPI_Comm *comm_out, int *err)
{
    gp_msg *m = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    GP_TRY(gp_probed_take(fn, message, &m, &comm));
    *comm_out = comm;
    *err = MPI_SUCCESS;
    if (!m) {
        gp_set_status(status, MPI_PROC_NULL, MPI_ANY_TAG, 0);
        gp_probed_drop(message);
        return MPI_SUCCESS;
    }
    GP_TRY(gp_type_check(comm, fn, datatype, count));
    gp_probed_drop(message);
    int src, tag;
    size_t got;
    *err = gp_deliver(m, buf, count, datatype, &src, &tag, &got);
    gp_set_status(status, gp_world_to_comm(comm, src), tag, got);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    MPI_Status st;
    MPI_Comm comm = MPI_COMM_NULL;
    int err;
    GP_TRY(gp_mrecv("MPI_Mrecv", buf, count, datatype, message, &st, &comm, &err));
    gp_status_out(status, &st);
    if (err == MPI_ERR_TRUNCATE)
        return gp_err(comm, "MPI_Mrecv", MPI_ERR_TRUNCATE,
                      "message truncated (got %lld bytes, buffer %zu) from rank %d tag %d",
                      (long long)st.gp_count_bytes, (size_t)count * (size_t)gp_type_size(datatype), st.MPI_SOURCE,
                      st.MPI_TAG);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    if (!request) return gp_err(MPI_COMM_WORLD, "MPI_Imrecv", MPI_ERR_REQUEST, "the request argument is NULL");
    MPI_Status st;
    MPI_Comm comm = MPI_COMM_NULL;
    int err;
    GP_TRY(gp_mrecv("MPI_Imrecv", buf, count, datatype, message, &st, &comm, &err));
    /* a receive request that is already complete: Wait/Test hand back its
     * status (and report a truncation, as for MPI_Irecv) */
    int h = gp_req_new(GP_REQ_RECV);
    gp_req *q = gp_req_at(h);
    q->active = 1;
    q->done = 1;
    q->buf = buf;
    q->count = count;
    q->type = datatype;
    gp_type_hold(datatype); /* released with the request */
    q->peer = st.MPI_SOURCE;
    q->tag = st.MPI_TAG;
    q->comm = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
    q->status = st;
    q->err = err;
    *request = h;
    return MPI_SUCCESS;
}
