/* Internal interface of the device MPI runtime. */
#ifndef GPUMPI_RUNTIME_H
#define GPUMPI_RUNTIME_H

#include "mpi.h"
#include "gpumpi/world.h"

GPUMPI_FN static inline gp_world *gp_w(void) { return gp_world_ptr; }
GPUMPI_FN static inline gp_rank *gp_self(void) { return &gp_hot.ranks[gp_thread_rank()]; }
/* Rank r's element of an array by world rank (gp_world_hot.ranks, slots,
 * inbox), from `own`, the array as this process's ranks index it: another
 * process's part is as far from ours as its piece is from our piece. */
GPUMPI_FN static inline void *gp_rank_elem(void *own, int r, size_t size)
{
    char *at = (char *)own + (ptrdiff_t)r * (ptrdiff_t)size;
    if (gp_hot.proc_stride) {
        ptrdiff_t procs_away = r / gp_hot.proc_ranks - gp_hot.proc;
        at += procs_away * (ptrdiff_t)(gp_hot.proc_stride - (size_t)gp_hot.proc_ranks * size);
    }
    return at;
}
GPUMPI_FN static inline gp_rank *gp_rank_of(int r) { return (gp_rank *)gp_rank_elem(gp_hot.ranks, r, sizeof(gp_rank)); }
GPUMPI_FN static inline gp_inbox *gp_inbox_of(int r) { return (gp_inbox *)gp_rank_elem(gp_hot.inbox, r, sizeof(gp_inbox)); }
/* Whether p is in another GPU's piece of the job's arena (a copy from
 * there is a pull across NVLink). */
GPUMPI_FN static inline int gp_on_other_gpu(const void *p)
{
    if (!gp_hot.proc_stride) return 0;
    uintptr_t off = (uintptr_t)p - (uintptr_t)gp_hot.arena, all = (uintptr_t)gp_hot.nranks / gp_hot.proc_ranks * gp_hot.proc_stride;
    return off < all && off - (uintptr_t)gp_hot.proc * gp_hot.proc_stride >= gp_hot.proc_stride; /* not in our piece */
}

/* Errors. gp_err raises an error on a communicator: with its handler
 * MPI_ERRORS_ARE_FATAL (the default) it reports "rank R: FN: what" and ends
 * the job; with MPI_ERRORS_RETURN (or a user handler, which it calls) it
 * returns the error class for the MPI function to return. Every check in an
 * MPI function is therefore written GP_TRY(check(...)). Errors not tied to
 * a communicator are raised on MPI_COMM_WORLD, as the standard says.
 * gp_fatal always ends the job (internal failures, MPI_Abort). */
GPUMPI_VARIADIC_FN int gp_fatal(const char *fn, int errclass, const char *fmt, ...);
GPUMPI_VARIADIC_FN int gp_err(MPI_Comm comm, const char *fn, int errclass, const char *fmt, ...);
/* The same on an object other than a communicator (a session, or a call
 * that has no communicator but an error handler argument): eh is its
 * handler, handle what a user handler is passed a pointer to. */
GPUMPI_VARIADIC_FN int gp_err_on(MPI_Errhandler eh, int handle, const char *fn, int errclass, const char *fmt, ...);
#define GP_TRY(expr)                       \
    do {                                   \
        int gp_rc_ = (expr);               \
        if (gp_rc_ != MPI_SUCCESS) return gp_rc_; \
    } while (0)
/* The handler in force on comm (comm.cu): MPI_ERRORS_ARE_FATAL,
 * MPI_ERRORS_RETURN, or a user handler. */
GPUMPI_FN MPI_Errhandler gp_comm_errhandler(MPI_Comm comm);
/* Calls a user handler with a pointer to a copy of the handle (a
 * communicator or a session: both ints); 0 if eh is a predefined one
 * (errhandler.cu). */
GPUMPI_FN int gp_call_user_errhandler(MPI_Errhandler eh, MPI_Comm comm, int errclass);

