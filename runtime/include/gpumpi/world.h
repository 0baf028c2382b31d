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
/* Unexpected messages are kept in this many lists by source: a receive
 * from one source walks only its list, not the messages that ranks running
 * ahead (leaves of a loop of reductions, say) have piled up meanwhile. */
#define GP_UQ_BUCKETS 8

/* A rank's stdout line buffer: a line is sent to the host when it ends. */
#define GP_LINE_BYTES 512

/* The host-call ring: cells in mapped pinned memory. A request/reply call
 * holds at most GP_HOST_CALL_CELLS consecutive cells, which carry its
 * request and then its reply. */
#define GP_HOST_CELLS 4096
#define GP_HOST_CELL_BYTES 464
#define GP_HOST_CALL_CELLS 16
#define GP_HOST_CALL_BYTES (GP_HOST_CALL_CELLS * GP_HOST_CELL_BYTES)

/* The heap (libc-shim/src/malloc.cu): blocks in size classes, header
 * included. Small classes are cached per rank; big ones share lists. */
#define GP_HEAP_SMALL_CLASSES 41 /* blocks up to 64 KiB */
#define GP_HEAP_CLASSES 164      /* up to 64 TiB */
/* A rank's private memory (--private) is 0 or at least this much: its
 * bookkeeping and room for a few blocks (libc-shim/src/malloc_private.cu). */
#define GP_PRIVATE_MIN_BYTES 8192
/* Every rank's local memory also holds the runtime's tables that only the
 * rank touches (its requests, communicators, posted-receive index:
 * gp_tables_malloc); what does not fit goes to the shared heap. */
#define GP_TABLES_BYTES 16384

typedef struct gp_rank_heap {
    uint64_t free[GP_HEAP_SMALL_CLASSES];   /* this rank's free blocks per class */
    uint64_t remote;                        /* blocks other ranks freed for us (a stack) */
    uint16_t refill[GP_HEAP_SMALL_CLASSES]; /* blocks carved at the next refill */
} gp_rank_heap;

typedef struct gp_heap {
    char *base;
    uint64_t size;
    uint64_t top;                  /* bytes carved so far (atomic) */
    uint32_t big_lock;
    uint32_t warned;               /* exhaustion was reported */
    uint64_t big_free[GP_HEAP_CLASSES];
} gp_heap;

/* The copy service (copy_service.cu): jobs a rank posts and service warps
 * carry out chunk by chunk. */
#define GP_COPY_JOBS 64
#define GP_COPY_CHUNK (32u << 10) /* a 1 MiB message is 32 chunks: one for each service warp */

typedef struct gp_copy_job {
    uint32_t busy;        /* a rank holds this job */
    uint32_t chunks_done; /* chunks copied so far */
    uint64_t work;        /* generation:24 | chunks:20 | next chunk to take:20 */
    const char *src;
    char *dst;
    uint64_t bytes;
} gp_copy_job;

/* The shared-memory combining tree for collectives over MPI_COMM_WORLD
 * (shm_collectives.cu): level 0 has one input per block of ranks, each node
 * combines up to GP_TREE_FANIN inputs into one input of the level above. */
#define GP_TREE_FANIN_BITS 5
#define GP_TREE_FANIN (1 << GP_TREE_FANIN_BITS)
#define GP_TREE_BYTES 64 /* the most data one rank puts in (8 doubles) */
#define GP_TREE_LEVELS 8

typedef struct gp_tree {
    int levels;                             /* node levels (0 for one rank) */
    uint32_t inputs[GP_TREE_LEVELS + 1];    /* inputs at each level */
    uint32_t node_base[GP_TREE_LEVELS];     /* first node of each level */
    uint32_t value_base[GP_TREE_LEVELS + 1];/* first input of each level */
    uint32_t nodes, all_inputs;             /* totals */
    uint32_t *counts;    /* arrivals at each node */
    uint32_t *release;   /* collectives completed, per node: every waiter watches the root's */
    char *values;        /* GP_TREE_BYTES per input, then as much for the result */
    /* A one-word allreduce (shm_collectives.cu) has its own: for each
     * input the value that goes up, and in the top level's one input the
     * result, each in a word that carries the collective's number
     * (gp_split_put: all_inputs entries). */
    gp_tagged *word_in;
    /* the last slot of values: a multi-word allreduce's result, where every
     * block reads it (memory every GPU of a job reaches, not the world
     * struct, which each launcher process has a copy of) */
    uint64_t *result;
} gp_tree;

