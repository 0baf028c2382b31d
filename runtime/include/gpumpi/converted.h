/* Included first by every converted file that has per-rank variables. */
#ifndef GPUMPI_CONVERTED_H
#define GPUMPI_CONVERTED_H

#include "gpumpi/globals.h"

/* Thread-local variables get per-rank storage like every other global, so
 * the keyword goes (on the GPU it would not compile). */
#define __thread
#define _Thread_local

#endif
