/* The host-threads backend: one POSIX thread per rank running the same
 * converted code, runtime and libc-shim, for CI and for debugging a port
 * with gdb, valgrind or sanitizers. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "globals_layout.h"
#include "host_mpi.h"
#include "host_service.h"
#include "launcher_procs.h"
#include "shared_segment.h"
#include "watchdog.h"

/* Defined by the runtime (C++); globals in C++ are not name-mangled. */
extern gp_world *gp_world_ptr;
extern gp_world_hot gp_hot;
extern char **environ;
void gp_rank_run(void);
void gp_private_init(char *base, size_t bytes, char *tables, size_t tables_bytes);
char *gp_rank_globals(void);
__thread int gp_threads_rank;
__thread gp_rank_chip gp_threads_chip;
__thread char *gp_threads_globals_base;

/* This launcher process among the job's (launcher_procs.h): it runs world
 * ranks [first_rank, first_rank + local_ranks). */
static gp_procs procs = {0, 1};
static int first_rank, local_ranks;

/* A fault in a rank (the threads backend's "device fault") ends the job
 * like mpirun reports a process killed by a signal: the rank, the signal,
 * status 128 + signal. The handler runs on its own stack, so a rank that
 * overflowed its stack is reported too. */
static void fault(int sig)
{
    char msg[160];
    const char *what = sig == SIGSEGV ? "segmentation fault" : sig == SIGBUS ? "bus error"
                       : sig == SIGFPE ? "arithmetic exception" : sig == SIGILL ? "illegal instruction" : "fault";
    int n = gp_threads_rank >= 0
                ? snprintf(msg, sizeof msg, "gpumpi: rank %d: %s (signal %d); the job ends with status %d\n",
                           gp_threads_rank, what, sig, 128 + sig)
                : snprintf(msg, sizeof msg, "gpumpi: the launcher: %s (signal %d)\n", what, sig);
    if (write(2, msg, (size_t)n) < 0) {
    }
    if (procs.size > 1) gp_procs_end_job(128 + sig); /* the other launcher processes end too */
    _exit(128 + sig);
}

static void catch_faults(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fault;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
}

/* The fault handler's stacks, one per rank, made in one piece by the
 * launcher: a malloc in each new thread (a glibc arena each) made starting
 * 1000 ranks on 2 cores take seconds instead of 20 ms. */
#define GP_ALT_STACK (16u << 10)
static char *alt_stacks;
/* Each rank's private memory (--private), one piece for all; any thread
 * could reach it, but MPI treats it as the GPU's local memory
 * (gp_is_shared_memory), so the same paths run and are tested here. */
#define GP_THREADS_PRIVATE ((size_t)256 << 10)
static char *private_arenas;

static void *rank_thread(void *arg)
{
    int local = (int)(intptr_t)arg; /* among this process's ranks */
    gp_threads_rank = first_rank + local;
    if (alt_stacks) {
        stack_t alt;
        alt.ss_sp = alt_stacks + (size_t)local * GP_ALT_STACK;
        alt.ss_size = GP_ALT_STACK;
        alt.ss_flags = 0;
        sigaltstack(&alt, NULL);
    }
    size_t pb = gp_world_ptr->private_bytes;
    char tables[GP_TABLES_BYTES] __attribute__((aligned(16))); /* lives until the rank returns */
    gp_private_init(pb ? private_arenas + (size_t)local * pb : NULL, pb, tables, sizeof tables);
    gp_threads_globals_base = gp_rank_globals();
    gp_rank_run();
    return NULL;
}

static void *zalloc(size_t bytes);

/* Memory for what every rank may touch: with several launcher processes
 * in the shared segment, which a fresh memfd fills with zeros; else the
 * process's own. */
static void *salloc(size_t bytes, const char *what)
{
    return procs.size > 1 ? gp_segment_alloc(bytes, what) : zalloc(bytes);
}

/* Each rank's copy of the globals, filled from the templates: here, or
 * by each rank in its private memory. Every process sets the variables'
 * offsets; `build`: this process makes the blocks (process 0). */
