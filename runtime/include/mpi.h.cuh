/* What converted code gets for #include <mpi.h>: the public header, with
 * every function marked for the device by gpumpi/platform.h, and the hot
 * calls' fast paths inline (runtime/src/inline_calls.h; installed as
 * include/gpumpi/src beside include/gpumpi/runtime). */
#include "mpi.h"
#ifndef GPUMPI_NO_INLINE_CALLS
#include "../src/inline_calls.h"
#endif
