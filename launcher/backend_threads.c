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
#include "host_service.h"
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
    gp_threads_rank = (int)(intptr_t)arg;
    if (alt_stacks) {
        stack_t alt;
        alt.ss_sp = alt_stacks + (size_t)gp_threads_rank * GP_ALT_STACK;
        alt.ss_size = GP_ALT_STACK;
        alt.ss_flags = 0;
        sigaltstack(&alt, NULL);
    }
    size_t pb = gp_world_ptr->private_bytes;
    char tables[GP_TABLES_BYTES] __attribute__((aligned(16))); /* lives until the rank returns */
    gp_private_init(pb ? private_arenas + (size_t)gp_threads_rank * pb : NULL, pb, tables, sizeof tables);
    gp_threads_globals_base = gp_rank_globals();
    gp_rank_run();
    return NULL;
}

static void *zalloc(size_t bytes);

/* Each rank's copy of the globals, filled from the templates: here, or
 * by each rank in its private memory. */
static void setup_globals(gp_world *w, int verbose)
{
    int n;
    const gp_global_desc *g = gp_registered_globals(&n);
    size_t *off = zalloc(sizeof(size_t) * (size_t)(n + 1));
    gp_global_slot *slots = zalloc(sizeof(gp_global_slot) * (size_t)(n + 1));
    w->globals_stride = gp_globals_layout(off);
    for (int i = 0; i < n; i++) {
        *(size_t *)g[i].offset = off[i];
        slots[i] = (gp_global_slot){(const char *)g[i].tmpl, off[i], g[i].size, g[i].relocate};
    }
    free(off);
    w->globals_private = gp_globals_go_private(w->globals_stride, w->private_bytes, verbose);
    if (w->globals_private) {
        w->global_slots = slots;
        w->nglobal_slots = n;
        return;
    }
    w->globals = zalloc(w->globals_stride * (size_t)w->nranks);
    for (int r = 0; r < w->nranks; r++) gp_globals_init_rank(slots, n, w->globals + (size_t)r * w->globals_stride);
    free(slots);
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
    char *blob = zalloc(gp_argv_pack(n, v, NULL, 0));
    gp_argv_pack(n, v, blob, (uintptr_t)blob);
    return (char **)blob;
}

