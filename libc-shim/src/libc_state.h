/* A rank's own C library state (gp_rank.libc), made on first use: what
 * glibc keeps in static variables (strtok's position, rand's table,
 * getopt's cursor...), the atexit handlers and the files the rank has
 * open, so ranks never see each other's. errno sits in gp_rank itself
 * (world.h): it must work even when this block cannot be allocated. */
#ifndef GPUMPI_LIBC_STATE_H
#define GPUMPI_LIBC_STATE_H

#include "gpumpi/platform.h"
#include "gpumpi/shim_stdio.h"

#define GP_ATEXIT_MAX 32 /* C guarantees at least 32 */

typedef struct gp_libc_state {
    char *strtok_save;          /* strtok */
    /* rand: glibc's TYPE_3 additive generator, r[i] = r[i-31] + r[i-3] */
    int32_t rand_tbl[31];
    int rand_f, rand_r;         /* the two taps into rand_tbl */
    /* the drand48 family: X, a, c of X' = a X + c mod 2^48 */
    uint64_t x48, a48;
    uint16_t c48;
    unsigned short seed48_old[3]; /* what seed48 returns */
    /* getopt */
    char *optarg;
    int optind, opterr, optopt;
    char *opt_next;             /* the rest of a cluster like -abc, or NULL */
    int opt_first, opt_last;    /* non-options skipped so far: argv[first..last) */
    int opt_started;            /* set up by a first call (optind 0 starts over) */
    char strerror_buf[40];      /* "Unknown error N" */
    /* exit (exit.cu) and files (stdio_file.cu) */
    void (*atexit_fns[GP_ATEXIT_MAX])(void);
    int natexit;
    int exiting;                /* cleanup has begun: it runs once */
    gp_FILE *files;             /* open files, newest first */
    /* stdin of the ranks other than 0: always at end of file. Their own,
     * so that rank 0's reads, ungetc and EOF state are not theirs. */
    gp_FILE null_stdin;
    /* sysconf (sysconf.cu): the host's values, asked on first use */
    long sysconf_values[5];     /* GP_SYSCONF_NAMES */
    int sysconf_known;
    /* the calendar (calendar.cu): static results, and the host's time
     * zone for the hour of time last converted */
    struct tm tm_result;
    char asctime_buf[32];
    int64_t zone_hour;          /* the hour (time / 3600) zone_* are for; valid when zone_known */
    int zone_known;
    long zone_offset;           /* seconds east of UTC */
    int zone_isdst;
    char zone_name[16];
} gp_libc_state;

/* This rank's block; allocated and set up (rand as srand(1), optind 1...)
 * on the first call (libc_state.cu). */
GPUMPI_FN gp_libc_state *gp_libc(void);

/* errno of this rank (gpumpi/shim_errno.h has the public name). */
GPUMPI_FN int *gp_errno_location(void);

/* glibc's srand(seed) on a rank's table. */
GPUMPI_FN void gp_rand_seed(gp_libc_state *L, unsigned seed);

/* Flushes and closes every file this rank has open (stdio_file.cu). */
GPUMPI_FN void gp_close_all_files(gp_libc_state *s);

#endif
