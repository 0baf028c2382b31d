/* Included first by every <x.h.cuh>: the host's own C headers, all of them,
 * before any shim macro exists. Types (size_t, va_list, FILE's friends) come
 * from them, and once their include guards are set no later #include can
 * see our macros renaming printf, strlen, malloc and the rest. */
#ifndef GPUMPI_SHIM_PRELUDE_H
#define GPUMPI_SHIM_PRELUDE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <limits.h>
#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <math.h>
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <getopt.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <wchar.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <pthread.h>

#include "gpumpi/platform.h"
#include "gpumpi/shim_stdio.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_ctype.h"
#include "gpumpi/shim_errno.h"
#include "gpumpi/shim_unistd.h"
#include "gpumpi/shim_process.h"
#include "gpumpi/shim_resource.h"
#include "gpumpi/shim_signal.h"
#include "gpumpi/scan.h"
/* errno is the rank's own whichever header brought it in (the host's
 * <errno.h> is included above for everyone) */
#undef errno
#define errno (*gp_errno_location())
/* last: calls of host functions the shim lacks become build errors */
#include "gpumpi/unprovided.h"

#endif