/* Communicators (comm.cu). A handle indexes the calling rank's own table;
 * each communicator has two context ids, agreed by all its members when it
 * is made: one keeps collective traffic apart from point-to-point traffic
 * (MPI_ANY_TAG must never see it). */
/* MPI_COMM_WORLD is answered inline, without the table: these are on every
 * message's path, and with relocatable device code a call into another
 * file is never inlined (on an H100 each such call, with its dependent
 * loads, cost 0.1-0.4 us: bench/p2p_anatomy.c). Other communicators go to
 * the general functions in comm.cu. */
#define GP_WORLD_CTX 2 /* MPI_COMM_WORLD's point-to-point context; + 1 its collective one */
GPUMPI_FN int gp_comm_check_general(const char *fn, MPI_Comm comm);
GPUMPI_FN int gp_subcomm_size(MPI_Comm comm);
GPUMPI_FN int gp_subcomm_peer_size(MPI_Comm comm);
/* An intercommunicator's hidden intracommunicator of its local group;
 * any other communicator itself. */
GPUMPI_FN MPI_Comm gp_comm_local_of(MPI_Comm comm);
/* Whether comm is an intercommunicator (intercomm.cu). */
GPUMPI_FN int gp_comm_is_inter(MPI_Comm comm);
GPUMPI_FN int gp_subcomm_rank(MPI_Comm comm);
GPUMPI_FN int gp_subcomm_to_world(MPI_Comm comm, int rank);
GPUMPI_FN int gp_world_to_subcomm(MPI_Comm comm, int world_rank);
GPUMPI_FN int gp_subcomm_ctx(MPI_Comm comm);
/* A point-to-point call's lookups on a communicator other than the world
 * in one call (each a call into comm.cu and a look at the rank's tables):
 * checks comm as gp_comm_check does, and gives its size, peer's world rank
 * (peer itself if it is not in 0..size-1: the caller checks it) and its
 * point-to-point context. */
GPUMPI_FN int gp_comm_p2p(const char *fn, MPI_Comm comm, int peer, int *size, int *peer_world, int *ctx);
/* Whether comm holds every world rank in world order (a dup of the world,
 * a Cartesian communicator over it, a split with one colour): its blocking
 * barrier and small allreduce can take the world's on-chip tree. */
GPUMPI_FN int gp_comm_spans_world(MPI_Comm comm);
/* Valid, and inside Init..Finalize. */
GPUMPI_FN static inline int gp_comm_check(const char *fn, MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD && gp_flag(GP_RF_INIT)) return MPI_SUCCESS;
    return gp_comm_check_general(fn, comm);
}
GPUMPI_FN static inline int gp_comm_size(MPI_Comm comm)
{
    return comm == MPI_COMM_WORLD ? gp_hot.nranks : gp_subcomm_size(comm);
}
GPUMPI_FN static inline int gp_comm_rank(MPI_Comm comm)
{
    return comm == MPI_COMM_WORLD ? gp_thread_rank() : gp_subcomm_rank(comm);
}
/* The ranks point to point addresses: an intercommunicator's remote group
 * (which gp_comm_to_world and gp_world_to_comm number), else the local one. */
GPUMPI_FN static inline int gp_comm_peer_size(MPI_Comm comm)
{
    return comm == MPI_COMM_WORLD ? gp_hot.nranks : gp_subcomm_peer_size(comm);
}
GPUMPI_FN static inline int gp_comm_to_world(MPI_Comm comm, int rank)
{
    return comm == MPI_COMM_WORLD ? rank : gp_subcomm_to_world(comm, rank);
}
/* MPI_UNDEFINED if not a member */
GPUMPI_FN static inline int gp_world_to_comm(MPI_Comm comm, int world_rank)
{
    return comm == MPI_COMM_WORLD ? world_rank : gp_world_to_subcomm(comm, world_rank);
}
GPUMPI_FN static inline int gp_ctx_p2p(MPI_Comm comm)
{
    return comm == MPI_COMM_WORLD ? GP_WORLD_CTX : gp_subcomm_ctx(comm);
}
GPUMPI_FN static inline int gp_ctx_coll(MPI_Comm comm) { return gp_ctx_p2p(comm) + 1; }
/* 1 when comm's ranks are world ranks first..first+size-1 in order (world,
 * its dups, a contiguous split): collectives may take the shared-memory
 * fast path over that range. */