/* The tree's shape for n blocks (the launcher then allocates its arrays). */
GPUMPI_HD static inline void gp_tree_layout(gp_tree *t, int n)
{
    uint32_t in = (uint32_t)n, nodes = 0, inputs = 0;
    int l = 0;
    for (; in > 1 && l < GP_TREE_LEVELS; l++) {
        t->inputs[l] = in;
        t->value_base[l] = inputs;
        t->node_base[l] = nodes;
        inputs += in;
        in = (in + GP_TREE_FANIN - 1) >> GP_TREE_FANIN_BITS;
        nodes += in;
    }
    t->levels = l;
    t->inputs[l] = in;
    t->value_base[l] = inputs;
    t->nodes = nodes;
    t->all_inputs = inputs + 1;
}

/* The tree's arrays come in two allocations the launcher makes, of these
 * many elements: counts (counts and release, nodes + 1 each) and tagged
 * words (word_in, all_inputs). */
GPUMPI_HD static inline size_t gp_tree_counts_len(const gp_tree *t) { return 2 * ((size_t)t->nodes + 1); }
GPUMPI_HD static inline size_t gp_tree_tagged_len(const gp_tree *t) { return (size_t)t->all_inputs; }
GPUMPI_HD static inline void gp_tree_carve(gp_tree *t, uint32_t *counts, gp_tagged *tagged)
{
    t->counts = counts;
    t->release = counts + t->nodes + 1;
    t->word_in = tagged;
}

/* MPI_Bcast and MPI_Reduce of up to GP_TREE_BYTES over the world, without
 * making every rank wait for every other (shm_rooted.cu): up to
 * GP_ROOTED_SLOTS such calls are in flight at once, call k in slot
 * k % GP_ROOTED_SLOTS of a ring. Ranks count in up a tree over the ranks
 * themselves (fan-in GP_TREE_FANIN, one per slot): a broadcast's readers
 * once they have the data, a reduction's ranks with their values, which
 * combine at each node in a fixed pairing. */
#define GP_ROOTED_SLOTS 4
typedef struct gp_rooted_slot {
    uint32_t tag;  /* call number + 1 of the data here: a broadcast's, a reduction's result,
                    * or where a gather's or scatter's root has its buffer */
    uint32_t uses; /* calls through this slot that every rank is done with: call k may take
                    * it once uses == k / GP_ROOTED_SLOTS (modulo 2^30: gp_rooted_use) */
    uint32_t done; /* call number + 1 once every rank of a gather or scatter has counted in */
    uint32_t pad;  /* data 8-byte aligned */
    uint64_t data[GP_TREE_BYTES / 8];
} gp_rooted_slot;

typedef struct gp_rooted {
    gp_tree shape;          /* the tree over the ranks: its levels, inputs and bases (gp_tree_layout) */
    uint32_t *counts;       /* arrivals: (shape.nodes + 1) x GP_ROOTED_SLOTS, node by node */
    uint64_t *values;       /* inputs' values: GP_ROOTED_SLOTS x GP_TREE_BYTES / 8 words x
                             * shape.all_inputs, word by word (a warp's ranks write one line) */
    gp_rooted_slot *slots;  /* GP_ROOTED_SLOTS */
} gp_rooted;

/* Its shape for n ranks and the lengths of its arrays, which the launcher allocates zero-filled. */
GPUMPI_HD static inline void gp_rooted_layout(gp_rooted *r, int n) { gp_tree_layout(&r->shape, n); }
GPUMPI_HD static inline size_t gp_rooted_counts_len(const gp_rooted *r)
{
    return (size_t)GP_ROOTED_SLOTS * ((size_t)r->shape.nodes + 1);
}
GPUMPI_HD static inline size_t gp_rooted_values_len(const gp_rooted *r)
{
    return (size_t)GP_ROOTED_SLOTS * (GP_TREE_BYTES / 8) * (size_t)r->shape.all_inputs;
}

