/* <getopt.h> for converted code: GNU getopt with its state per rank. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_GETOPT_H_CUH
#define GPUMPI_GETOPT_H_CUH
#define optarg (*gp_optarg_location())
#define optind (*gp_optind_location())
#define opterr (*gp_opterr_location())
#define optopt (*gp_optopt_location())
#define getopt gp_getopt
#define getopt_long gp_getopt_long
#define getopt_long_only gp_getopt_long_only
#endif