GPUMPI_FN int gp_comm_is_world_range(MPI_Comm comm, int *first);
/* The number of collectives this rank has started on comm, counting this
 * one: every member counts the same, so it tells one collective's messages
 * from another's (nonblocking collectives may overlap). */
GPUMPI_FN uint32_t gp_comm_next_coll_seq(MPI_Comm comm);
GPUMPI_FN void gp_comm_return_coll_seq(MPI_Comm comm); /* undoes the last gp_comm_next_coll_seq */
/* A nonblocking operation that looks comm up after it returns (a
 * collective's schedule) holds it: MPI_Comm_free lets pending operations
 * finish, so the lookups stay valid until the hold is dropped. Posted
 * receives need no hold. */
GPUMPI_FN void gp_comm_hold(MPI_Comm comm);
GPUMPI_FN void gp_comm_unhold(MPI_Comm comm);
/* Environment (env.cu): checks MPI is usable (inside MPI_Init..MPI_Finalize,
 * or a session open: session.cu); gp_check_world that the world model is
 * (MPI_COMM_WORLD and MPI_COMM_SELF exist only there). */
GPUMPI_FN int gp_check_initialized(const char *fn);
GPUMPI_FN int gp_check_world(const char *fn);
/* Sets up the calling rank's MPI state: MPI_Init and MPI_Session_init. */
GPUMPI_FN void gp_rank_state_open(void);
/* MPI_COMM_WORLD and MPI_COMM_SELF become valid handles (1) or stop being
 * ones (0) in the calling rank's table (comm.cu). */
GPUMPI_FN void gp_comm_world_open(int open);

/* Datatypes (types_*.cu). Data of (count, type) at buf is either one
 * contiguous run of bytes, or described by a type map and moved through a
 * packed copy. gp_type_size is the packed size of one element (-1 for an
 * invalid handle). */
GPUMPI_FN int gp_type_size_general(MPI_Datatype t);
GPUMPI_FN int gp_type_check_general(MPI_Comm comm, const char *fn, MPI_Datatype t, int count);
GPUMPI_FN int gp_type_contiguous_general(MPI_Datatype t, int count, const void *buf, const void **first);
/* Basic (predefined, dense, not a pair) types are answered inline from
 * this constant table, the rest by the general functions (types_basic.cu). */
extern GPUMPI_CONST_VAR const uint8_t gp_basic_size[MPI_FLOAT_INT];
/* Its size if t is a basic type, else 0. */
GPUMPI_FN static inline int gp_basic_type_size(MPI_Datatype t)
{
    return (unsigned)t < (unsigned)MPI_FLOAT_INT ? gp_basic_size[t] : 0;
}
GPUMPI_FN static inline int gp_type_size(MPI_Datatype t)
{
    int s = gp_basic_type_size(t);
    return s ? s : gp_type_size_general(t);
}
/* valid, committed, count >= 0 */
GPUMPI_FN static inline int gp_type_check(MPI_Comm comm, const char *fn, MPI_Datatype t, int count)
{
    if (gp_basic_type_size(t) && count >= 0) return MPI_SUCCESS;
    return gp_type_check_general(comm, fn, t, count);
}
GPUMPI_FN size_t gp_type_extent(MPI_Datatype t);
/* 1 and the first byte when (count, t) at buf is contiguous, else 0. */
GPUMPI_FN static inline int gp_type_contiguous(MPI_Datatype t, int count, const void *buf, const void **first)
{
    if (gp_basic_type_size(t)) {
        *first = buf;
        return 1;
    }
    return gp_type_contiguous_general(t, count, buf, first);
}
/* Packs (count, t) at buf into bytes at out (gp_type_size(t) * count of them). */
GPUMPI_FN void gp_type_pack(const void *buf, int count, MPI_Datatype t, void *out);
/* Unpacks `bytes` packed bytes (a whole number of basic elements) into (count, t) at buf. */
GPUMPI_FN void gp_type_unpack(const void *in, size_t bytes, void *buf, int count, MPI_Datatype t);
/* The basic type a reduction sees for t (t itself, or the one basic type a
 * derived type is built of), or MPI_DATATYPE_NULL if t mixes types. */