enum gp_slot_state {
    GP_SLOT_FREE = 0,   /* the sender may fill it */
    GP_SLOT_QUEUED = 1, /* in the receiver's unexpected queue */
    /* received, but the waiting sender (rendezvous or synchronous) has yet
     * to see it: the slot is not free until the sender has looked, or a
     * send made meanwhile could take it and the first would never see its
     * completion */
    GP_SLOT_RECEIVED = 2,
};

/* Laid out for the receiver of an eager message: what it reads of the
 * envelope, and the first 8 payload bytes, are its first 32 bytes (one
 * sector of a cache line: a GPU's L1 fetches and misses by sector, and the
 * inbox's acquire empties L1, so every sector read is a trip to L2). So a
 * message of up to 8 bytes is one trip. The context shares its word with
 * the two flags a receiver needs (gp_msg_ctx, GP_MSG_*). */
#define GP_CTX_BITS 24
#define GP_MSG_ON_HEAP (1u << 30)      /* an overflow envelope (all slots were busy), not a slot */
#define GP_MSG_SENDER_WAITS (1u << 31) /* the sender waits for state RECEIVED (rendezvous,
                                        * synchronous mode); else the receiver frees the
                                        * envelope (an overflow one) or hands the slot back */
typedef struct gp_msg {
    struct gp_msg *next;
    int src;            /* world rank of the sender */
    int tag;
    uint32_t ctx_flags; /* communicator context (point-to-point or collective) | GP_MSG_* */
    uint32_t bytes;
    uint64_t payload[GP_EAGER_BYTES / 8]; /* an eager message's bytes, from byte 24 */
    uint32_t state;     /* gp_slot_state; the receiver frees it, which also
                         * tells a rendezvous sender its buffer is free */
    uint32_t seq;       /* arrival number at the receiver (gp_rank.arrived) */
    /* only for messages larger than GP_EAGER_BYTES: */
    const void *data;   /* the sender's buffer, or a staging copy */
    void *staged;       /* heap copy to free after delivery, or NULL */
    gp_inbox landed;    /* a landed message this one displaced from the inbox
                         * (GP_MSG_LANDED, landing.h); 256 bytes in all:
                         * slots stay sector-aligned */
} gp_msg;
#define gp_msg_ctx(m) ((int)((m)->ctx_flags & ((1u << GP_CTX_BITS) - 1)))

/* A rank's line buffer for one standard stream. */
typedef struct gp_line_buf {
    uint32_t len;
    char line[GP_LINE_BYTES];
} gp_line_buf;

/* Aligned to a GPU cache line (128 bytes): the fields every call reads
 * then share one line in every rank's entry, not only in those whose
 * offset in the array happens to be right. */
