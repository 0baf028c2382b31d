/* Collective schedules: the one engine every collective runs on.
 *
 * A collective is a schedule: a sequence of rounds. A round is produced on
 * demand by the collective's round function, which first does the round's
 * local work (copies, reductions, packing) and then adds the round's sends
 * and receives; the next round is produced only when every send and receive
 * of this one has completed. Producing rounds one at a time keeps a
 * schedule's memory O(1) whatever the number of rounds (a pairwise
 * all-to-all has n / GP_SCHED_WINDOW of them).
 *
 * Messages are point-to-point messages in the communicator's collective
 * context, tagged with the collective's sequence number (and the phase, for
 * schedules made of several algorithms back to back), so overlapping
 * collectives on one communicator never take each other's messages and
 * MPI_ANY_TAG never sees them.
 *
 * Use:
 *   gp_sched s;                              (stack, heap, or a request's storage;
 *   gp_coll_allreduce(&s, ...);               never moved once built: its
 *   rc = gp_coll_run(&s);                     scratch may live inside it)
 * or, for a nonblocking collective, gp_sched_progress(s) until it returns 1,
 * then gp_coll_finish(s) (reports an error, frees the scratch). */
#ifndef GPUMPI_COLL_H
#define GPUMPI_COLL_H

#include "runtime.h"

#define GP_SCHED_STEPS 24  /* sends and receives in one round: a binomial node's children (n < 2^24) fit */
#define GP_SCHED_WINDOW 8  /* peers one round of a pairwise exchange talks to */
#define GP_SCHED_PHASES 3
#define GP_SCHED_HEAP_BLOCKS 4
/* Scratch kept inside the schedule for small collectives (no device heap).
 * Only blocks of at most an eager message go there: on the GPU a schedule on
 * the stack is thread-private, and a larger send from it would be staged. */
#define GP_SCHED_INLINE (2 * GP_EAGER_BYTES)

enum { GP_STEP_SEND, GP_STEP_RECV, GP_STEP_RECV_ANY };

typedef struct gp_step {
    uint8_t kind;
    uint8_t done;
    uint8_t exact;      /* RECV: the message must fill the buffer (scratch with a fixed layout) */
    uint8_t local;      /* peer is in an intercommunicator's local group (else its remote one) */
    int peer;           /* communicator rank; RECV_ANY: messages still to come */
    int count;
    MPI_Datatype type;
    void *buf;
    gp_msg *env;        /* SEND: the envelope a rendezvous send waits on */
} gp_step;

typedef struct gp_sched gp_sched;

/* Makes round `round` of a phase (0, 1, ...): does its local work, then
 * adds its messages; returns 0 when this was the phase's last round (the
 * messages it added, if any, still complete before the next phase). */
typedef int (*gp_round_fn)(gp_sched *s, int round);
/* Where a message from communicator rank src goes (GP_STEP_RECV_ANY). */
typedef void (*gp_locate_fn)(gp_sched *s, int src, void **buf, int *count, MPI_Datatype *type);

/* The caller's arguments, as the collective's MPI function took them. */
typedef struct gp_coll_args {
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    const int *scounts, *sdispls, *rcounts, *rdispls; /* v and w variants */
    const MPI_Datatype *stypes, *rtypes;              /* w variant; displacements then in bytes */
    MPI_Op op;
    int root;
    int in_place;
    int kind;           /* which of a family (alltoall, -v, -w) */
} gp_coll_args;

/* A reduction's working state (binomial reduce, recursive doubling, scan). */
typedef struct gp_red_state {
    const void *in;     /* this rank's operand: (count, type) */
    int count;
    MPI_Datatype type;
    MPI_Op op;
    int commutes;
    int root;           /* the tree's root (binomial reduce) */
    void *res;          /* where the result goes: (res_count, res_type); NULL: stays in acc */
    int res_count;
    MPI_Datatype res_type;
    char *acc, *tmp, *part; /* packed: accumulator, the operand received, scan's running part */
    int got;            /* tmp holds an operand to combine in the next round */
    int got_lower;      /* ... from lower ranks than this one's accumulator */
    int have;           /* exscan: acc holds something */
    int finished;
    int lo, hi;         /* allreduce by reduce-scatter: the blocks this rank holds */
} gp_red_state;

