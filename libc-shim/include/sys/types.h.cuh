/* <sys/types.h> for converted code: the host header's types and constants serve
 * the device; its functions that gpumpi lacks are build errors. */
#include "gpumpi/shim_prelude.h"
