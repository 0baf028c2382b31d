/* What the shim's calls backed by the launcher's files share
 * (stdio_file.cu): streams over a host handle, and a call that carries
 * paths. popen (process.cu) makes its streams with them. */
#ifndef GPUMPI_HOST_STREAMS_H
#define GPUMPI_HOST_STREAMS_H

#include "gpumpi/platform.h"
#include "gpumpi/shim_stdio.h"

/* A stream of this rank over host handle `handle`; closes the handle and
 * returns NULL when out of memory. */
GPUMPI_FN gp_FILE *gp_stream_new(int handle, int readable, int writable);
/* Takes f off the rank's list of open streams and frees it (the caller
 * has flushed it and closed its handle). */
GPUMPI_FN void gp_stream_forget(gp_FILE *f);
/* Host call `op` with path a [and path b] as its request and arg; its
 * result, or -1 with errno set (the host's errno for the host's call). */
GPUMPI_FN int64_t gp_path_call(int op, const char *a, const char *b, int64_t arg);

#endif