GPUMPI_FN MPI_Datatype gp_type_basic(MPI_Datatype t);
/* An operation still to complete holds its datatype handle: a handle the
 * user frees meanwhile stays usable until released (MPI_Type_free lets
 * pending operations finish). Free for predefined types. */
GPUMPI_FN void gp_type_hold(MPI_Datatype t);
GPUMPI_FN void gp_type_release(MPI_Datatype t);
/* The same for a user op (ops_user.cu): MPI_Op_free lets a pending
 * nonblocking reduction finish with it. Free for predefined ops. */
GPUMPI_FN void gp_op_hold(MPI_Op op);
GPUMPI_FN void gp_op_release(MPI_Op op);

/* Reductions (reduce_ops.cu, ops_user.cu) on packed data: in and inout hold count
 * elements of t each, packed (gp_type_pack); inout[i] = in[i] op inout[i].
 * For a non-commutative op, in must hold the lower-ranked operand. Returns
 * an MPI error class (MPI_ERR_OP when op does not apply to t). */
GPUMPI_FN int gp_reduce_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count);
GPUMPI_FN int gp_op_commutative(MPI_Op op);
/* Raises MPI_ERR_OP on comm unless op is valid and defined for t (a
 * reduction checks before it moves data: one rank alone never combines). */
GPUMPI_FN int gp_op_check(MPI_Comm comm, const char *fn, MPI_Op op, MPI_Datatype t);

/* Requests (requests.cu): posted receives are matched in the order posted. */
GPUMPI_FN void gp_progress(void);
/* Whether gp_progress has anything to do: receives posted, or nonblocking
 * collectives in flight. Every wait loop of a blocking call calls
 * gp_progress while this says so: a peer may wait for this rank's posted
 * receive, or for its part of a nonblocking collective. */
GPUMPI_FN static inline int gp_progress_wanted(void) { return gp_flag(GP_RF_POSTED | GP_RF_COLL); }
/* A nonblocking collective in flight waits for a receiver to copy one of
 * its sends (coll_nonblocking.cu): nothing will arrive to wake a wait for
 * messages when that is done, yet the collective's next round has to be
 * made, so a wait polls (gp_block_wait) instead of waiting for arrivals. */
GPUMPI_FN int gp_coll_sends_pending(void);
GPUMPI_FN static inline int gp_wait_must_poll(void) { return gp_flag(GP_RF_COLL) && gp_coll_sends_pending(); }

/* Point-to-point transport (p2p.cu), in world ranks. */
enum { GP_SEND_STANDARD, GP_SEND_SYNC, GP_SEND_BUFFERED };
#define GP_SEND_LANDING_TRIED 8 /* or'ed into the mode: the caller found no landing (landing.h) */
/* Queues a message; returns the envelope to wait on (gp_send_done) when the
 * send completes only once received (large, or synchronous), else NULL. */
GPUMPI_FN gp_msg *gp_send_start(const void *buf, int count, MPI_Datatype type, int dest_world, int tag, int ctx,
                                int mode);
GPUMPI_FN int gp_send_done(gp_msg *m); /* 1 once received (and the envelope released) */
GPUMPI_FN void gp_send_wait(gp_msg *m); /* until gp_send_done, progressing this rank's requests */
/* Blocking standard-mode sends. */
GPUMPI_FN void gp_send_typed(const void *buf, int count, MPI_Datatype type, int dest_world, int tag, int ctx);
GPUMPI_FN void gp_send_bytes(const void *buf, size_t bytes, int dest_world, int tag, int ctx);
/* Copies a matched message out into (count, type) at buf and releases it.
 * MPI_SUCCESS or MPI_ERR_TRUNCATE (the buffer is filled as far as it goes). */
