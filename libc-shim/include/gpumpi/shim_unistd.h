/* unistd.h and getopt.h on the device: getopt with optarg/optind/opterr/
 * optopt per rank (getopt.cu), sleep, usleep, getpid, gethostname
 * (unistd.cu), sysconf, and the calls the launcher's host serves. */
#ifndef GPUMPI_SHIM_UNISTD_H
#define GPUMPI_SHIM_UNISTD_H

#include <getopt.h> /* struct option */
#include <sys/types.h>
#include "gpumpi/platform.h"

GPUMPI_FN char **gp_optarg_location(void);
GPUMPI_FN int *gp_optind_location(void);
GPUMPI_FN int *gp_opterr_location(void);
GPUMPI_FN int *gp_optopt_location(void);
/* GNU getopt: argv is permuted so that non-options come last (unless the
 * option string starts with '+'; POSIXLY_CORRECT is not consulted). argv
 * is the rank's own copy of the launcher's, so ranks never race on it. */
GPUMPI_FN int gp_getopt(int argc, char *const argv[], const char *optstring);
GPUMPI_FN int gp_getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                             int *longind);
GPUMPI_FN int gp_getopt_long_only(int argc, char *const argv[], const char *optstring,
                                  const struct option *longopts, int *longind);

/* access() asks the launcher (stdio_file.cu): the host's files, with its
 * permissions; errno as the host's call set it. */
GPUMPI_FN int gp_access(const char *path, int mode);
GPUMPI_FN unsigned gp_sleep(unsigned seconds);
GPUMPI_FN int gp_usleep(unsigned long usec);
/* Each rank is a process to the program: getpid is distinct per rank
 * (1000 + the world rank), getppid the same for all (1). */
GPUMPI_FN pid_t gp_getpid(void);
GPUMPI_FN pid_t gp_getppid(void);
/* The name MPI_Get_processor_name gives. */
GPUMPI_FN int gp_gethostname(char *name, size_t len);
/* The host's values, asked once per rank (sysconf.cu): _SC_PAGESIZE,
 * _SC_NPROCESSORS_ONLN/_CONF, _SC_CLK_TCK, _SC_OPEN_MAX; any other name
 * is -1 with errno EINVAL. */
GPUMPI_FN long gp_sysconf(int name);
GPUMPI_FN int gp_getpagesize(void);
/* Directories and names on the host, as files are (stdio_file.cu). */
GPUMPI_FN int gp_mkdir(const char *path, mode_t mode);
GPUMPI_FN int gp_rmdir(const char *path);
GPUMPI_FN int gp_unlink(const char *path);
/* system(): the host runs the command; the rank waits for it (process.cu). */
GPUMPI_FN int gp_system(const char *command);

#endif
