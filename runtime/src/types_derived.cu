/* The datatype constructors: argument checks, then an object from
 * types_build.cu behind a new handle of the calling rank's. */
#include "types_build.h"
#include "comm_impl.h"

/* Each constructor's classic (int) and large-count (_c) bindings share one
 * worker taking MPI_Count values; `large` says which binding called, for
 * the record MPI_Type_get_contents returns (MPI-4.0 puts a _c
 * constructor's counts and displacements among the large counts). */

/* count: the number of blocks (blocks <= INT_MAX) or, for contiguous, of elements */
GPUMPI_FN static int gp_ctor_check(const char *fn, MPI_Count count, int blocks, MPI_Datatype oldtype,
                                   const gp_tobj **old, MPI_Datatype *newtype)
{
    GP_TRY(gp_check_initialized(fn));
    if (count < 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COUNT, "negative count %lld", (long long)count);
    if (blocks && count > 2147483647LL)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COUNT, "count %lld: a datatype has at most 2^31-1 blocks",
                      (long long)count);
    if (!newtype) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the newtype argument is NULL");
    if (old) GP_TRY(gp_type_valid(fn, oldtype, old));
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_blocklen_check(const char *fn, int count, gp_ivec bls, MPI_Count bl)
{
    if (!gp_iv_set(bls)) {
        if (bl < 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "negative block length %lld", (long long)bl);
        return MPI_SUCCESS;
    }
    for (int i = 0; i < count; i++)
        if (gp_iv(bls, i) < 0)
            return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "negative block length %lld (block %d)",
                          (long long)gp_iv(bls, i), i);
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_array_check(const char *fn, MPI_Count count, int present, const char *what)
{
    if (count > 0 && !present) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the %s array is NULL", what);
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_contiguous(const char *fn, MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                                   int large)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check(fn, count, 0, oldtype, &old, newtype));
    gp_tobj *o = gp_make_contig((MPI_Aint)count, old);
    gp_tenv *e = gp_env_new_c(o, MPI_COMBINER_CONTIGUOUS, large ? 0 : 1, 0, large ? 1 : 0, 1);
    if (large)
        e->counts[0] = count;
    else
        e->ints[0] = (int)count;
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}

GPUMPI_FN int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gp_contiguous("MPI_Type_contiguous", count, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gp_contiguous("MPI_Type_contiguous_c", count, oldtype, newtype, 1);
}

GPUMPI_FN static int gp_hvector(const char *fn, MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                int in_extents, MPI_Datatype oldtype, MPI_Datatype *newtype, int large)
{
    const gp_tobj *old = 0;
    gp_ivec none = {0, 0, 0};
    GP_TRY(gp_ctor_check(fn, count, 1, oldtype, &old, newtype));
    GP_TRY(gp_blocklen_check(fn, (int)count, none, blocklength));
    gp_tobj *o = gp_make_hvector((MPI_Aint)count, (MPI_Aint)blocklength,
                                 in_extents ? (MPI_Aint)stride * gp_ext(old) : (MPI_Aint)stride, old);
    int combiner = in_extents ? MPI_COMBINER_VECTOR : MPI_COMBINER_HVECTOR;
    gp_tenv *e;
    if (large) {
        e = gp_env_new_c(o, combiner, 0, 0, 3, 1);
        e->counts[0] = count;
        e->counts[1] = blocklength;
        e->counts[2] = stride;
    } else {
        e = gp_env_new(o, combiner, in_extents ? 3 : 2, in_extents ? 0 : 1, 1);
        e->ints[0] = (int)count;
        e->ints[1] = (int)blocklength;
        if (in_extents)
            e->ints[2] = (int)stride;
        else
            e->aints[0] = (MPI_Aint)stride;
    }
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}

GPUMPI_FN int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_vector", count, blocklength, stride, 1, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_vector_c", count, blocklength, stride, 1, oldtype, newtype, 1);
}

GPUMPI_FN int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                      MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_create_hvector", count, blocklength, stride, 0, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                        MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_create_hvector_c", count, blocklength, stride, 0, oldtype, newtype, 1);
}

GPUMPI_FN int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    return gp_hvector("MPI_Type_hvector", count, blocklength, stride, 0, oldtype, newtype, 0);
}

/* The indexed family: bls absent means every block is bl long; disp in
 * extents of oldtype (in_extents) or in bytes. */