static void setup_globals(gp_world *w, int build, int verbose)
{
    int n;
    const gp_global_desc *g = gp_registered_globals(&n);
    size_t *off = zalloc(sizeof(size_t) * (size_t)(n + 1));
    size_t stride = gp_globals_layout(off);
    for (int i = 0; i < n; i++) *(size_t *)g[i].offset = off[i];
    if (!build) {
        free(off);
        return;
    }
    gp_global_slot *slots = salloc(sizeof(gp_global_slot) * (size_t)(n + 1), "the globals' templates");
    w->globals_stride = stride;
    for (int i = 0; i < n; i++) slots[i] = (gp_global_slot){(const char *)g[i].tmpl, off[i], g[i].size, g[i].relocate};
    free(off);
    w->globals_private = gp_globals_go_private(w->globals_stride, w->private_bytes, verbose);
    if (w->globals_private) {
        w->global_slots = slots;
        w->nglobal_slots = n;
        return;
    }
    w->globals = salloc(w->globals_stride * (size_t)w->nranks, "the ranks' globals");
    for (int r = 0; r < w->nranks; r++) gp_globals_init_rank(slots, n, w->globals + (size_t)r * w->globals_stride);
    if (procs.size == 1) free(slots);
}

static void *zalloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "gpumpi: out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* argv or environ as one NULL-terminated blob the ranks read. */
static char **strings_blob(int n, char **v)
{
    char *blob = salloc(gp_argv_pack(n, v, NULL, 0), "the arguments");
    gp_argv_pack(n, v, blob, (uintptr_t)blob);
    return (char **)blob;
}

/* The heap's size: as on the GPU, where it is most of the free memory, by
 * default half the machine's memory (at least 4g), reserved, not
 * committed: only the pages ranks touch cost anything. */
static size_t heap_bytes(const gp_options *o)
{
    if (o->heap) return o->heap;
    size_t half = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE) / 2;
    return half > ((size_t)4 << 30) ? half : (size_t)4 << 30;
}

/* The shared segment of a job of several processes: the heap, and room
 * for the world's structures for n ranks (generous: untouched pages of a
 * memfd cost nothing). */
static size_t segment_bytes(const gp_options *o, int n)
{
    size_t stride = gp_globals_layout(NULL);
    size_t strings = gp_argv_pack(o->app_argc, o->app_argv, NULL, 0);
    for (char **e = environ; *e; e++) strings += strlen(*e) + 1 + sizeof(char *);
    size_t per_rank = sizeof(gp_rank) + sizeof(gp_msg) * GP_SLOTS_PER_RANK + stride + 16384;
    return ((size_t)64 << 20) + (size_t)n * per_rank + (size_t)procs.size * (sizeof(gp_host_cell) * GP_HOST_CELLS + 64) +
           2 * strings + heap_bytes(o) + 4096;
}

/* With several processes each one's ranks' gp_rank, slots and inbox are a
 * part of their own, the parts one stride apart, as on the GPU, where
 * each part is on its process's GPU (backend_cuda.cu): the runtime's
 * gp_rank_of and gp_inbox_of are then the same code here, tested without
 * a GPU. The part's pieces: ranks, slots, inboxes. */
static size_t part_piece(size_t bytes) { return (bytes + 255) & ~(size_t)255; }
static size_t rank_part_bytes(int local)
{
    return part_piece(sizeof(gp_rank) * (size_t)local) +
           part_piece(sizeof(gp_msg) * GP_SLOTS_PER_RANK * (size_t)local) + part_piece(sizeof(gp_inbox) * (size_t)local);
}

