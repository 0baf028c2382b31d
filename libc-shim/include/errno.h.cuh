/* <errno.h> for converted code: errno is the calling rank's own (the
 * prelude defines it). The E* numbers are the host's (Linux), as strerror
 * knows them. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_ERRNO_H_CUH
#define GPUMPI_ERRNO_H_CUH
#endif