int gp_backend_run(gp_options *o, int **codes_out, gp_rank_stats **stats_out)
{
    gp_shape_ranks(o, 128);
    int n = o->nranks;
    gp_world *w = zalloc(sizeof *w);
    w->nranks = n;
    w->argc = o->app_argc;
    if (gethostname(w->processor_name, sizeof w->processor_name - 1) != 0) strcpy(w->processor_name, "localhost");
    int envc = 0;
    while (environ[envc]) envc++;
    w->argv = strings_blob(o->app_argc, o->app_argv);
    w->envp = strings_blob(envc, environ);
    w->ranks = zalloc(sizeof(gp_rank) * n);
    w->slots = zalloc(sizeof(gp_msg) * GP_SLOTS_PER_RANK * (size_t)n);
    /* as on the GPU, where it is most of the free memory: by default half
     * the machine's memory (at least 4g), reserved, not committed: only
     * the pages ranks touch cost anything */
    if (!o->heap) {
        size_t half = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE) / 2;
        o->heap = half > ((size_t)4 << 30) ? half : (size_t)4 << 30;
    }
    w->heap.base = mmap(NULL, o->heap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (w->heap.base == MAP_FAILED) w->heap.base = NULL;
    w->heap.size = o->heap;
    if (!w->heap.base) {
        fprintf(stderr, "gpumpi: cannot reserve the %llu-byte heap (--heap)\n", (unsigned long long)o->heap);
        exit(1);
    }
    w->exit_codes = zalloc(sizeof(int) * n);
    w->exited = zalloc(sizeof(uint32_t) * n);
    w->inbox = zalloc(sizeof(gp_inbox) * n);
    gp_tree_layout(&w->tree, n); /* a block is one rank here */
    w->tree.values = zalloc((size_t)w->tree.all_inputs * GP_TREE_BYTES);
    gp_tree_carve(&w->tree, zalloc(sizeof(uint32_t) * gp_tree_counts_len(&w->tree)),
                  zalloc(sizeof(gp_tagged) * gp_tree_tagged_len(&w->tree)));
    gp_rooted_layout(&w->rooted, n);
    w->rooted.counts = zalloc(sizeof(uint32_t) * gp_rooted_counts_len(&w->rooted));
    w->rooted.values = zalloc(sizeof(uint64_t) * gp_rooted_values_len(&w->rooted));
    w->rooted.slots = zalloc(sizeof(gp_rooted_slot) * GP_ROOTED_SLOTS);
    w->host_cells = zalloc(sizeof(gp_host_cell) * GP_HOST_CELLS);
    gp_host_service_init(w->host_cells, n, o->tag_output);
    w->block_recs = zalloc(sizeof(gp_block_rec) * (size_t)n);
    gp_watchdog_init(w->block_recs, n, o->timeout, o->time_limit);
    if (o->stats) w->stats = zalloc(sizeof(gp_rank_stats) * (size_t)n);
    struct timespec ts, rt;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    clock_gettime(CLOCK_REALTIME, &rt);
    w->t0_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    w->monotonic0_ns = w->t0_ns; /* the ranks' clock is this one */
    w->realtime0_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
    gp_threads_rank = -1; /* this thread is the launcher's, not a rank */
    catch_faults();
    alt_stacks = mmap(NULL, (size_t)n * GP_ALT_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                      -1, 0); /* pages appear only where a fault uses them */
    if (alt_stacks == MAP_FAILED) alt_stacks = NULL;
    int automatic = o->private_bytes == GP_PRIVATE_AUTO;
    w->private_bytes = automatic ? GP_THREADS_PRIVATE : o->private_bytes;
    if (w->private_bytes) {
        private_arenas = mmap(NULL, (size_t)n * w->private_bytes, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (private_arenas == MAP_FAILED && automatic) { /* the default: run without, as on a GPU with no room */
            private_arenas = NULL;
            w->private_bytes = 0;
        } else if (private_arenas == MAP_FAILED) {
            fprintf(stderr, "gpumpi: cannot reserve %zu bytes of private memory for each of %d ranks (--private): %s\n",
                    w->private_bytes, n, strerror(errno));
            exit(1);
        }
    }
    if (o->verbose) {
        gp_report_rank_memory(o->stack < (1u << 20) ? (size_t)1 << 20 : o->stack, w->private_bytes,
                              "host memory that MPI treats as the GPU's local memory");
        fprintf(stderr, "gpumpi: shared heap %zu bytes (--heap)\n", o->heap);
    }
    setup_globals(w, o->verbose);
    gp_world_ptr = w;
    gp_hot.ranks = w->ranks;
    gp_hot.slots = w->slots;
    gp_hot.inbox = w->inbox;
    gp_hot.stats = w->stats;
    gp_hot.nranks = w->nranks;
    gp_hot.rooted_plane = w->rooted.shape.all_inputs;
    gp_hot.rooted_slots = w->rooted.slots;
    gp_hot.rooted_counts = w->rooted.counts;
    gp_hot.rooted_values = w->rooted.values;

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, o->stack < (1u << 20) ? (1u << 20) : o->stack);
    pthread_t *threads = zalloc(sizeof(pthread_t) * n);
    for (int r = 0; r < n; r++) {
        int e = pthread_create(&threads[r], &attr, rank_thread, (void *)(intptr_t)r);
        if (e) {
            fprintf(stderr, "gpumpi: cannot start the thread for rank %d of %d: %s\n", r, n, strerror(e));
            exit(1);
        }
    }
    /* Serve host calls until every rank has returned. */
    for (;;) {
        int done = 1;
        for (int r = 0; r < n && done; r++) done = __atomic_load_n(&w->exited[r], __ATOMIC_ACQUIRE) != 0;
        int found = gp_host_service_poll();
        if (done) break;
        gp_watchdog_check();
        gp_host_service_idle(found);
    }
    for (int r = 0; r < n; r++) pthread_join(threads[r], NULL);
    free(threads);
    gp_host_service_poll();
    gp_host_service_flush(); /* what the last poll gathered */
    int *codes = zalloc(sizeof(int) * n);
    memcpy(codes, w->exit_codes, sizeof(int) * n);
    *codes_out = codes;
    *stats_out = w->stats;
    return 0;
}