GPUMPI_FN static int gp_indexed(const char *fn, MPI_Count count, gp_ivec bls, MPI_Count bl, gp_ivec disp,
                                int in_extents, MPI_Datatype oldtype, MPI_Datatype *newtype, int large)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check(fn, count, 1, oldtype, &old, newtype));
    int n = (int)count;
    GP_TRY(gp_blocklen_check(fn, n, bls, bl));
    GP_TRY(gp_array_check(fn, n, gp_iv_set(disp), "displacement"));
    gp_tobj *o = gp_make_blocks(GP_TK_INDEXED, n, bls, (MPI_Aint)bl, disp, in_extents, old, 0);
    /* the standard's layout: count, then block lengths (or the one), then
     * displacements: in extents as integers or in bytes as addresses, or
     * all of them large counts for a _c constructor */
    int nbl = gp_iv_set(bls) ? n : 1;
    int combiner = gp_iv_set(bls) ? (in_extents ? MPI_COMBINER_INDEXED : MPI_COMBINER_HINDEXED)
                                  : (in_extents ? MPI_COMBINER_INDEXED_BLOCK : MPI_COMBINER_HINDEXED_BLOCK);
    gp_tenv *e;
    if (large) {
        e = gp_env_new_c(o, combiner, 0, 0, 1 + nbl + n, 1);
        e->counts[0] = count;
        for (int i = 0; i < nbl; i++) e->counts[1 + i] = gp_iv_set(bls) ? gp_iv(bls, i) : bl;
        for (int i = 0; i < n; i++) e->counts[1 + nbl + i] = gp_iv(disp, i);
    } else {
        e = gp_env_new(o, combiner, 1 + nbl + (in_extents ? n : 0), in_extents ? 0 : n, 1);
        e->ints[0] = n;
        for (int i = 0; i < nbl; i++) e->ints[1 + i] = (int)(gp_iv_set(bls) ? gp_iv(bls, i) : bl);
        for (int i = 0; i < n; i++) {
            if (in_extents)
                e->ints[1 + nbl + i] = (int)gp_iv(disp, i);
            else
                e->aints[i] = (MPI_Aint)gp_iv(disp, i);
        }
    }
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}

/* the indexed calls whose block lengths are an array */
GPUMPI_FN static int gp_indexed_bls(const char *fn, MPI_Count count, gp_ivec bls, gp_ivec disp, int in_extents,
                                    MPI_Datatype oldtype, MPI_Datatype *newtype, int large)
{
    if (!gp_iv_set(bls) && count > 0)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the block length array is NULL");
    return gp_indexed(fn, count, bls, 0, disp, in_extents, oldtype, newtype, large);
}

GPUMPI_FN int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    gp_ivec bls = {array_of_blocklengths, 0, 0}, disp = {array_of_displacements, 0, 0};
    return gp_indexed_bls("MPI_Type_indexed", count, bls, disp, 1, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                 const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype)
{
    gp_ivec bls = {0, 0, array_of_blocklengths}, disp = {0, 0, array_of_displacements};
    return gp_indexed_bls("MPI_Type_indexed_c", count, bls, disp, 1, oldtype, newtype, 1);
}

GPUMPI_FN int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                       MPI_Datatype *newtype)
{
    gp_ivec bls = {array_of_blocklengths, 0, 0}, disp = {0, array_of_displacements, 0};
    return gp_indexed_bls("MPI_Type_create_hindexed", count, bls, disp, 0, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                         const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                         MPI_Datatype *newtype)
{
    gp_ivec bls = {0, 0, array_of_blocklengths}, disp = {0, 0, array_of_displacements};
    return gp_indexed_bls("MPI_Type_create_hindexed_c", count, bls, disp, 0, oldtype, newtype, 1);
}

GPUMPI_FN int MPI_Type_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    gp_ivec bls = {array_of_blocklengths, 0, 0}, disp = {0, array_of_displacements, 0};
    return gp_indexed_bls("MPI_Type_hindexed", count, bls, disp, 0, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    gp_ivec none = {0, 0, 0}, disp = {array_of_displacements, 0, 0};
    return gp_indexed("MPI_Type_create_indexed_block", count, none, blocklength, disp, 1, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                              const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                              MPI_Datatype *newtype)
{
    gp_ivec none = {0, 0, 0}, disp = {0, 0, array_of_displacements};
    return gp_indexed("MPI_Type_create_indexed_block_c", count, none, blocklength, disp, 1, oldtype, newtype, 1);
}

GPUMPI_FN int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    gp_ivec none = {0, 0, 0}, disp = {0, array_of_displacements, 0};
    return gp_indexed("MPI_Type_create_hindexed_block", count, none, blocklength, disp, 0, oldtype, newtype, 0);
}

GPUMPI_FN int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                               MPI_Datatype *newtype)
{
    gp_ivec none = {0, 0, 0}, disp = {0, 0, array_of_displacements};
    return gp_indexed("MPI_Type_create_hindexed_block_c", count, none, blocklength, disp, 0, oldtype, newtype, 1);
}

