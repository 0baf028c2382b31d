/* Requests, as the files that make them see them (requests.cu owns the
 * table; coll_nonblocking.cu makes collective requests, mprobe.cu receives
 * of probed messages). */
#ifndef GPUMPI_REQUESTS_H
#define GPUMPI_REQUESTS_H

#include "runtime.h"

/* GP_REQ_PAIR: MPI_Isendrecv(_replace)'s request, made of a send and a
 * receive of its own (isendrecv.cu); GP_REQ_GREQ: a generalized request
 * (grequest.cu), which the program completes */
enum { GP_REQ_FREE, GP_REQ_SEND, GP_REQ_RECV, GP_REQ_COLL, GP_REQ_PAIR, GP_REQ_GREQ };

typedef struct gp_req {
    int kind;
    int persistent;  /* Send_init/Recv_init, a collective's _init: survives completion until freed */
    int active;      /* started, and not yet returned by Wait/Test */
    int done;        /* finished: status is final */
    int freed;       /* MPI_Request_free while active: release once done */
    /* the peer in world terms (a send's destination, a receive's source or
     * MPI_ANY_SOURCE; MPI_PROC_NULL) and the communicator's point-to-point
     * context, looked up when the request is made; a posted receive
     * (posted.cu) matches by them, and has its number in post order and
     * its neighbours (handles, 0 at the ends) in the posted list
     * (GP_PQ_POSTED) and in its list of the index by source (GP_PQ_SAME) */
    int peer_world, ctx;
    uint32_t post_no;
    struct {
        int next, prev;
    } link[2];
    int indexed;
    int mode;        /* GP_SEND_* */
    gp_msg *pending; /* a send waiting for its receiver */
    void *buf;
    int count;
    MPI_Datatype type;
    int peer, tag;   /* as the user gave them (communicator ranks) */
    MPI_Comm comm;
    MPI_Status status; /* its MPI_ERROR unused: err */
    int err;           /* how it ended: MPI_SUCCESS, or MPI_ERR_TRUNCATE for a receive */
    union { /* one pointer for the kinds that need one: every request of every rank carries it */
        /* GP_REQ_COLL: a nonblocking collective's schedule (coll_nonblocking.cu), in heap memory the request owns */
        struct gp_sched *sched;
        /* GP_REQ_GREQ: the program's callbacks and state (grequest.cu) */
        struct gp_greq *greq;
        /* GP_REQ_SEND, GP_REQ_RECV of MPI_Psend_init/MPI_Precv_init: the partitions (partitioned.cu), 0 otherwise */
        struct gp_part *part;
    };
    struct gp_coll_recipe *recipe; /* a persistent collective's arguments (coll_persistent.cu) */
    /* GP_REQ_PAIR: its send and receive (handles no one else sees); it
     * finishes when both have, with the receive's status; the outgoing
     * copy MPI_Isendrecv_replace made, freed with it */
    int halves[2];
    void *staged;
    int next_coll;   /* the next collective in flight (handle), 0 at the end */
    int next_free;   /* GP_REQ_FREE: the next free handle (gp_rank.req_free), 0 at the end */
} gp_req;

GPUMPI_FN static inline gp_req *gp_req_at(int h) { return &gp_self()->reqs[h - 1]; }
/* A partitioned request's partitions, else 0 (the union's pointer is another kind's). */
GPUMPI_FN static inline struct gp_part *gp_req_part(const gp_req *q)
{
    return q->kind == GP_REQ_SEND || q->kind == GP_REQ_RECV ? q->part : 0;
}
/* A new request of `kind`, zeroed (inactive); its handle. */
GPUMPI_FN int gp_req_new(int kind);
/* The posted-receive queue (posted.cu): a receive posted (its peer_world
 * and ctx set), taken out (matched or cancelled), and a matching pass. */
GPUMPI_FN void gp_post(int h);
GPUMPI_FN void gp_unpost(int h);
GPUMPI_FN void gp_match_posted(gp_rank *r);
/* Checks the arguments and makes a send or receive request (started
 * unless persistent); errors name fn. */
GPUMPI_FN int gp_make(const char *fn, int kind, int mode, const void *buf, int count, MPI_Datatype type, int peer,
                      int tag, MPI_Comm comm, MPI_Request *request, int persistent);
/* Starts an inactive send or receive request (a new one, or a persistent
 * one again): the send goes out, the receive is posted. */
GPUMPI_FN void gp_start(int h);
/* Frees the handle (and drops the hold on its datatype). */
GPUMPI_FN void gp_req_release(int h);
/* Marks a request done, and frees it if MPI_Request_free came first. */
GPUMPI_FN void gp_req_finish(int h);

/* Generalized requests (grequest.cu), as the Wait/Test family and
 * MPI_Request_free, MPI_Cancel and MPI_Request_get_status meet them
 * (errors name fn; the error classes the callbacks return come back).
 * gp_greq_query: the query callback's status and error kept in the
 * request (q->status, q->err) for the call that completes it, which then
 * calls gp_greq_hand_back: the status (the kept one, else a fresh query),
 * then the free callback and the handle released. */
GPUMPI_FN void gp_greq_query(int h);
GPUMPI_FN int gp_greq_hand_back(const char *fn, int h, MPI_Status *status);
GPUMPI_FN int gp_greq_get_status(int h, MPI_Status *status);
GPUMPI_FN int gp_greq_free(int h);
GPUMPI_FN int gp_greq_cancel(int h);

/* Collective requests (coll_nonblocking.cu): moves every collective in
 * flight along (from gp_progress); hands a finished one back: frees its
 * schedule and returns its error class, raised on its communicator. */
GPUMPI_FN void gp_coll_progress_all(void);
GPUMPI_FN int gp_coll_req_complete(gp_req *q);
/* The collective waits for a receiver to copy one of its sends. */
GPUMPI_FN int gp_coll_req_sends_pending(gp_req *q);
/* Calls then(arg, error class) when the collective behind request is handed
 * back, before its error is raised (MPI_Comm_idup finishes the new
 * communicator so). */
typedef void (*gp_coll_then)(void *arg, int err);
GPUMPI_FN void gp_coll_req_then(MPI_Request request, gp_coll_then then, void *arg);

/* Persistent collectives (coll_persistent.cu): MPI_Start of one (an
 * instance of the collective, in the request), and MPI_Request_free of an
 * inactive one. */
GPUMPI_FN int gp_coll_persistent_start(int h);
GPUMPI_FN void gp_coll_persistent_free(gp_req *q);
/* The request frees arrays with itself (large_count.cu: the int arrays a
 * _c init call made, which every MPI_Start reads). */
GPUMPI_FN void gp_coll_persistent_keep(gp_req *q, void *arrays);

/* Partitioned requests (partitioned.cu): MPI_Start of one; MPI_Wait of a
 * send whose partitions are not all ready is an error (nothing else could
 * mark them: a rank is one thread); the program's tag, for its status. */
GPUMPI_FN int gp_part_start(int h);
GPUMPI_FN int gp_part_check_wait(const char *fn, int count, const MPI_Request requests[]);
GPUMPI_FN int gp_part_tag(const gp_req *q);

#endif
