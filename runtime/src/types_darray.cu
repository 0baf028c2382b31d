/* MPI_Type_create_darray: this process's part of an array distributed
 * over a grid of processes (block, cyclic or not distributed, dimension by
 * dimension). The processes are numbered row-major in the grid whatever
 * the array's order, as the standard says. Built like a subarray: one
 * level per dimension from the fastest, each the blocks this process owns
 * along that dimension (indexed by byte offsets) of the level below
 * resized to one step of that dimension; the whole is resized to the full
 * array (lb 0, extent the array's). */
#include "types_build.h"
#include "gpumpi/shim_stdlib.h"

/* The blocks this process owns along one dimension: start index and
 * length of each, at most cap of them; returns how many. */
GPUMPI_FN static int gp_darray_blocks(int gsize, int distrib, int darg, int psize, int coord, int *start, int *len,
                                      int cap)
{
    if (distrib == MPI_DISTRIBUTE_NONE) {
        start[0] = 0;
        len[0] = gsize;
        return 1;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
        int s = coord * b, l = gsize - s < b ? gsize - s : b;
        if (l <= 0) return 0;
        start[0] = s;
        len[0] = l;
        return 1;
    }
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg, n = 0; /* cyclic(b) */
    for (int s = coord * b; s < gsize && n < cap; s += psize * b) {
        start[n] = s;
        len[n++] = gsize - s < b ? gsize - s : b;
    }
    return n;
}

GPUMPI_FN int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                                     const int array_of_distribs[], const int array_of_dargs[],
                                     const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                     MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_darray";
    const gp_tobj *old = 0;
    GP_TRY(gp_check_initialized(fn));
    GP_TRY(gp_type_valid(fn, oldtype, &old));
    if (!newtype) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the newtype argument is NULL");
    if (ndims <= 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "ndims is %d (must be positive)", ndims);
    if (!array_of_gsizes || !array_of_distribs || !array_of_dargs || !array_of_psizes)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "an array argument is NULL");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "invalid order %d", order);
    if (ndims > 64) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_DIMS, "%d dimensions (at most 64 here)", ndims);
    long procs = 1;
    for (int d = 0; d < ndims; d++) {
        int g = array_of_gsizes[d], dist = array_of_distribs[d], a = array_of_dargs[d], p = array_of_psizes[d];
        if (g <= 0 || p <= 0)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "dimension %d: gsize %d, psize %d (must be positive)", d, g, p);
        if (dist != MPI_DISTRIBUTE_BLOCK && dist != MPI_DISTRIBUTE_CYCLIC && dist != MPI_DISTRIBUTE_NONE)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "dimension %d: invalid distribution %d", d, dist);
        if (dist == MPI_DISTRIBUTE_NONE && p != 1)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "dimension %d is not distributed but has %d processes", d, p);
        if (a != MPI_DISTRIBUTE_DFLT_DARG && a <= 0)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "dimension %d: invalid distribution argument %d", d, a);
        if (dist == MPI_DISTRIBUTE_BLOCK && a != MPI_DISTRIBUTE_DFLT_DARG && (long)a * p < g)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                          "dimension %d: %d processes with blocks of %d cannot hold %d elements", d, p, a, g);
        procs *= p;
    }
    if (procs != size)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the process grid has %ld processes, size is %d", procs, size);
    if (rank < 0 || rank >= size)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_RANK, "rank %d is outside 0..%d", rank, size - 1);

    int maxblocks = 1;
    for (int d = 0; d < ndims; d++) {
        int g = array_of_gsizes[d];
        if (g > maxblocks) maxblocks = g;
    }
    int *start = (int *)gp_malloc(sizeof(int) * 2 * (size_t)maxblocks);
    MPI_Aint *disp = (MPI_Aint *)gp_malloc(sizeof(MPI_Aint) * (size_t)maxblocks);
    if (!start || !disp) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %d blocks", maxblocks);
    int *len = start + maxblocks;

    MPI_Aint step = gp_ext(old);
    gp_tobj *cur = 0;
    int r = rank;
    int coords[64];
    for (int d = ndims - 1; d >= 0; d--) { /* row-major process grid */
        coords[d] = r % array_of_psizes[d];
        r /= array_of_psizes[d];
    }
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k; /* fastest dimension first */
        int nb = gp_darray_blocks(array_of_gsizes[d], array_of_distribs[d], array_of_dargs[d], array_of_psizes[d],
                                  coords[d], start, len, maxblocks);
        for (int i = 0; i < nb; i++) disp[i] = (MPI_Aint)start[i] * step;
        const gp_tobj *child = old;
        gp_tobj *sized = 0;
        if (cur) { /* one element of this dimension is one step of the level below */
            sized = gp_make_resized(GP_TK_RESIZED, cur, 0, step);
            child = sized;
        }
        gp_ivec lens = {len, 0, 0}, disps = {0, disp, 0};
        gp_tobj *next = gp_make_blocks(GP_TK_INDEXED, nb, lens, 0, disps, 0, child, 0);
        if (sized) gp_tobj_unref(sized);
        if (cur) gp_tobj_unref(cur);
        cur = next;
        step *= array_of_gsizes[d];
    }
    gp_free(start);
    gp_free(disp);
    gp_tobj *o = gp_make_resized(GP_TK_RESIZED, cur, 0, step);
    gp_tobj_unref(cur);
    gp_tenv *e = gp_env_new(o, MPI_COMBINER_DARRAY, 4 * ndims + 4, 0, 1);
    e->ints[0] = size;
    e->ints[1] = rank;
    e->ints[2] = ndims;
    for (int d = 0; d < ndims; d++) {
        e->ints[3 + d] = array_of_gsizes[d];
        e->ints[3 + ndims + d] = array_of_distribs[d];
        e->ints[3 + 2 * ndims + d] = array_of_dargs[d];
        e->ints[3 + 3 * ndims + d] = array_of_psizes[d];
    }
    e->ints[3 + 4 * ndims] = order;
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}