GPUMPI_FN int gp_deliver(gp_msg *m, void *buf, int count, MPI_Datatype type, int *got_src, int *got_tag,
                         size_t *got_bytes);
/* A blocking receive, ignoring posted receives; the source is a world rank. */
GPUMPI_FN int gp_recv_bytes(void *buf, size_t cap, int src_world, int tag, int ctx, int *got_src, int *got_tag,
                            size_t *got_bytes);
/* Argument checks of point-to-point calls (inline: every message makes them). */
GPUMPI_FN static inline int gp_check_peer_of(const char *fn, MPI_Comm comm, int size, int peer, int any_ok)
{
    if ((unsigned)peer < (unsigned)size || peer == MPI_PROC_NULL || (any_ok && peer == MPI_ANY_SOURCE))
        return MPI_SUCCESS;
    return gp_err(comm, fn, MPI_ERR_RANK, "invalid rank %d (communicator has %d ranks)", peer, size);
}
GPUMPI_FN static inline int gp_check_peer(const char *fn, MPI_Comm comm, int peer, int any_ok)
{
    return gp_check_peer_of(fn, comm, gp_comm_peer_size(comm), peer, any_ok);
}
GPUMPI_FN static inline int gp_check_tag(MPI_Comm comm, const char *fn, int tag, int any_ok)
{
    if (tag >= 0 || (any_ok && tag == MPI_ANY_TAG)) return MPI_SUCCESS;
    return gp_err(comm, fn, MPI_ERR_TAG, "invalid tag %d (tags must be >= 0)", tag);
}
/* Inline: a receive's fast path in the program sets it too (p2p_inline.h). */
/* MPI_ERROR is left as it was: the calls that return one status never set
 * it, the ones that return several only with MPI_ERR_IN_STATUS (MPI-3.1
 * 3.2.5; requests.cu). */
GPUMPI_FN static inline void gp_set_status(MPI_Status *status, int source, int tag, size_t bytes)
{
    if (!status) return;
    status->MPI_SOURCE = source;
    status->MPI_TAG = tag;
    status->gp_count_bytes = (MPI_Count)bytes;
    status->gp_cancelled = 0;
}
/* A status handed to the program (a request's, a matched probe's): all
 * but MPI_ERROR. */
GPUMPI_FN static inline void gp_status_out(MPI_Status *to, const MPI_Status *from)
{
    if (!to) return;
    int error = to->MPI_ERROR;
    *to = *from;
    to->MPI_ERROR = error;
}

/* Shared-memory fast path for MPI_Allreduce over MPI_COMM_WORLD
 * (shm_collectives.cu, which also has MPI_Barrier): 1 when done, 0 when
 * the call is not one it takes (another communicator, a user op, more
 * than a few elements). Arguments are already checked. */
GPUMPI_FN int gp_shm_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                               MPI_Comm comm);
/* The same for blocking MPI_Bcast, MPI_Reduce, MPI_Gather and
 * MPI_Scatter over the world, which do not make ranks wait for each other
 * (shm_rooted.cu). */
GPUMPI_FN int gp_shm_bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm);
GPUMPI_FN int gp_shm_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op, int root,
                            MPI_Comm comm);
GPUMPI_FN int gp_shm_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm);
GPUMPI_FN int gp_shm_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm);

/* Copies n bytes, with the copy service's warps when it is large and both
 * ends are memory they can reach (copy_service.cu). An eager payload is
 * copied inline, by words when both ends allow. */
GPUMPI_FN void gp_copy_general(void *dst, const void *src, size_t n);
GPUMPI_FN static inline void gp_copy(void *dst, const void *src, size_t n)
{
    if (n > GP_EAGER_BYTES) {
        gp_copy_general(dst, src, n);
        return;
    }
    if ((((uintptr_t)dst | (uintptr_t)src | n) & 7) == 0) {
        for (size_t i = 0; i < n / 8; i++) ((uint64_t *)dst)[i] = ((const uint64_t *)src)[i];
    } else {
        for (size_t i = 0; i < n; i++) ((char *)dst)[i] = ((const char *)src)[i];
    }
}

