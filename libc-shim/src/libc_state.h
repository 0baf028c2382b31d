/* A rank's own C library state (gp_rank.libc), made on first use:
 * atexit handlers and the files it has open. */
#ifndef GPUMPI_LIBC_STATE_H
#define GPUMPI_LIBC_STATE_H

#include "gpumpi/shim_stdio.h"

#define GP_ATEXIT_MAX 32 /* C guarantees at least 32 */

typedef struct gp_libc_state {
    void (*atexit_fns[GP_ATEXIT_MAX])(void);
    int natexit;
    int exiting;     /* cleanup has begun: it runs once */
    gp_FILE *files;  /* open files, newest first */
} gp_libc_state;

/* This rank's state; NULL only when the heap is exhausted. */
GPUMPI_FN gp_libc_state *gp_libc(void);
/* Flushes and closes every file this rank has open (stdio_file.cu). */
GPUMPI_FN void gp_close_all_files(gp_libc_state *s);

#endif