typedef struct __attribute__((aligned(128))) gp_rank {
    uint32_t arrived;   /* messages moved here from the inbox so far: the next one's seq */
    struct gp_msg *free_later; /* a received slot not yet handed back (GP_RF_FREE_LATER, p2p.cu) */
    int init_state;     /* 0 before MPI_Init, 1 inside, 2 after MPI_Finalize */
    struct gp_req *reqs;/* this rank's requests (requests.cu); handle = index + 1 */
    int nreqs, cap_reqs;
    int req_free;       /* the most recently freed request handle (requests.cu), 0 = none */
    int posted_head;    /* posted receives in the order posted: request handles, 0 = none */
    int posted_tail;
    /* nonblocking collectives and matched probes (issue 9 part A) */
    int coll_head;      /* collective requests in flight, newest first: handles, 0 = none (coll_nonblocking.cu) */
    void *sched_spare;  /* schedules of finished nonblocking collectives, kept for the next ones */
    void *messages;     /* messages taken by MPI_Mprobe/MPI_Improbe, not yet received (mprobe.cu) */
    void *part_inits;   /* partitioned init calls so far, by context, peer and tag (partitioned.cu) */
    void *comm_state;   /* this rank's communicators, groups, keyvals, error handlers (comm.cu) */
    void *type_state;   /* this rank's derived datatypes and user ops (datatypes.cu) */
    /* unexpected messages, in arrival order within each of GP_UQ_BUCKETS
     * lists picked by source (the rank's own: match.h);
     * after the fields every call reads, which then share a cache line */
    gp_msg *uq_head[GP_UQ_BUCKETS];
    gp_msg *uq_tail[GP_UQ_BUCKETS];
    /* where the last MPI_ANY_SOURCE search of (uq_hint_tag, uq_hint_ctx)
     * may go on in each list (gp_uq_take_any): the last message it
     * passed over there, NULL: the head; valid while uq_removed, which
     * every unlink counts, is still uq_hint_removed */
    gp_msg *uq_hint[GP_UQ_BUCKETS];
    int uq_hint_tag, uq_hint_ctx;
    uint32_t uq_removed, uq_hint_removed;
    void *bsend_buf;    /* MPI_Buffer_attach */
    int bsend_size;
    gp_rank_heap heap;
    void *private_arena;/* this rank's private memory (libc-shim/src/malloc_private.cu), or NULL */
    void *tables_arena; /* the runtime's tables of this rank, in its local memory (the same file), or NULL */
    int libc_errno;     /* errno (libc-shim): inline, it must work when malloc cannot */
    void *libc;         /* the rest of the C library's per-rank state, atexit handlers and open files
                         * included (libc-shim/src/libc_state.h),
                         * allocated on first use */
    gp_line_buf out[2]; /* stdout's and stderr's pending bytes (libc-shim/src/stdio.cu) */
    /* the MPI wait this rank is in, for the deadlock watchdog (watchdog.cu) */
    const char *block_fn; /* NULL: not waiting */
    int block_comm, block_peer, block_tag;
    uint64_t block_shown; /* the collective wait its record describes (watchdog.cu), 0: none */
    uint64_t block_t0;  /* when the wait began (--stats), or was first seen to be long; 0: not yet */
    /* this rank's operand of a one-word allreduce when its warp came in
     * apart (shm_collectives.cu): rare, so last, away from the fields
     * every message reads */
    uint64_t coll_word;
    /* the posted-receive queue's bookkeeping (runtime/src/posted.cu) */
    uint32_t posts;      /* receives posted so far: the next one's number */
    uint32_t posted_seen;/* arrivals before this have been offered to the indexed receives */
    int posted_new;      /* the first posted receive not yet matched against the unexpected messages, 0: none */
    void *posted_index;  /* the index of posted receives by source, made on first use */
    uint32_t sends_waiting; /* nonblocking sends whose receiver has yet to take them (requests.cu) */
    /* the landing's pad (landing.h): where a waiting receive takes a
     * message of 9 bytes to a few KiB, written before its landing is
     * published; the sender that claims the landing copies into land_buf
     * (the receive's buffer, or land_bounce for one in private memory)
     * and counts land_done, which only senders write (last: other ranks
     * write it), and land_seen counts the pad's messages taken (16 bits
     * each: the size below stays 1920 bytes) */
    uint16_t land_cap;
    uint16_t land_seen;
    void *land_bounce;
    void *land_buf;
    uint32_t land_done;
} gp_rank;
/* Not a power of two: a stride of 2048 bytes put every rank's entry in the
 * same L2 sets, and heat and cg ran 5-13% slower for it (session 28). */
#ifdef __cplusplus
static_assert((sizeof(gp_rank) & (sizeof(gp_rank) - 1)) != 0, "gp_rank's size is a power of two: pad or trim it");
#else
_Static_assert((sizeof(gp_rank) & (sizeof(gp_rank) - 1)) != 0, "gp_rank's size is a power of two: pad or trim it");
#endif

/* What a rank blocked in MPI waits for, in memory the launcher reads while
 * the ranks run (mapped pinned memory on the GPU). A rank writes it only
 * once a wait has lasted a while, so quick waits cost nothing; the
 * launcher's watchdog reports a deadlock when every live rank has been
 * blocked with nothing moving for --timeout seconds. */
