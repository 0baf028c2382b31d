/* Ending a rank: exit, abort, assert, atexit; and getenv. A non-zero exit,
 * abort() and a failed assert end the whole job, as a failing process does
 * under mpirun: the rank's output and files are flushed, then the launcher
 * prints the reason (naming the rank) and exits with the status. exit(0)
 * ends only this rank, like returning 0 from main. */
#include "gpumpi/format.h"
#include "gpumpi/shim_process.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "libc_state.h"
#include "runtime.h"

GPUMPI_FN int gp_atexit(void (*fn)(void))
{
    gp_libc_state *s = gp_libc();
    if (!s || s->natexit == GP_ATEXIT_MAX) return -1;
    s->atexit_fns[s->natexit++] = fn;
    return 0;
}

GPUMPI_FN void gp_exit_cleanup(void)
{
    gp_libc_state *s = (gp_libc_state *)gp_self()->libc;
    if (s && !s->exiting) {
        s->exiting = 1;
        while (s->natexit > 0) s->atexit_fns[--s->natexit](); /* last registered first */
        gp_close_all_files(s);
    }
    gp_stdio_flush_rank();
}

/* Ends the job: the reason goes to stderr after everything sent before it. */
GPUMPI_FN static void gp_end_job(int status, const char *reason, int n)
{
    gp_host_call(GP_HOST_ABORT, status, reason, (size_t)n);
    for (;;) gp_end_this_rank(); /* the launcher ends the job */
}

GPUMPI_FN void gp_exit(int code)
{
    gp_exit_cleanup();
    if ((code & 255) != 0) {
        char msg[96];
        int n = gp_snprintf(msg, sizeof msg, "gpumpi: rank %d called exit(%d)\n", gp_thread_rank(), code);
        gp_end_job(code & 255, msg, n);
    }
    gp_rank_finish(0);
    for (;;) gp_end_this_rank();
}

GPUMPI_FN void gp_abort(void)
{
    gp_stdio_flush_rank(); /* abort() flushes nothing else, as in C */
    char msg[96];
    int n = gp_snprintf(msg, sizeof msg, "gpumpi: rank %d called abort() (status 134, as SIGABRT)\n", gp_thread_rank());
    gp_end_job(134, msg, n);
}

GPUMPI_FN void gp_assert_fail(const char *expr, const char *file, int line, const char *func)
{
    gp_stdio_flush_rank();
    if (func && (!gp_strcmp(func, "__gpumpi_user_main") || !gp_strcmp(func, "__gpumpi_main"))) func = "main"; /* the converter renames main */
    char msg[GP_HOST_CELL_BYTES];
    int n = gp_snprintf(msg, sizeof msg, "rank %d: %s:%d: %s: Assertion `%s' failed.\n", gp_thread_rank(), file, line,
                        func ? func : "?", expr);
    if (n >= (int)sizeof msg) {
        n = (int)sizeof msg - 1;
        msg[n - 1] = '\n';
    }
    gp_end_job(134, msg, n);
}

/* The launcher's environment, copied for the ranks at launch. */
GPUMPI_FN char *gp_getenv(const char *name)
{
    char **env = gp_w()->envp;
    size_t n = gp_strlen(name);
    if (!env || n == 0) return 0;
    for (; *env; env++)
        if (!gp_strncmp(*env, name, n) && (*env)[n] == '=') return *env + n + 1;
    return 0;
}