/* Binomial trees and Bruck/recursive-doubling exchanges of packed blocks. */
typedef struct gp_tree_state {
    char *buf;          /* packed blocks in tree order */
    size_t block;       /* packed bytes per block (uniform case) */
    size_t bytes;       /* large bcast: the message's packed size */
    const int *counts;  /* per-rank element counts (reduce_scatter's scatter), else NULL */
    int esize;          /* packed bytes per element with counts */
    int finished;
} gp_tree_state;

struct gp_sched {
    const char *fn;
    MPI_Comm comm;
    MPI_Comm lcomm;     /* an intercommunicator's hidden local one (coll_inter.cu), else comm */
    int me, n;          /* communicator rank and size (an intercommunicator's local ones) */
    int rn;             /* the remote group's size (intercommunicators), else n */
    int ctx;
    uint32_t seq;
    int tag;
    int phase, nphases, round;
    int phase_over;     /* the phase's round function said this round was its last */
    gp_round_fn phases[GP_SCHED_PHASES];
    gp_locate_fn locate;
    int finished;
    int sends_pending;  /* the last poll left a send waiting for its receiver */
    int progressed;     /* something completed since the caller cleared it */
    int nsteps;
    int rooted;         /* a root's collective (bcast, reduce, gather, scatter): no regroup at its end */
    int err;            /* the first error class, with what it was about */
    int err_peer;
    size_t err_got, err_want;
    gp_coll_args a;
    gp_red_state red;
    gp_tree_state tree;
    void *heap[GP_SCHED_HEAP_BLOCKS];
    int nheap;
    size_t inline_used;
    /* not cleared by gp_sched_init: */
    gp_step steps[GP_SCHED_STEPS];
    uint64_t inline_buf[GP_SCHED_INLINE / 8 + 2];
};

/* ---- the engine (coll_schedule.cu) ---------------------------------------- */
/* Starts a schedule on comm: takes the collective's sequence number (every
 * member calls this once per collective, in the same order). */
GPUMPI_FN void gp_sched_init(gp_sched *s, const char *fn, MPI_Comm comm);
/* Persistent collectives' instances are numbered apart from the
 * communicator's sequence (which wraps below this bit): every member starts
 * them in its own order, so their numbers come from the request. */
#define GP_SEQ_PERSISTENT (1u << 28)
/* Numbers a schedule just made as seq instead, and gives the communicator
 * back the number gp_sched_init took. */
GPUMPI_FN void gp_sched_renumber(gp_sched *s, uint32_t seq);
GPUMPI_FN void gp_sched_add_phase(gp_sched *s, gp_round_fn fn);
/* Scratch for the schedule's lifetime, 16-byte aligned: inside the schedule
 * when small, else from the heap. */
GPUMPI_FN void *gp_sched_scratch(gp_sched *s, size_t bytes);
/* A round's messages (called from round functions). Sends start at once. */
GPUMPI_FN void gp_sched_send(gp_sched *s, int peer, const void *buf, int count, MPI_Datatype type);
GPUMPI_FN void gp_sched_recv(gp_sched *s, int peer, void *buf, int count, MPI_Datatype type, int exact);
GPUMPI_FN void gp_sched_recv_any(gp_sched *s, int messages, gp_locate_fn locate);
/* On an intercommunicator the messages above go to and come from the
 * remote group; these to and from the local group. */
GPUMPI_FN void gp_sched_send_local(gp_sched *s, int peer, const void *buf, int count, MPI_Datatype type);
GPUMPI_FN void gp_sched_recv_local(gp_sched *s, int peer, void *buf, int count, MPI_Datatype type, int exact);
/* 1 once the schedule has finished; never blocks. */
GPUMPI_FN int gp_sched_progress(gp_sched *s);
/* Runs the schedule to the end, waiting between progress calls for
 * messages to arrive; keeps this rank's posted receives moving. Returns the
 * schedule's error class. */
