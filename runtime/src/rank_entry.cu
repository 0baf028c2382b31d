/* What every rank runs: the user's main, then its exit is recorded. The
 * CUDA kernel and the threads backend's thread function both call this. */
#include "runtime.h"
#include "gpumpi/launch.h"
#include "gpumpi/shim_stdio.h"
#include "gpumpi/shim_process.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

/* The converter renames the user's main and emits this entry point. */
GPUMPI_FN int __gpumpi_main(int argc, char **argv);

/* For main(int argc, char **argv, char **envp). */
GPUMPI_FN char **gp_environ(void) { return gp_w()->envp; }

GPUMPI_FN void gp_rank_finish(int code)
{
    gp_world *w = gp_w();
    int r = gp_thread_rank();
    gp_exit_cleanup(); /* atexit handlers, open files, stdout */
    gp_hand_back(); /* a received slot its sender may still wait for */
    if (w->block_recs) { /* the watchdog counts this rank out */
        gp_block_rec *rec = &w->block_recs[r];
        rec->code = code;
        gp_sys_store_release64((uint64_t *)&rec->state, GP_REC_EXITED);
    }
    w->exit_codes[r] = code;
    gp_store_release(&w->exited[r], 1);
    gp_fetch_add(&w->ranks_done, 1);
    gp_regroup_rank_exit(); /* its warp's regroups stop waiting for it */
}

/* Each rank gets its own argv, array and strings, in one block: getopt
 * permutes the array, and C lets a program write into the strings
 * (strtok on argv[1], say); ranks sharing them would see each other's
 * changes. Shared only if the heap cannot hold the copy. */
GPUMPI_FN static char **gp_rank_argv(gp_world *w)
{
    size_t bytes = sizeof(char *) * (size_t)(w->argc + 1);
    for (int i = 0; i < w->argc; i++) bytes += gp_strlen(w->argv[i]) + 1;
    char **v = (char **)gp_malloc(bytes);
    if (!v) return w->argv;
    char *text = (char *)(v + w->argc + 1);
    for (int i = 0; i < w->argc; i++) {
        size_t n = gp_strlen(w->argv[i]) + 1;
        gp_memcpy(text, w->argv[i], n);
        v[i] = text;
        text += n;
    }
    v[w->argc] = 0;
    return v;
}

extern "C" GPUMPI_FN void gp_rank_run(void)
{
    gp_world *w = gp_w();
    int code = __gpumpi_main(w->argc, gp_rank_argv(w));
    gp_rank_finish(code);
}