/* Host calls (host_call.cu): a request to the launcher's host service. */
GPUMPI_FN void gp_host_call(int op, int arg, const void *data, size_t len);
/* A call the host answers: sends in_len bytes, waits, copies at most out_cap
 * reply bytes to out (*out_len of them). Returns the host's result; *err is
 * its errno (0 on success). At most GP_HOST_CALL_BYTES each way. */
GPUMPI_FN int64_t gp_host_rpc(int op, int64_t arg, int64_t arg2, const void *in, size_t in_len, void *out,
                              size_t out_cap, size_t *out_len, int *err);

/* The deadlock watchdog's hooks (watchdog.cu), in the waits of blocking MPI
 * calls: enter says what the rank waits for (peer a world rank,
 * MPI_ANY_SOURCE, or GP_BLOCK_NONE), gp_block_wait replaces gp_pause in the wait loop and
 * publishes the record once the wait has lasted, leave clears it. */
#define GP_BLOCK_SPINS 256
GPUMPI_FN void gp_block_check(unsigned spins);
/* A received slot held back (p2p.cu) goes to its sender before the rank
 * waits for anything: that sender may be waiting for it. */
GPUMPI_FN void gp_hand_back_now(void);
GPUMPI_FN static inline void gp_hand_back(void)
{
    if (gp_flag(GP_RF_FREE_LATER)) gp_hand_back_now();
}
/* The pause of a wait loop, sleeping at most max_ns (gp_pause_upto); the
 * watchdog looks only every GP_BLOCK_SPINS pauses, so a poll stays cheap. */
GPUMPI_FN static inline void gp_block_wait_upto(unsigned *spins, unsigned max_ns)
{
    gp_hand_back();
    gp_pause_upto(spins, max_ns);
    if (*spins % GP_BLOCK_SPINS == 0) gp_block_check(*spins);
}
GPUMPI_FN static inline void gp_block_wait(unsigned *spins) { gp_block_wait_upto(spins, 2000); }
/* A message reached this rank while it waited (the watchdog sees progress). */
GPUMPI_FN void gp_block_progress_now(void);
GPUMPI_FN static inline void gp_block_progress(void)
{
    if (gp_flag(GP_RF_PUBLISHED)) gp_block_progress_now(); /* inline: a call into another file on every wake-up */
}
/* For the watchdog's report (coll_nonblocking.cu): the oldest nonblocking
 * collective in flight and what its round waits for, unless *shown says
 * the record holds that already; 0 if none is in flight. */
GPUMPI_FN int gp_coll_describe_wait(const char *prefix, uint64_t *shown, char *text, size_t cap, MPI_Comm *comm,
                                    int *peer_world);
/* A blocking call's start and end: at the end the warp's lanes wait a
 * while for each other and go on in step (warp_regroup.cu); how long
 * depends on how long the call took. */
GPUMPI_FN void gp_warp_regroup_slow(void);
GPUMPI_FN static inline void gp_regroup_mark(void)
{
#if defined(GPUMPI_CUDA)
    gp_rank_chip *c = gp_chip();
    uint32_t now = (uint32_t)clock64();
    unsigned lg = 31 - __clz((now - c->regroup_t0) | 1u);
    if (lg >= c->regroup_work) /* the longest of its recent works, let down 2x every 16 calls */
        c->regroup_work = (uint8_t)lg;
    else if ((c->regroup_calls & 15u) == 0)
        c->regroup_work--;
    c->regroup_t0 = now;
#endif
}
/* Whom a blocking call waits for now (a world rank; MPI_ANY_SOURCE,
 * GP_BLOCK_NONE or -1: nobody in particular): a lane waiting to regroup
 * does not wait for one that waits for it. */
