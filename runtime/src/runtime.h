/* Internal interface of the device MPI runtime. */
#ifndef GPUMPI_RUNTIME_H
#define GPUMPI_RUNTIME_H

#include "mpi.h"
#include "gpumpi/world.h"

GPUMPI_FN static inline gp_world *gp_w(void) { return gp_world_ptr; }
GPUMPI_FN static inline gp_rank *gp_self(void) { return &gp_world_ptr->ranks[gp_thread_rank()]; }

/* Errors: report "rank R: FN: what" and end the job (MPI_ERRORS_ARE_FATAL). */
GPUMPI_VARIADIC_FN int gp_fatal(const char *fn, int errclass, const char *fmt, ...);

/* Communicators: the two contexts of a communicator keep collective traffic
 * apart from point-to-point traffic (MPI_ANY_TAG must never see it). */
GPUMPI_FN int gp_comm_check(const char *fn, MPI_Comm comm);
GPUMPI_FN int gp_comm_size(MPI_Comm comm);
GPUMPI_FN int gp_comm_rank(MPI_Comm comm);
GPUMPI_FN int gp_comm_to_world(MPI_Comm comm, int rank);
GPUMPI_FN int gp_world_to_comm(MPI_Comm comm, int world_rank);
GPUMPI_FN static inline int gp_ctx_p2p(MPI_Comm comm) { return comm * 2; }
GPUMPI_FN static inline int gp_ctx_coll(MPI_Comm comm) { return comm * 2 + 1; }

/* Datatypes. */
GPUMPI_FN int gp_type_size(MPI_Datatype t); /* -1 if not a valid type */
GPUMPI_FN int gp_type_check(const char *fn, MPI_Datatype t, int count);

/* Reductions: inout[i] = in[i] op inout[i]. Returns an MPI error class. */
GPUMPI_FN int gp_reduce_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count);

/* Message matching (match.cu): envelopes queued at the receiving rank. */
GPUMPI_FN void gp_enqueue(int dest_world, gp_msg *m);
/* The oldest matching message, unlinked; NULL if none. With `before` (a
 * gp_arrived_so_far() value) only among the messages that arrived before
 * it: a pass over several posted receives must not let a later receive
 * take a message that arrived after an earlier one looked. */
GPUMPI_FN gp_msg *gp_take_match(int src_world, int tag, int ctx, const uint32_t *before);
GPUMPI_FN uint32_t gp_arrived_so_far(void);
/* The first match left in place (MPI_Probe): 1 and its envelope, or 0. */
GPUMPI_FN int gp_peek_match(int src_world, int tag, int ctx, int *src, int *got_tag, size_t *bytes);

/* Requests (requests.cu): posted receives are matched in the order posted. */
GPUMPI_FN void gp_progress(void);

/* Point-to-point transport (p2p.cu), in world ranks and bytes. */
enum { GP_SEND_STANDARD, GP_SEND_SYNC, GP_SEND_BUFFERED };
/* Queues a message; returns the envelope to wait on (gp_send_done) when the
 * send completes only once received (large, or synchronous), else NULL. */
GPUMPI_FN gp_msg *gp_send_start(const void *buf, size_t bytes, int dest_world, int tag, int ctx, int mode);
GPUMPI_FN int gp_send_done(gp_msg *m); /* 1 once received (and the envelope released) */
GPUMPI_FN void gp_send_bytes(const void *buf, size_t bytes, int dest_world, int tag, int ctx);
/* Copies a matched message out and releases it. MPI_SUCCESS or MPI_ERR_TRUNCATE. */
GPUMPI_FN int gp_deliver(gp_msg *m, void *buf, size_t cap, int *got_src, int *got_tag, size_t *got_bytes);
GPUMPI_FN int gp_check_peer(const char *fn, MPI_Comm comm, int peer, int any_ok);
GPUMPI_FN void gp_set_status(MPI_Status *status, int source, int tag, int error, size_t bytes);
/* Returns MPI_SUCCESS or MPI_ERR_TRUNCATE; status gets world source. */
GPUMPI_FN int gp_recv_bytes(void *buf, size_t cap, int src_world, int tag, int ctx, int *got_src, int *got_tag,
                            size_t *got_bytes);

/* Host calls (host_call.cu): a request to the launcher's host service. */
GPUMPI_FN void gp_host_call(int op, int arg, const void *data, size_t len);

/* Record the calling rank's exit status, after flushing its output. */
GPUMPI_FN void gp_rank_finish(int code);

#endif