GPUMPI_FN int gp_sched_run(gp_sched *s);
GPUMPI_FN void gp_sched_free(gp_sched *s);
/* Frees the schedule and raises its error, if any, on its communicator. */
GPUMPI_FN int gp_coll_finish(gp_sched *s);
/* gp_sched_run, then gp_coll_finish: what a blocking collective does. */
GPUMPI_FN int gp_coll_run(gp_sched *s);

/* ---- one body for the blocking and the nonblocking call (coll_nonblocking.cu)
 * Each collective's MPI function is one body, gp_<name>_call(nb, ...),
 * that MPI_<Name> calls with nb NULL and MPI_I<name> with its name and
 * request. The body checks the arguments (errors name GP_COLL_FN), builds
 * the schedule in gp_coll_sched's storage (the caller's stack when
 * blocking, heap the request owns when not) and ends with gp_coll_go:
 * run to the end, or become a request that the runtime progresses. Both
 * take a sequence number on the communicator the same way, so blocking and
 * nonblocking collectives are matched in call order. */
typedef struct gp_coll_nb {
    const char *fn;        /* MPI_I... */
    MPI_Request *request;  /* where the request goes */
    /* A persistent collective's instance (MPI_Start, coll_persistent.cu):
     * the request it runs in, and its own sequence number; 0: a new request,
     * numbered by the communicator. */
    int into;
    uint32_t seq;
} gp_coll_nb;
#define GP_COLL_FN(nb, blocking) ((nb) ? (nb)->fn : (blocking))
GPUMPI_FN gp_sched *gp_coll_sched(const gp_coll_nb *nb, gp_sched *local);
GPUMPI_FN int gp_coll_go(const gp_coll_nb *nb, gp_sched *s);

GPUMPI_FN int gp_barrier_call(const gp_coll_nb *nb, MPI_Comm comm);
GPUMPI_FN int gp_bcast_call(const gp_coll_nb *nb, void *buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm);
GPUMPI_FN int gp_reduce_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
GPUMPI_FN int gp_allreduce_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
GPUMPI_FN int gp_gather_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
GPUMPI_FN int gp_gatherv_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                              int root, MPI_Comm comm);
GPUMPI_FN int gp_scatter_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
GPUMPI_FN int gp_scatterv_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[], const int displs[],
                               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm);
GPUMPI_FN int gp_allgather_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
GPUMPI_FN int gp_allgatherv_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm);
GPUMPI_FN int gp_alltoall_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
GPUMPI_FN int gp_alltoallv_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[],
                                const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
GPUMPI_FN int gp_alltoallw_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[],
                                const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                                MPI_Comm comm);
GPUMPI_FN int gp_reduce_scatter_block_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
GPUMPI_FN int gp_reduce_scatter_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf,
                                     const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
GPUMPI_FN int gp_scan_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm);
GPUMPI_FN int gp_exscan_call(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* Neighbourhood collectives (coll_neighbor.cu). */
GPUMPI_FN int gp_neighbor_allgather_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                         MPI_Comm comm);
GPUMPI_FN int gp_neighbor_allgatherv_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                          const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
GPUMPI_FN int gp_neighbor_alltoall_call(const gp_coll_nb *nb, const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm);
GPUMPI_FN int gp_neighbor_alltoallv_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[],
                                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                         MPI_Comm comm);
GPUMPI_FN int gp_neighbor_alltoallw_call(const gp_coll_nb *nb, const void *sendbuf, const int sendcounts[],
                                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                         const int recvcounts[], const MPI_Aint rdispls[],
                                         const MPI_Datatype recvtypes[], MPI_Comm comm);

/* ---- intercommunicators (coll_inter.cu): each gp_<name>_call hands an
 * intercommunicator to these after checking comm ---------------------- */
GPUMPI_FN static inline int gp_coll_is_inter(MPI_Comm comm) { return comm != MPI_COMM_WORLD && gp_comm_is_inter(comm); }
GPUMPI_FN int gp_inter_barrier(const gp_coll_nb *nb, MPI_Comm comm);
/* MPI_Comm_idup's agreement, nonblocking (nb set): vals[0] goes from local
 * rank 0 of the group that allocates to the other group's rank 0, then
 * each group's rank 0 sends its vals[0..1] to the rest of its group. */