/* The world of n ranks, made by process 0 (or the one process). */
static gp_world *build_world(gp_options *o, int n)
{
    gp_world *w = salloc(sizeof *w, "the world");
    w->nranks = n;
    w->argc = o->app_argc;
    if (gethostname(w->processor_name, sizeof w->processor_name - 1) != 0) strcpy(w->processor_name, "localhost");
    int envc = 0;
    while (environ[envc]) envc++;
    w->argv = strings_blob(o->app_argc, o->app_argv);
    w->envp = strings_blob(envc, environ);
    /* process 0's part (the whole arrays with one process) */
    char *parts = salloc(rank_part_bytes(local_ranks) * (size_t)procs.size, "the ranks, their slots and inboxes");
    w->ranks = (gp_rank *)parts;
    w->slots = (gp_msg *)(parts + part_piece(sizeof(gp_rank) * (size_t)local_ranks));
    w->inbox = (gp_inbox *)((char *)w->slots + part_piece(sizeof(gp_msg) * GP_SLOTS_PER_RANK * (size_t)local_ranks));
    w->exit_codes = salloc(sizeof(int) * n, "exit codes");
    w->ctx_counter = salloc(sizeof(uint32_t), "the context ids");
    w->exited = salloc(sizeof(uint32_t) * n, "exit flags");
    gp_tree_layout(&w->tree, n); /* a block is one rank here */
    w->tree.values = salloc(((size_t)w->tree.all_inputs + 1) * GP_TREE_BYTES, "the combining tree");
    w->tree.result = (uint64_t *)(w->tree.values + (size_t)w->tree.all_inputs * GP_TREE_BYTES);
    gp_tree_carve(&w->tree, salloc(sizeof(uint32_t) * gp_tree_counts_len(&w->tree), "the combining tree"),
                  salloc(sizeof(gp_tagged) * gp_tree_tagged_len(&w->tree), "the combining tree"));
    gp_rooted_layout(&w->rooted, n);
    w->rooted.counts = salloc(sizeof(uint32_t) * gp_rooted_counts_len(&w->rooted), "the rooted tree");
    w->rooted.values = salloc(sizeof(uint64_t) * gp_rooted_values_len(&w->rooted), "the rooted tree");
    w->rooted.slots = salloc(sizeof(gp_rooted_slot) * GP_ROOTED_SLOTS, "the rooted tree");
    w->host_cells = salloc(sizeof(gp_host_cell) * GP_HOST_CELLS * (size_t)procs.size, "the host-call rings");
    if (procs.size > 1) {
        w->proc_ranks = local_ranks;
        w->proc_tickets = salloc(sizeof(uint64_t) * 8 * (size_t)procs.size, "the host-call tickets");
    }
    w->block_recs = salloc(sizeof(gp_block_rec) * (size_t)n, "the watchdog's records");
    if (o->stats) w->stats = salloc(sizeof(gp_rank_stats) * (size_t)n, "the statistics");
    struct timespec ts, rt;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    clock_gettime(CLOCK_REALTIME, &rt);
    w->t0_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    w->monotonic0_ns = w->t0_ns; /* the ranks' clock is this one */
    w->realtime0_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
    /* last: the rest of a shared segment is the heap */
    w->heap.size = heap_bytes(o);
    if (procs.size > 1) {
        w->heap.base = gp_segment_alloc(w->heap.size, "the heap (--heap)");
    } else {
        w->heap.base = mmap(NULL, w->heap.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (w->heap.base == MAP_FAILED) {
            fprintf(stderr, "gpumpi: cannot reserve the %llu-byte heap (--heap)\n", (unsigned long long)w->heap.size);
            exit(1);
        }
    }
    return w;
}

/* This process's ranks' private memory (--private), one piece for all;
 * process 0 decides its size for every process. */
static void reserve_private(gp_world *w, const gp_options *o, int decide)
{
    int automatic = o->private_bytes == GP_PRIVATE_AUTO;
    if (decide) w->private_bytes = automatic ? GP_THREADS_PRIVATE : o->private_bytes;
    if (!w->private_bytes) return;
    private_arenas = mmap(NULL, (size_t)local_ranks * w->private_bytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (private_arenas == MAP_FAILED && automatic && decide) { /* the default: run without, as on a GPU with no room */
        private_arenas = NULL;
        w->private_bytes = 0;
    } else if (private_arenas == MAP_FAILED) {
        fprintf(stderr, "gpumpi: cannot reserve %zu bytes of private memory for each of %d ranks (--private): %s\n",
                w->private_bytes, local_ranks, strerror(errno));
        exit(1);
    }
}

int gp_backend_run(gp_options *o, int **codes_out, gp_rank_stats **stats_out)
{
    gp_shape_ranks(o, 128);
    procs = gp_procs_start(o);
    local_ranks = o->nranks;
    first_rank = procs.rank * local_ranks;
    int n = local_ranks * procs.size, leader = procs.rank == 0;
    if (procs.size > 1) {
        char *base = gp_segment_open(segment_bytes(o, n), procs.rank);
        gp_threads_shared_lo = base;
        gp_threads_shared_hi = gp_segment_end();
        gp_end_job_exit = gp_procs_end_job;
        gp_host_service_whole_lines();
    }
    gp_world *w = leader ? build_world(o, n) : (gp_world *)gp_threads_shared_lo;
    gp_threads_rank = -1; /* this thread is the launcher's, not a rank */
    catch_faults();
    alt_stacks = mmap(NULL, (size_t)local_ranks * GP_ALT_STACK, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0); /* pages appear only where a fault uses them */
    if (alt_stacks == MAP_FAILED) alt_stacks = NULL;
    if (leader) {
        reserve_private(w, o, 1);
        if (o->verbose) {
            gp_report_rank_memory(o->stack < (1u << 20) ? (size_t)1 << 20 : o->stack, w->private_bytes,
                                  "host memory that MPI treats as the GPU's local memory");
            fprintf(stderr, "gpumpi: shared heap %llu bytes (--heap)\n", (unsigned long long)w->heap.size);
        }
    }
    setup_globals(w, leader, leader && o->verbose);
    if (procs.size > 1) gp_host_mpi_barrier(); /* process 0 has made the world */
    if (!leader) reserve_private(w, o, 0);
    gp_host_service_init(w->host_cells + (size_t)procs.rank * GP_HOST_CELLS, n, o->tag_output);
    /* the watchdog runs in process 0, over every rank of the job */
    gp_watchdog_init(w->block_recs, n, leader ? o->timeout : 0, leader ? o->time_limit : 0);
    gp_world_ptr = w;
    /* this process's part, as its ranks index it */
    size_t stride = rank_part_bytes(local_ranks), skip = stride * (size_t)procs.rank;
    gp_hot.ranks = (gp_rank *)((char *)w->ranks + skip) - first_rank;
    gp_hot.slots = (gp_msg *)((char *)w->slots + skip) - (size_t)first_rank * GP_SLOTS_PER_RANK;
    gp_hot.inbox = (gp_inbox *)((char *)w->inbox + skip) - first_rank;
    if (procs.size > 1) {
        gp_hot.proc_stride = stride;
        gp_hot.proc_ranks = local_ranks;
        gp_hot.proc = procs.rank;
        gp_hot.arena = (const char *)w->ranks;
    }
    gp_hot.stats = w->stats;
    gp_hot.nranks = w->nranks;
    gp_hot.rooted_plane = w->rooted.shape.all_inputs;
    gp_hot.rooted_slots = w->rooted.slots;
    gp_hot.rooted_counts = w->rooted.counts;
    gp_hot.rooted_values = w->rooted.values;

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, o->stack < (1u << 20) ? (1u << 20) : o->stack);
    pthread_t *threads = zalloc(sizeof(pthread_t) * local_ranks);
    for (int r = 0; r < local_ranks; r++) {
        int e = pthread_create(&threads[r], &attr, rank_thread, (void *)(intptr_t)r);
        if (e) {
            fprintf(stderr, "gpumpi: cannot start the thread for rank %d of %d: %s\n", first_rank + r, n, strerror(e));
            exit(1);
        }
    }
    /* Serve this process's host calls until every rank of the job has
     * returned (process 0's watchdog looks at all of them meanwhile). */
    for (;;) {
        int done = 1;
        for (int r = 0; r < n && done; r++) done = __atomic_load_n(&w->exited[r], __ATOMIC_ACQUIRE) != 0;
        int found = gp_host_service_poll();
        if (done) break;
        if (leader) gp_watchdog_check();
        gp_host_service_idle(found);
    }
    for (int r = 0; r < local_ranks; r++) pthread_join(threads[r], NULL);
    free(threads);
    gp_host_service_poll();
    gp_host_service_flush(); /* what the last poll gathered */
    int *codes = zalloc(sizeof(int) * n);
    memcpy(codes, w->exit_codes, sizeof(int) * n);
    *codes_out = codes;
    *stats_out = w->stats; /* main reports and frees it */
    if (procs.size > 1) { /* process 0 alone reports, from a copy of its own */
        *stats_out = NULL;
        if (w->stats && leader) {
            *stats_out = zalloc(sizeof(gp_rank_stats) * (size_t)n);
            memcpy(*stats_out, w->stats, sizeof(gp_rank_stats) * (size_t)n);
        }
    }
    if (procs.size > 1) {
        o->nranks = n; /* main judges the whole job, the same in every process */
        if (!leader) o->verbose = 0;
        gp_procs_finish();
    }
    return 0;
}
