/* <sys/mman.h> for converted code: its types and constants, from the host
 * header (the prelude includes it); none of its functions has a device
 * version, and a call fails to compile naming it (gpumpi/unprovided.h).
 * A program that includes it and calls nothing from it builds. */
#include "gpumpi/shim_prelude.h"
