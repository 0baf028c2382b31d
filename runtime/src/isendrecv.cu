/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0), and
 * MPI_Sendrecv_replace: one request (GP_REQ_PAIR) over a send and a receive
 * of its own, which the Wait/Test family finishes when both have
 * (requests.cu), with the receive's status.
 *
 * The receive is posted before the send starts, so a rank that sends to
 * itself finds its receive waiting. The _replace forms send a packed copy
 * of the buffer (the receive overwrites the buffer meanwhile); the copy
 * lives until the send has finished. */
#include "requests.h"
#include "gpumpi/shim_stdlib.h"

/* The pair over the send and receive given; takes staged (freed with the
 * request, or here on an error). */
GPUMPI_FN static int gp_pair(const char *fn, const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                             int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                             int recvtag, MPI_Comm comm, MPI_Request *request, void *staged)
{
    MPI_Request send, recv;
    int rc = request ? MPI_SUCCESS : gp_err(comm, fn, MPI_ERR_REQUEST, "the request argument is NULL");
    if (rc == MPI_SUCCESS) rc = gp_make(fn, GP_REQ_RECV, 0, recvbuf, recvcount, recvtype, source, recvtag, comm, &recv, 0);
    if (rc != MPI_SUCCESS) {
        gp_free(staged);
        return rc;
    }
    rc = gp_make(fn, GP_REQ_SEND, GP_SEND_STANDARD, sendbuf, sendcount, sendtype, dest, sendtag, comm, &send, 0);
    if (rc != MPI_SUCCESS) { /* take the receive back */
        MPI_Cancel(&recv);
        MPI_Request_free(&recv);
        gp_free(staged);
        return rc;
    }
    int h = gp_req_new(GP_REQ_PAIR);
    gp_req *q = gp_req_at(h);
    gp_req *r = gp_req_at(recv);
    q->active = 1;
    q->halves[0] = send;
    q->halves[1] = recv;
    q->staged = staged;
    /* what the watchdog and a truncation error tell: the receive */
    q->comm = comm;
    q->peer = source;
    q->peer_world = r->peer_world;
    q->tag = recvtag;
    q->count = recvcount;
    q->type = recvtype;
    gp_type_hold(recvtype);
    *request = h;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                            MPI_Comm comm, MPI_Request *request)
{
    return gp_pair("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                   recvtag, comm, request, 0);
}

GPUMPI_FN static int gp_sendrecv_replace(const char *fn, void *buf, int count, MPI_Datatype datatype, int dest,
                                         int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    GP_TRY(gp_type_check(comm, fn, datatype, count));
    size_t bytes = (size_t)count * (size_t)gp_type_size(datatype);
    void *copy = gp_malloc(bytes ? bytes : 1);
    if (!copy) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %zu bytes", bytes);
    gp_type_pack(buf, count, datatype, copy); /* the packed bytes are the message */
    return gp_pair(fn, copy, (int)bytes, MPI_BYTE, dest, sendtag, buf, count, datatype, source, recvtag, comm, request,
                   copy);
}

GPUMPI_FN int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                    int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return gp_sendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag, comm,
                               request);
}

GPUMPI_FN int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                   int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r;
    GP_TRY(gp_sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag, comm, &r));
    return MPI_Wait(&r, status);
}
