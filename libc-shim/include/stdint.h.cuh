/* <stdint.h> for converted code: the host header serves the device as is
 * (CUDA provides the device versions of its functions). */
#include "gpumpi/shim_prelude.h"