enum { GP_REC_RUNNING = 0, GP_REC_BLOCKED = 1, GP_REC_EXITED = 2 };
#define GP_BLOCK_NONE (-1000) /* no peer or tag (collectives) */
typedef struct gp_block_rec {
    uint32_t state;    /* GP_REC_* */
    uint32_t progress; /* moves when a message reaches the blocked rank, or it publishes again */
    int32_t comm;      /* communicator handle as the program sees it */
    int32_t peer;      /* world rank; -2 (MPI_ANY_SOURCE); GP_BLOCK_NONE */
    int32_t tag;       /* -1 (MPI_ANY_TAG); GP_BLOCK_NONE */
    int32_t code;      /* GP_REC_EXITED: the exit status */
    char fn[64];       /* the MPI call (and the collective in flight it waits for) */
} gp_block_rec;

/* --stats: what each rank did, kept by the rank, read at exit. */
typedef struct gp_rank_stats {
    uint64_t sent, recvd;             /* messages */
    uint64_t bytes_sent, bytes_recvd;
    uint64_t wait_ns;                 /* time inside blocking MPI calls (send, receive, wait, collectives) */
    uint64_t calls;                   /* blocking MPI calls */
    uint64_t regroups;                /* times its warp's lanes went on in step after a call (warp_regroup.cu) */
    uint64_t regroup_misses;          /* times it waited for them in vain */
    uint64_t regroup_cut;             /* times it stopped waiting for one that waited for it */
    uint64_t regroup_ns;              /* time it waited for them */
} gp_rank_stats;

enum gp_host_op {
    /* one-way: the host frees the cell */
    GP_HOST_WRITE = 1, /* arg = fd (1 or 2); data = bytes */
    GP_HOST_ABORT = 2, /* arg = exit status; data = the reason, a line: ends the job */
    GP_HOST_WRITE_PACKED = 3, /* data = the writes of several ranks of a warp, each a gp_packed_write + bytes,
                               * 8-byte aligned */
    /* request/reply (gp_host_rpc): the host answers in the call's own cells */
    GP_HOST_OPEN = 16, /* data = path, NUL, fopen mode, NUL -> ret = handle */
    GP_HOST_CLOSE,     /* arg = handle */
    GP_HOST_READ,      /* arg = handle, arg2 = most bytes -> reply data; ret = bytes */
    GP_HOST_FWRITE,    /* arg = handle, data = bytes -> ret = bytes written */
    GP_HOST_SEEK,      /* arg = handle, arg2 = offset, data[0] = whence -> ret = new offset */
    GP_HOST_REMOVE,    /* data = path, NUL */
    GP_HOST_RENAME,    /* data = old path, NUL, new path, NUL */
    GP_HOST_TMPFILE,   /* -> ret = handle */
    GP_HOST_ACCESS,    /* arg = access()'s mode, data = path, NUL */
    GP_HOST_MKDIR,     /* arg = mode, data = path, NUL */
    GP_HOST_RMDIR,     /* data = path, NUL */
    GP_HOST_UNLINK,    /* data = path, NUL */
    GP_HOST_SYSCONF,   /* data = sysconf() names, int32 each -> reply the values, int64 each */
    GP_HOST_TZ,        /* arg = a time_t -> reply = the UTC offset then (int64, s), isdst (a byte), zone, NUL */
    GP_HOST_SYSTEM,    /* data = command, NUL -> ret = wait status, once the command has ended */
    GP_HOST_POPEN,     /* arg = 'r' or 'w', data = command, NUL -> ret = handle of the pipe's end */
    GP_HOST_PCLOSE,    /* arg = handle -> ret = wait status, once the command has ended */
};

/* One rank's write in a GP_HOST_WRITE_PACKED cell; its bytes follow. */
typedef struct gp_packed_write {
    int32_t rank;
    uint16_t fd;
    uint16_t len;
} gp_packed_write;

/* One host call. seq is the handshake: a producer with ticket t owns the cell
 * when seq == t and publishes it by setting seq = t + 1; the host frees it for
 * ticket t + GP_HOST_CELLS, or, for a request/reply call, answers by setting
 * the call's first cell to t + 2 and the caller frees its cells. */
