/* <errno.h> for converted code: errno is the calling rank's own. The
 * E* numbers are the host's (Linux), as strerror knows them. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_ERRNO_H_CUH
#define GPUMPI_ERRNO_H_CUH
#undef errno
#define errno (*gp_errno_location())
#endif
