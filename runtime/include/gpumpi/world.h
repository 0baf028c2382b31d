/* The state shared by all ranks and the launcher. One gp_world lives in GPU
 * global memory (or host memory on the threads backend); the launcher sizes
 * and fills it before the ranks start. Plain C so the launcher can include it. */
#ifndef GPUMPI_WORLD_H
#define GPUMPI_WORLD_H

#include "gpumpi/platform.h"

/* Message slots each rank owns for its outgoing messages. A slot holds the
 * envelope and, for small messages, the payload (the eager fragment pool). */
#define GP_SLOTS_PER_RANK 8
#define GP_EAGER_BYTES 192

/* A rank's stdout line buffer: a line is sent to the host when it ends. */
#define GP_LINE_BYTES 512

/* The host-call ring: cells in mapped pinned memory. */
#define GP_HOST_CELLS 4096
#define GP_HOST_CELL_BYTES 480

enum gp_slot_state {
    GP_SLOT_FREE = 0,   /* the sender may fill it */
    GP_SLOT_QUEUED = 1, /* in the receiver's unexpected queue */
};

typedef struct gp_msg {
    uint32_t state;     /* gp_slot_state; the receiver frees it, which also
                         * tells a rendezvous sender its buffer is free */
    int src;            /* world rank of the sender */
    int tag;
    int ctx;            /* communicator context: point-to-point or collective */
    uint32_t bytes;
    const void *data;   /* payload: this slot's eager bytes, the sender's buffer, or a staging copy */
    void *staged;       /* heap copy to free after delivery, or NULL */
    uint8_t on_heap;    /* an overflow envelope (all slots were busy), not a slot */
    uint8_t sender_waits; /* the sender waits for state FREE (rendezvous, synchronous
                           * mode); else the receiver frees an overflow envelope */
    struct gp_msg *next;
    uint32_t seq;       /* arrival number at the receiver (gp_rank.arrived) */
    uint64_t payload[GP_EAGER_BYTES / 8];
} gp_msg;

typedef struct gp_rank {
    uint32_t lock;      /* guards the unexpected-message queue below */
    gp_msg *uq_head;    /* unexpected messages in arrival order */
    gp_msg *uq_tail;
    uint32_t arrived;   /* messages queued here so far: the next one's seq */
    uint32_t next_slot; /* where the sender starts looking for a free slot */
    int init_state;     /* 0 before MPI_Init, 1 inside, 2 after MPI_Finalize */
    struct gp_req *reqs;/* this rank's requests (requests.cu); handle = index + 1 */
    int nreqs, cap_reqs;
    int posted_head;    /* posted receives in the order posted: request handles, 0 = none */
    int posted_tail;
    void *comm_state;   /* this rank's communicators, groups, keyvals, error handlers (comm.cu) */
    void *type_state;   /* this rank's derived datatypes and user ops (datatypes.cu) */
    uint32_t coll_seq[2]; /* collectives started on MPI_COMM_WORLD and MPI_COMM_SELF (until comm.cu keeps them) */
    void *bsend_buf;    /* MPI_Buffer_attach */
    int bsend_size;
    uint32_t out_len;   /* bytes pending in out_line */
    char out_line[GP_LINE_BYTES];
} gp_rank;

enum gp_host_op {
    GP_HOST_WRITE = 1, /* arg = fd; data = bytes */
    GP_HOST_ABORT = 2, /* arg = exit code; data = message */
};

/* One host call. seq is the handshake: a producer with ticket t owns the cell
 * when seq == t and publishes it by setting seq = t + 1; the host frees it for
 * ticket t + GP_HOST_CELLS. */
typedef struct gp_host_cell {
    uint64_t seq;
    int rank;
    int op;
    int arg;
    uint32_t len;
    char data[GP_HOST_CELL_BYTES];
} gp_host_cell;

typedef struct gp_world {
    int nranks;
    int argc;
    char **argv;
    char **envp;             /* the launcher's environment, NULL-terminated */
    gp_rank *ranks;          /* nranks entries */
    gp_msg *slots;           /* nranks * GP_SLOTS_PER_RANK */
    int *exit_codes;         /* nranks entries, written when a rank returns */
    uint32_t *exited;        /* nranks entries, 1 once the rank has returned */
    uint32_t *arrivals;      /* nranks entries, bumped on every enqueue: a waiting
                              * receiver rescans only then. A separate dense array
                              * so a warp of waiting ranks polls one cache line. */
    uint64_t host_ticket;    /* next host-call ticket */
    gp_host_cell *host_cells;/* GP_HOST_CELLS cells, device view of pinned memory */
    uint64_t t0_ns;          /* MPI_Wtime origin */
    char *globals;           /* per-rank copies of the program's globals: */
    size_t globals_stride;   /* rank r's block starts at globals + r * stride */
    char processor_name[256];
    uint32_t next_ctx;       /* context ids handed out so far (comm.cu; zero-filled at launch) */
} gp_world;

#if defined(GPUMPI_CUDA) || defined(GPUMPI_THREADS)
extern GPUMPI_VAR gp_world *gp_world_ptr;
#endif

#endif
