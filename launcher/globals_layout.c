/* Collects the converted files' globals and lays out a rank's block. The
 * registrations arrive from static constructors, before main; plain
 * zero-initialised statics here need no constructor of their own. */
#include "globals_layout.h"

#include <stdio.h>
#include <stdlib.h>

static gp_global_desc *registered;
static int nregistered, capacity;

int gp_register_globals(const gp_global_desc *vars, int n)
{
    if (nregistered + n > capacity) {
        capacity = (nregistered + n) * 2;
        registered = realloc(registered, sizeof *registered * (size_t)capacity);
        if (!registered) {
            fprintf(stderr, "gpumpi: out of memory registering %d globals\n", n);
            exit(1);
        }
    }
    for (int i = 0; i < n; i++) registered[nregistered++] = vars[i];
    return 0;
}

const gp_global_desc *gp_registered_globals(int *n)
{
    *n = nregistered;
    return registered;
}

size_t gp_globals_layout(size_t *offsets)
{
    size_t at = 0;
    for (int i = 0; i < nregistered; i++) {
        /* 16 at least: the relocation pass reads whole pointer words */
        size_t a = registered[i].align > 16 ? registered[i].align : 16;
        at = (at + a - 1) / a * a;
        if (offsets) offsets[i] = at;
        at += registered[i].size;
    }
    return (at + 15) / 16 * 16;
}

/* A quarter at most: the rest is for the program's own arrays. */
int gp_globals_go_private(size_t stride, size_t private_bytes, int verbose)
{
    int go = stride > 0 && stride <= private_bytes / 4;
    if (verbose)
        fprintf(stderr, "gpumpi: globals: %zu bytes per rank, %s\n", stride,
                go ? "in its private memory (each rank fills its own)" : "in shared memory");
    return go;
}
