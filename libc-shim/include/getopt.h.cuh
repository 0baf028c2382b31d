/* <getopt.h> for converted code: GNU getopt with its state per rank. The
 * converter writes each use of optarg, optind, opterr and optopt as the
 * rank's own ((*gp_optarg_location()), rewrite_globals.c): macros of those
 * names here broke struct members and parameters called optarg. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_GETOPT_H_CUH
#define GPUMPI_GETOPT_H_CUH
#define getopt gp_getopt
#define getopt_long gp_getopt_long
#define getopt_long_only gp_getopt_long_only
#endif