typedef struct gp_host_cell {
    uint64_t seq;
    int32_t rank;
    int16_t op;
    uint16_t ncells;   /* cells this call holds (in its first cell) */
    uint32_t len;      /* bytes in data; in a reply's first cell: reply bytes in all */
    int32_t err;       /* reply: errno, 0 on success */
    int64_t arg, arg2;
    int64_t ret;       /* reply: the result */
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
    gp_inbox *inbox;         /* nranks entries: the newest envelope sent to each rank
                              * and not yet taken (a stack; match.h), or a landing (landing.h) */
    uint64_t host_ticket;    /* next host-call ticket */
    gp_host_cell *host_cells;/* GP_HOST_CELLS cells, device view of pinned memory */
    uint64_t t0_ns;          /* MPI_Wtime origin */
    char *globals;           /* per-rank copies of the program's globals: */
    size_t globals_stride;   /* rank r's block starts at globals + r * stride */
    int globals_private;     /* 1: each rank fills its own block in its private memory from
                              * global_slots instead (globals.cu), and globals is NULL */
    int nglobal_slots;
    const struct gp_global_slot *global_slots;
    size_t private_bytes;    /* each rank's private memory (--private); 0: none */
    gp_heap heap;            /* the launcher sets base and size (--heap) */
    gp_tree tree;            /* MPI_COMM_WORLD's combining tree; the launcher allocates it */
    gp_rooted rooted;        /* broadcasts and reductions over the world (shm_rooted.cu); the launcher too */
    gp_copy_job *copy_jobs;  /* GP_COPY_JOBS entries; NULL: no copy service */
    uint32_t ranks_done;     /* this process's ranks that have returned (its copy service stops at all) */
    char processor_name[256];
    uint32_t *ctx_counter;   /* context ids handed out so far (comm.cu): one zeroed word for the whole job */
    uint64_t realtime0_ns;   /* CLOCK_REALTIME at t0_ns: time(), gettimeofday() */
    uint64_t monotonic0_ns;  /* the launcher's CLOCK_MONOTONIC at t0_ns */
    gp_block_rec *block_recs;/* nranks entries the launcher reads (device view of pinned memory) */
    gp_rank_stats *stats;    /* nranks entries with --stats, else NULL */
    /* Several launcher processes (the threads backend under mpiexec,
     * launcher/launcher_procs.c): each runs proc_ranks consecutive world
     * ranks and serves their host calls from a ring of its own, process
     * p's GP_HOST_CELLS cells from host_cells + p * GP_HOST_CELLS, its
     * ticket proc_tickets[p * 8] (a cache line each). 0: one process, whose
     * ring is host_cells and host_ticket (the CUDA backend, always). */
    int proc_ranks;
    uint64_t *proc_tickets;
} gp_world;

#if defined(GPUMPI_CUDA) || defined(GPUMPI_THREADS)
extern GPUMPI_CONST_VAR gp_world *gp_world_ptr;
/* The world's fields every message reads, again in constant memory (set
 * at launch, never changed while the ranks run): a device-scope acquire
 * empties L1, so reading them from the world cost a trip to L2 each time
 * after one (on an H100: MPI_Send 5.4 -> 4.9 us, MPI_Recv 6.5 -> 6.2 us per
 * call when the stats pointer alone moved here). */