GPUMPI_FN int gp_inter_idup_agree(const gp_coll_nb *nb, MPI_Comm comm, int allocates, int vals[2]);
/* kind: 0 bcast (sbuf and rbuf the one buffer), 1 gather, 2 gatherv, 3 scatter, 4 scatterv (the root's counts, displs) */
GPUMPI_FN int gp_inter_rooted(const gp_coll_nb *nb, const char *fn, MPI_Comm comm, int kind, int root,
                              const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, const int *counts, const int *displs);
GPUMPI_FN int gp_inter_reduce(const gp_coll_nb *nb, const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
GPUMPI_FN int gp_inter_allreduce(const gp_coll_nb *nb, const char *fn, const void *sendbuf, void *recvbuf,
                                 int count, MPI_Datatype datatype, MPI_Op op, int scatter, int rcount,
                                 const int *rcounts, MPI_Comm comm);
/* kind: 0 allgather, 1 allgatherv, 2 alltoall, 3 alltoallv, 4 alltoallw (what
 * a kind does not read may be 0) */
GPUMPI_FN int gp_inter_pairs(const gp_coll_nb *nb, const char *fn, MPI_Comm comm, int kind, const void *sbuf,
                             int scount, const int *scounts, const int *sdispls, MPI_Datatype stype,
                             const MPI_Datatype *stypes, void *rbuf, int rcount, const int *rcounts,
                             const int *rdispls, MPI_Datatype rtype, const MPI_Datatype *rtypes);

/* ---- local steps (coll_schedule.cu) -------------------------------------- */
/* (count, type) at buf, then block i of blocks of (count, type): byte address. */
GPUMPI_FN char *gp_coll_at(const void *buf, long index, int count, MPI_Datatype type);
/* Copies the data of (scount, stype) at src into (rcount, rtype) at dst
 * (packing or unpacking as the layouts need; the signatures match). */
GPUMPI_FN void gp_coll_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount,
                            MPI_Datatype rtype);
/* inout = in op inout on packed data; an error is kept in the schedule. */
GPUMPI_FN void gp_sched_reduce(gp_sched *s, const void *in, void *inout, int count, MPI_Datatype type, MPI_Op op);
/* The first byte of (count, type) at buf when that is one contiguous run, else NULL. */
GPUMPI_FN char *gp_coll_contiguous(const void *buf, int count, MPI_Datatype type);
GPUMPI_FN size_t gp_coll_bytes(int count, MPI_Datatype type);
/* A schedule's buffer arguments, (count, type) a block on each side; the v and
 * w forms pass 0 and set their own count, displacement and type arrays. */
GPUMPI_FN void gp_coll_set_bufs(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype);

/* ---- argument checks (coll_checks.cu) ------------------------------------ */
GPUMPI_FN int gp_coll_check_root(MPI_Comm comm, const char *fn, int root);
GPUMPI_FN int gp_coll_check_op(MPI_Comm comm, const char *fn, MPI_Op op, MPI_Datatype type);
/* MPI_IN_PLACE where the standard does not allow it. */
GPUMPI_FN int gp_coll_check_not_in_place(MPI_Comm comm, const char *fn, const void *buf, const char *which);
/* The same buffer as send and receive buffer (MPI_IN_PLACE is the way to say that). */
GPUMPI_FN int gp_coll_check_alias(MPI_Comm comm, const char *fn, const void *sbuf, const void *rbuf, size_t bytes);
/* n counts, each >= 0, with a valid type (types: one per count, or NULL and type). */
GPUMPI_FN int gp_coll_check_counts(MPI_Comm comm, const char *fn, const int *counts, int n, MPI_Datatype type,
                                   const MPI_Datatype *types, const char *which);
/* All of MPI_Gather(v)'s or MPI_Scatter(v)'s checks (gathers: which of the two; v: the v form). `one` is the
 * block every rank has (gather's send side, scatter's receive side; MPI_IN_PLACE only at the root), `many`
 * the root's n blocks: (many_count, many_type) each, or many_counts at displs in the v forms. */
GPUMPI_FN int gp_coll_check_rooted(MPI_Comm comm, const char *fn, int root, int gathers, int v, const void *one,
                                   int one_count, MPI_Datatype one_type, const void *many, int many_count,
                                   const int *many_counts, const int *displs, MPI_Datatype many_type);
