/* The datatype constructors: argument checks, then an object from
 * types_build.cu behind a new handle of the calling rank's. */
#include "types_build.h"
#include "comm_impl.h"

GPUMPI_FN static int gp_ctor_check(const char *fn, int count, MPI_Datatype oldtype, const gp_tobj **old,
                                   MPI_Datatype *newtype)
{
    GP_TRY(gp_check_initialized(fn));
    if (count < 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COUNT, "negative count %d", count);
    if (!newtype) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the newtype argument is NULL");
    if (old) GP_TRY(gp_type_valid(fn, oldtype, old));
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_blocklen_check(const char *fn, int count, const int *bls, int bl)
{
    if (!bls) {
        if (bl < 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "negative block length %d", bl);
        return MPI_SUCCESS;
    }
    for (int i = 0; i < count; i++)
        if (bls[i] < 0)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "negative block length %d (block %d)", bls[i], i);
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_array_check(const char *fn, int count, const void *a, const char *what)
{
    if (count > 0 && !a) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the %s array is NULL", what);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check("MPI_Type_contiguous", count, oldtype, &old, newtype));
    gp_tobj *o = gp_make_contig(count, old);
    gp_tenv *e = gp_env_new(o, MPI_COMBINER_CONTIGUOUS, 1, 0, 1);
    e->ints[0] = count;
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle("MPI_Type_contiguous", o, newtype);
}

GPUMPI_FN static int gp_hvector(const char *fn, int count, int blocklength, MPI_Aint stride, int in_extents,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check(fn, count, oldtype, &old, newtype));
    GP_TRY(gp_blocklen_check(fn, count, 0, blocklength));
    gp_tobj *o = gp_make_hvector(count, blocklength, in_extents ? stride * gp_ext(old) : stride, old);
    gp_tenv *e = gp_env_new(o, in_extents ? MPI_COMBINER_VECTOR : MPI_COMBINER_HVECTOR, in_extents ? 3 : 2,
                            in_extents ? 0 : 1, 1);
    e->ints[0] = count;
    e->ints[1] = blocklength;
    if (in_extents)
        e->ints[2] = (int)stride;
    else
        e->aints[0] = stride;
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}

GPUMPI_FN int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_vector", count, blocklength, stride, 1, oldtype, newtype);
}

GPUMPI_FN int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_create_hvector", count, blocklength, stride, 0, oldtype, newtype);
}

GPUMPI_FN int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_hvector", count, blocklength, stride, 0, oldtype, newtype);
}

/* The indexed family: bls NULL means every block is bl long; idisp in
 * extents of oldtype or adisp in bytes. */
GPUMPI_FN static int gp_indexed(const char *fn, int count, const int *bls, int bl, const int *idisp,
                                const MPI_Aint *adisp, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check(fn, count, oldtype, &old, newtype));
    GP_TRY(gp_blocklen_check(fn, count, bls, bl));
    GP_TRY(gp_array_check(fn, count, idisp ? (const void *)idisp : (const void *)adisp, "displacement"));
    gp_tobj *o = gp_make_blocks(GP_TK_INDEXED, count, bls, bl, idisp, adisp, old, 0);
    /* the standard's layout: count, then block lengths (or the one), then
     * displacements in extents as integers or in bytes as addresses */
    int nbl = bls ? count : 1;
    gp_tenv *e = gp_env_new(o,
                            bls ? (idisp ? MPI_COMBINER_INDEXED : MPI_COMBINER_HINDEXED)
                                : (idisp ? MPI_COMBINER_INDEXED_BLOCK : MPI_COMBINER_HINDEXED_BLOCK),
                            1 + nbl + (idisp ? count : 0), idisp ? 0 : count, 1);
    e->ints[0] = count;
    for (int i = 0; i < nbl; i++) e->ints[1 + i] = bls ? bls[i] : bl;
    for (int i = 0; i < count; i++) {
        if (idisp)
            e->ints[1 + nbl + i] = idisp[i];
        else
            e->aints[i] = adisp[i];
    }
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}

GPUMPI_FN int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (!array_of_blocklengths && count > 0)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_indexed", MPI_ERR_ARG, "the block length array is NULL");
    return gp_indexed("MPI_Type_indexed", count, array_of_blocklengths, 0, array_of_displacements, 0, oldtype,
                      newtype);
}

GPUMPI_FN int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                       MPI_Datatype *newtype)
{
    if (!array_of_blocklengths && count > 0)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_create_hindexed", MPI_ERR_ARG, "the block length array is NULL");
    return gp_indexed("MPI_Type_create_hindexed", count, array_of_blocklengths, 0, 0, array_of_displacements,
                      oldtype, newtype);
}

GPUMPI_FN int MPI_Type_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (!array_of_blocklengths && count > 0)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_hindexed", MPI_ERR_ARG, "the block length array is NULL");
    return gp_indexed("MPI_Type_hindexed", count, array_of_blocklengths, 0, 0, array_of_displacements, oldtype,
                      newtype);
}

GPUMPI_FN int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gp_indexed("MPI_Type_create_indexed_block", count, 0, blocklength, array_of_displacements, 0, oldtype,
                      newtype);
}

