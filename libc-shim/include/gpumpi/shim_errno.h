/* errno on the device: an lvalue of the calling rank (gp_rank.libc_errno). */
#ifndef GPUMPI_SHIM_ERRNO_H
#define GPUMPI_SHIM_ERRNO_H

#include "gpumpi/platform.h"

GPUMPI_FN int *gp_errno_location(void);

#endif
