/* What converted code gets for #include <mpi.h>: the public header, with
 * every function marked for the device by gpumpi/platform.h. */
#include "mpi.h"
