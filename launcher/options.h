/* Run-time options: everything after "---gpumpi" on the command line, with
 * defaults from GPUMPI_* environment variables. */
#ifndef GPUMPI_OPTIONS_H
#define GPUMPI_OPTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_PRIVATE_AUTO ((size_t)-1)
#define GP_DEFAULT_REGROUP_US 20000.0

typedef struct gp_options {
    int nranks;        /* -n: ranks; 0 = from -g x -b */
    int grid;          /* -g: blocks; 0 = launcher's choice */
    int block;         /* -b: threads per block; 0 = launcher's choice */
    int device;        /* --device: CUDA device number */
    size_t stack;      /* --stack: bytes per rank; 0: the build's figure or the default */
    size_t heap;       /* --heap: heap bytes; 0: the backend picks */
    size_t private_bytes; /* --private: each rank's private memory; 0: none; GP_PRIVATE_AUTO (the default): the backend picks */
    double timeout;    /* --timeout: seconds of all-ranks-blocked before the watchdog ends the job; 0: off */
    double time_limit; /* --time-limit (MPIEXEC_TIMEOUT): seconds the whole job may run; 0: no limit */
    double regroup_us; /* --regroup: longest a warp's lanes wait for each other after a blocking call; 0: never */
    int stats;         /* --stats: per-rank message statistics at exit */
    int tag_output;    /* --tag-output: "[rank]" before every line of output */
    int verbose;       /* -v */
    int service_thread;/* --service-thread: GPU: host calls served from a thread of their own */
    int app_argc;      /* the program's own arguments, argv[0] included */
    char **app_argv;
} gp_options;

/* Fills o from the GPUMPI_* environment and argv; on --help prints usage and
 * exits 0, on a bad option or variable prints what is wrong and the usage
 * and exits 2. */
void gp_parse_options(int argc, char **argv, gp_options *o);

/* The stack per rank when --stack is not given (main.c). */
size_t gp_build_stack_bytes(int verbose);

/* Settle nranks, grid and block: -n alone picks the block shape. */
void gp_shape_ranks(gp_options *o, int default_block);

#ifdef __cplusplus
}
#endif

#endif