GPUMPI_FN static inline void gp_regroup_wants(int peer)
{
#if defined(GPUMPI_CUDA)
    *(volatile int32_t *)&gp_chip()->regroup_wants = peer >= 0 ? peer : -1;
#endif
}
GPUMPI_FN void gp_regroup_back(void);
GPUMPI_FN static inline void gp_warp_regroup(void)
{
#if defined(GPUMPI_CUDA)
    if (!gp_hot.regroup_cycles) return;
    gp_rank_chip *c = gp_chip();
    c->regroup_calls++; /* every lane counts, in step or not: rounds are by count */
    if (__activemask() != ~0u && gp_block_width() > 1) { /* a rank alone in its block has nobody to wait for */
        if (!c->regroup_skip)
            gp_warp_regroup_slow();
        else if (--c->regroup_skip == 0) /* it waited in vain lately */
            gp_regroup_back();
    }
    c->regroup_sent = 0;
    c->regroup_t0 = (uint32_t)clock64();
#endif
}
/* A send to a rank of the same warp, since the rank's last blocking call
 * ended: a lane waiting to regroup waits for a rank that waits for a
 * message from it only if it has sent it one in that time. (Not on the
 * inline path of a blocking send of a few bytes: there it made the
 * ping-pong within a warp 0.6 us slower; such a send unmarked only makes a
 * regroup give up early.) */
GPUMPI_FN static inline void gp_regroup_sent(int dest_world)
{
#if defined(GPUMPI_CUDA)
    unsigned at = (unsigned)dest_world - (unsigned)(gp_thread_rank() - gp_lane_id());
    if (at < 32) gp_chip()->regroup_sent |= 1u << at;
#endif
}
/* A blocking call's result, after the regroup. */
GPUMPI_FN static inline int gp_regrouped(int rc)
{
    gp_warp_regroup();
    return rc;
}

/* --stats counters (NULL when off). */
GPUMPI_FN static inline gp_rank_stats *gp_my_stats(void)
{
    gp_rank_stats *s = gp_hot.stats;
    return s ? s + gp_thread_rank() : 0;
}
/* A message sent or received, for --stats. */
GPUMPI_FN static inline void gp_count_sent(size_t bytes)
{
    gp_rank_stats *st = gp_my_stats();
    if (st) {
        st->sent++;
        st->bytes_sent += bytes;
    }
}
GPUMPI_FN static inline void gp_count_recvd(size_t bytes)
{
    gp_rank_stats *st = gp_my_stats();
    if (st) {
        st->recvd++;
        st->bytes_recvd += bytes;
    }
}
/* Inline: every MPI_Send and MPI_Recv says what it waits for (a few
 * stores to the rank's own state); only a wait that lasted was published
 * and needs watchdog.cu to take it back (gp_block_unpublish). */
GPUMPI_FN void gp_block_unpublish(gp_rank *me);
GPUMPI_FN static inline void gp_block_enter(const char *fn, MPI_Comm comm, int peer, int tag)
{
    gp_rank *me = gp_self();
    me->block_fn = fn;
    me->block_comm = comm;
    me->block_peer = peer;
    me->block_tag = tag;
    me->block_t0 = gp_hot.stats ? gp_clock_ns() : 0; /* else the first look at a long wait sets it */
    gp_regroup_wants(peer);
}
GPUMPI_FN static inline void gp_block_leave(void)
{
    gp_rank *me = gp_self();
    if (gp_flag(GP_RF_PUBLISHED)) gp_block_unpublish(me);
    gp_rank_stats *st = gp_my_stats();
    if (st && me->block_fn) {
        st->wait_ns += gp_clock_ns() - me->block_t0;
        st->calls++;
    }
    me->block_fn = 0;
    me->block_t0 = 0;
    gp_regroup_wants(-1);
}

/* Record the calling rank's exit status, after flushing its output. */
GPUMPI_FN void gp_rank_finish(int code);

/* Message matching and landings: inline, they need the declarations above. */
#include "match.h"
#include "landing.h"

#endif
