/* <unistd.h> for converted code: getopt (per-rank optarg/optind/opterr/
 * optopt), access, rmdir, unlink (through the launcher), sleep, usleep,
 * getpid, getppid, gethostname, sysconf and getpagesize (the host's
 * values). Other unistd
 * functions are build errors (gpumpi/unprovided.h). */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_UNISTD_H_CUH
#define GPUMPI_UNISTD_H_CUH
#include "getopt.h.cuh"
#define access gp_access
#define sleep gp_sleep
#define usleep gp_usleep
#define getpid gp_getpid
#define getppid gp_getppid
#define gethostname gp_gethostname
#define sysconf(name) gp_sysconf(name)
#define getpagesize() gp_getpagesize()
#define rmdir(path) gp_rmdir(path)
#define unlink(path) gp_unlink(path)
#endif