GPUMPI_FN static int gp_struct(const char *fn, MPI_Count count, gp_ivec bls, gp_ivec displs,
                               const MPI_Datatype types[], MPI_Datatype *newtype, int large)
{
    GP_TRY(gp_ctor_check(fn, count, 1, 0, 0, newtype));
    int n = (int)count;
    GP_TRY(gp_array_check(fn, n, gp_iv_set(bls), "block length"));
    GP_TRY(gp_blocklen_check(fn, n, bls, 0));
    GP_TRY(gp_array_check(fn, n, gp_iv_set(displs), "displacement"));
    GP_TRY(gp_array_check(fn, n, types != 0, "datatype"));
    for (int i = 0; i < n; i++) GP_TRY(gp_type_valid(fn, types[i], 0));
    gp_tobj *o = gp_make_blocks(GP_TK_STRUCT, n, bls, 0, displs, 0, 0, types);
    gp_tenv *e = large ? gp_env_new_c(o, MPI_COMBINER_STRUCT, 0, 0, 1 + 2 * n, n)
                       : gp_env_new(o, MPI_COMBINER_STRUCT, 1 + n, n, n);
    if (large)
        e->counts[0] = count;
    else
        e->ints[0] = n;
    for (int i = 0; i < n; i++) {
        if (large) {
            e->counts[1 + i] = gp_iv(bls, i);
            e->counts[1 + n + i] = gp_iv(displs, i);
        } else {
            e->ints[1 + i] = (int)gp_iv(bls, i);
            e->aints[i] = (MPI_Aint)gp_iv(displs, i);
        }
        gp_env_type(e, i, types[i]);
    }
    return gp_type_new_handle(fn, o, newtype);
}

GPUMPI_FN int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                                     const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                     MPI_Datatype *newtype)
{
    gp_ivec bls = {array_of_blocklengths, 0, 0}, disp = {0, array_of_displacements, 0};
    return gp_struct("MPI_Type_create_struct", count, bls, disp, array_of_types, newtype, 0);
}

GPUMPI_FN int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                       const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                                       MPI_Datatype *newtype)
{
    gp_ivec bls = {0, 0, array_of_blocklengths}, disp = {0, 0, array_of_displacements};
    return gp_struct("MPI_Type_create_struct_c", count, bls, disp, array_of_types, newtype, 1);
}

GPUMPI_FN int MPI_Type_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    gp_ivec bls = {array_of_blocklengths, 0, 0}, disp = {0, array_of_displacements, 0};
    return gp_struct("MPI_Type_struct", count, bls, disp, array_of_types, newtype, 0);
}

GPUMPI_FN static int gp_resized(const char *fn, MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                                MPI_Datatype *newtype, int large)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check(fn, 0, 0, oldtype, &old, newtype));
    gp_tobj *o = gp_make_resized(GP_TK_RESIZED, old, (MPI_Aint)lb, (MPI_Aint)extent);
    gp_tenv *e = gp_env_new_c(o, MPI_COMBINER_RESIZED, 0, large ? 0 : 2, large ? 2 : 0, 1);
    if (large) {
        e->counts[0] = lb;
        e->counts[1] = extent;
    } else {
        e->aints[0] = (MPI_Aint)lb;
        e->aints[1] = (MPI_Aint)extent;
    }
    gp_env_type(e, 0, oldtype);
    return gp_type_new_handle(fn, o, newtype);
}

GPUMPI_FN int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    return gp_resized("MPI_Type_create_resized", oldtype, lb, extent, newtype, 0);
}

GPUMPI_FN int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    return gp_resized("MPI_Type_create_resized_c", oldtype, lb, extent, newtype, 1);
}

GPUMPI_FN int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const gp_tobj *old = 0;
    GP_TRY(gp_ctor_check("MPI_Type_dup", 0, 0, oldtype, &old, newtype));
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
    GP_TRY(gp_ctor_check(fn, 0, 0, oldtype, &old, newtype));
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
    gp_ivec none = {0, 0, 0}, at = {0, &disp, 0};
    gp_tobj *moved = gp_make_blocks(GP_TK_INDEXED, 1, none, 1, at, 0, cur, 0);
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
