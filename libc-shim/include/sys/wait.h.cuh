/* <sys/wait.h> for converted code: the W* macros that read the status
 * system() and pclose() return, from the host header (the prelude includes
 * it). A rank has no children of its own to wait for: wait, waitpid and
 * the rest fail to compile naming themselves (gpumpi/unprovided.h). */
#include "gpumpi/shim_prelude.h"