GPUMPI_FN int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gp_indexed("MPI_Type_create_hindexed_block", count, 0, blocklength, 0, array_of_displacements, oldtype,
                      newtype);
}

GPUMPI_FN static int gp_struct(const char *fn, int count, const int bls[], const MPI_Aint displs[],
                               const MPI_Datatype types[], MPI_Datatype *newtype)
{
    GP_TRY(gp_ctor_check(fn, count, 0, 0, newtype));
    GP_TRY(gp_array_check(fn, count, bls, "block length"));
    GP_TRY(gp_blocklen_check(fn, count, bls, 0));
    GP_TRY(gp_array_check(fn, count, displs, "displacement"));
    GP_TRY(gp_array_check(fn, count, types, "datatype"));
    for (int i = 0; i < count; i++) GP_TRY(gp_type_valid(fn, types[i], 0));
    gp_tobj *o = gp_make_blocks(GP_TK_STRUCT, count, bls, 0, 0, displs, 0, types);
    gp_tenv *e = gp_env_new(o, MPI_COMBINER_STRUCT, 1 + count, count, count);
    e->ints[0] = count;
    for (int i = 0; i < count; i++) {
        e->ints[1 + i] = bls[i];
        e->aints[i] = displs[i];
        gp_env_type(e, i, types[i]);
    }
    return gp_type_new_handle(fn, o, newtype);
}

GPUMPI_FN int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                     const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                     MPI_Datatype *newtype)
{
    return gp_struct("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements, array_of_types,
                     newtype);
}

GPUMPI_FN int MPI_Type_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return gp_struct("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements, array_of_types, newtype);
}

GPUMPI_FN int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check("MPI_Type_create_resized", 0, oldtype, &old, newtype));
    gp_tobj *o = gp_make_resized(GP_TK_RESIZED, old, lb, extent);
    gp_tenv *e = gp_env_new(o, MPI_COMBINER_RESIZED, 0, 2, 1);
    e->aints[0] = lb;
    e->aints[1] = extent;
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle("MPI_Type_create_resized", o, newtype);
}

GPUMPI_FN int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check("MPI_Type_dup", 0, oldtype, &old, newtype));
    gp_tobj *o = gp_make_resized(GP_TK_DUP, old, 0, 0);
    o->committed = old->committed; /* a dup of a committed type is committed */
    gp_env_type(gp_env_new(o, MPI_COMBINER_DUP, 0, 0, 1), 0, oldtype);
    GP_TRY(gp_type_new_handle("MPI_Type_dup", o, newtype));
    int rc = gp_attrs_copy(GP_ATTR_TYPE, oldtype, *newtype);
    if (rc != MPI_SUCCESS) {
        MPI_Type_free(newtype);
        *newtype = MPI_DATATYPE_NULL;
        return gp_err(MPI_COMM_WORLD, "MPI_Type_dup", rc, "an attribute copy callback failed with %d", rc);
    }
    return MPI_SUCCESS;
}

/* A subarray of an ndims array of oldtype: nested vectors, one per
 * dimension from the fastest, moved to the subarray's start and resized
 * to the whole array (lb 0), as the standard defines it. */
GPUMPI_FN int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                                       const int array_of_starts[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_subarray";
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check(fn, 0, oldtype, &old, newtype));
    if (ndims <= 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "ndims is %d (must be positive)", ndims);
    if (!array_of_sizes || !array_of_subsizes || !array_of_starts)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "an array argument is NULL");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "invalid order %d", order);
    for (int d = 0; d < ndims; d++) {
        int n = array_of_sizes[d], s = array_of_subsizes[d], st = array_of_starts[d];
        if (n <= 0 || s < 0 || s > n || st < 0 || st > n - s)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                          "dimension %d: size %d, subsize %d, start %d do not describe a subarray", d, n, s, st);
    }
    MPI_Aint ext = gp_ext(old), step = ext, disp = 0;
    gp_tobj *cur = 0;
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k; /* fastest dimension first */
        gp_tobj *next = k == 0 ? gp_make_contig(array_of_subsizes[d], old)
                               : gp_make_hvector(array_of_subsizes[d], 1, step, cur);
        if (cur) gp_tobj_unref(cur);
        cur = next;
        disp += (MPI_Aint)array_of_starts[d] * step;
        step *= array_of_sizes[d];
    }
    int bl = 1;
    gp_tobj *moved = gp_make_blocks(GP_TK_INDEXED, 1, &bl, 0, 0, &disp, cur, 0);
    gp_tobj_unref(cur);
    gp_tobj *o = gp_make_resized(GP_TK_RESIZED, moved, 0, step);
    gp_tobj_unref(moved);
    gp_tenv *e = gp_env_new(o, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, 0, 1);
    e->ints[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        e->ints[1 + d] = array_of_sizes[d];
        e->ints[1 + ndims + d] = array_of_subsizes[d];
        e->ints[1 + 2 * ndims + d] = array_of_starts[d];
    }
    e->ints[1 + 3 * ndims] = order;
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}