/* MPI_Allgather's and MPI_Alltoall's checks: one (count, type) per block on each side, in place allowed. */
GPUMPI_FN int gp_coll_check_uniform(MPI_Comm comm, const char *fn, const void *sbuf, int scount, MPI_Datatype stype,
                                    const void *rbuf, int rcount, MPI_Datatype rtype);

/* ---- schedules, one builder per collective -------------------------------
 * Arguments as the MPI function's, already checked; only what is
 * significant at this rank is read. */
GPUMPI_FN void gp_coll_barrier(gp_sched *s, MPI_Comm comm);
GPUMPI_FN void gp_coll_bcast(gp_sched *s, void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
GPUMPI_FN void gp_coll_reduce(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                              int root, MPI_Comm comm);
GPUMPI_FN void gp_coll_allreduce(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm);
GPUMPI_FN void gp_coll_gather(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm);
GPUMPI_FN void gp_coll_gatherv(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs, MPI_Datatype rtype, int root, MPI_Comm comm);
GPUMPI_FN void gp_coll_scatter(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm);
GPUMPI_FN void gp_coll_scatterv(gp_sched *s, const void *sbuf, const int *scounts, const int *displs,
                                MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                                MPI_Comm comm);
GPUMPI_FN void gp_coll_allgather(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                 int rcount, MPI_Datatype rtype, MPI_Comm comm);
GPUMPI_FN void gp_coll_allgatherv(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs, MPI_Datatype rtype, MPI_Comm comm);
GPUMPI_FN void gp_coll_alltoall(gp_sched *s, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                int rcount, MPI_Datatype rtype, MPI_Comm comm);
GPUMPI_FN void gp_coll_alltoallv(gp_sched *s, const void *sbuf, const int *scounts, const int *sdispls,
                                 MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                                 MPI_Datatype rtype, MPI_Comm comm);
GPUMPI_FN void gp_coll_alltoallw(gp_sched *s, const void *sbuf, const int *scounts, const int *sdispls,
                                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts, const int *rdispls,
                                 const MPI_Datatype *rtypes, MPI_Comm comm);
GPUMPI_FN void gp_coll_reduce_scatter_block(gp_sched *s, const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                                            MPI_Op op, MPI_Comm comm);
GPUMPI_FN void gp_coll_reduce_scatter(gp_sched *s, const void *sbuf, void *rbuf, const int *rcounts,
                                      MPI_Datatype type, MPI_Op op, MPI_Comm comm);
GPUMPI_FN void gp_coll_scan(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                            MPI_Comm comm);
GPUMPI_FN void gp_coll_exscan(gp_sched *s, const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm);

/* Binomial trees: a rank's position relative to the root, its subtree
 * size (itself and the ranks below it: rel + 0 .. rel + size - 1), and the
 * ranks as the communicator numbers them. */
GPUMPI_FN static inline int gp_tree_rel(gp_sched *s, int root) { return (s->me - root + s->n) % s->n; }
GPUMPI_FN static inline int gp_tree_real(gp_sched *s, int root, int rel) { return (rel + root) % s->n; }
GPUMPI_FN static inline int gp_tree_subtree(int rel, int n)
{
    if (rel == 0) return n;
    int low = rel & -rel;
    return low < n - rel ? low : n - rel;
}
GPUMPI_FN static inline int gp_tree_parent(int rel) { return rel - (rel & -rel); }
/* The largest power of two below n (n >= 2), else 0. */
GPUMPI_FN static inline int gp_pow2_below(int n)
{
    int m = 1;
    while (m < n - m) m <<= 1;
    return n >= 2 ? m : 0;
}

/* Phases shared between collectives. */
GPUMPI_FN int gp_reduce_round(gp_sched *s, int round);       /* binomial reduce per s->red */
GPUMPI_FN int gp_scatter_round(gp_sched *s, int round);      /* binomial scatter per s->a and s->tree */
GPUMPI_FN void gp_reduce_setup(gp_sched *s, const void *in, int count, MPI_Datatype type, MPI_Op op, int root,
                               void *res, int res_count, MPI_Datatype res_type);

#endif