typedef struct gp_world_hot {
    /* The arrays by world rank, as this process's ranks index them: with
     * several GPUs each launcher process's ranks' part is in its own GPU's
     * arena piece (a rank polls its inbox and keeps its slots on its own
     * GPU), so &ranks[r] is right for this process's ranks only, and
     * gp_rank_of/gp_inbox_of find any rank's (runtime.h). */
    gp_rank *ranks;
    gp_msg *slots;
    gp_inbox *inbox;
    gp_rank_stats *stats; /* NULL without --stats */
    int nranks;
    /* gp_world.rooted's arrays: a broadcast's or reduction's every rank
     * reaches them (shm_rooted.h) */
    uint32_t rooted_plane;
    gp_rooted_slot *rooted_slots;
    uint32_t *rooted_counts;
    uint64_t *rooted_values;
    /* how long a lane waits for its warp to regroup after a blocking call
     * (warp_regroup.cu), in SM clock cycles; 0: lanes never wait */
    uint32_t regroup_cycles;
    /* With several GPUs: the processes' parts of the arrays above sit at
     * one offset in each piece, the pieces proc_stride bytes apart from
     * arena on, proc_ranks ranks a process; this process is proc. 0
     * alone (the arrays are whole). */
    size_t proc_stride;
    int proc_ranks, proc;
    const char *arena;
} gp_world_hot;
extern GPUMPI_CONST_VAR gp_world_hot gp_hot;

/* The part of a rank's own state that its MPI calls read on every call,
 * kept on chip: in the block's dynamic shared memory after the per-thread
 * globals pointers (launcher), thread-local on the threads backend. In the
 * rank's gp_rank each costs a load from L2, or from DRAM at full occupancy
 * (270,336 ranks' gp_rank do not fit in L2), per call and rank; and a
 * device-scope acquire empties L1, so even a rank's recent reads of its
 * gp_rank go back to L2. Each rank touches only its own. */
enum {
    GP_RF_INIT = 1,       /* inside MPI_Init..MPI_Finalize (gp_rank.init_state == 1): MPI_COMM_WORLD usable */
    GP_RF_POSTED = 2,     /* receives are posted (gp_rank.posted_head != 0) */
    GP_RF_COLL = 4,       /* nonblocking collectives are in flight (gp_rank.coll_head != 0) */
    GP_RF_PUBLISHED = 8,  /* the watchdog record says "blocked" (watchdog.cu) */
    GP_RF_FREE_LATER = 16,/* gp_rank.free_later holds a slot to hand back (p2p.cu) */
    GP_RF_SETTLED = 32,   /* the last progress pass left nothing to do but wait for arrivals (requests.cu) */
    GP_RF_SESSION = 64,   /* MPI sessions are open on this rank (session.cu): MPI usable without MPI_Init */
};
typedef struct gp_rank_chip {
    uint8_t flags;     /* GP_RF_* */
    uint8_t next_slot; /* where the rank's next send starts looking for a free slot */
    uint8_t regroup_fails;  /* regroups in a row that timed out (warp_regroup.cu) */
    uint8_t regroup_work;   /* log2 of the SM cycles between its blocking calls, the longest lately: its own work */
    uint16_t regroup_skip;  /* blocking calls to end without regrouping */
    uint32_t regroup_calls; /* blocking calls ended so far: where the rank is */
    uint32_t regroup_t0;    /* when the current blocking call began, or the last one ended (SM clock, low bits) */
    int32_t regroup_wants;  /* the world rank a blocking call waits for now, or -1 */
    uint32_t regroup_sent;  /* the lanes of its warp it sent to since it last went on in step with them */
    /* rooted collectives over the world so far, modulo 2^32 (shm_rooted.h):
     * every rank counts every broadcast, reduction, gather and scatter. In
     * gp_rank it was a trip to DRAM a rank a call at full occupancy; 32
     * bits keep this struct 7 words, so a warp's lanes reading the same
     * field hit 32 different banks */
    uint32_t rooted_calls;
} gp_rank_chip;
#if defined(GPUMPI_CUDA)
extern __shared__ char *gp_globals_bases[];
GPUMPI_FN static inline gp_rank_chip *gp_chip(void) { return (gp_rank_chip *)(gp_globals_bases + blockDim.x) + threadIdx.x; }
#else
extern __thread gp_rank_chip gp_threads_chip;
static inline gp_rank_chip *gp_chip(void) { return &gp_threads_chip; }
#endif
GPUMPI_FN static inline int gp_flag(int f) { return gp_chip()->flags & f; }
GPUMPI_FN static inline void gp_flag_set(int f, int on)
{
    gp_rank_chip *c = gp_chip();
    c->flags = on ? (uint8_t)(c->flags | f) : (uint8_t)(c->flags & ~f);
}
#endif

#endif
