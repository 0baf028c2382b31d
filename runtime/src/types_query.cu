/* Datatype queries: size, bounds, names, addresses, and the element
 * counts of a received message (MPI_Get_count, MPI_Get_elements). */
#include "datatype.h"
#include "local_inline.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN static int gp_query(const char *fn, MPI_Datatype t, const void *out, const gp_tobj **o)
{
    GP_TRY(gp_check_initialized(fn));
    GP_TRY(gp_type_valid(fn, t, o));
    if (!out) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "an output argument is NULL");
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_size(MPI_Datatype datatype, int *size)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_size", datatype, size, &o));
    *size = o->size > 0x7fffffff ? MPI_UNDEFINED : (int)o->size;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_size_x", datatype, size, &o));
    *size = o->size;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_get_extent", datatype, lb && extent ? lb : 0, &o));
    *lb = o->lb;
    *extent = gp_ext(o);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_get_extent_x", datatype, lb && extent ? lb : 0, &o));
    *lb = o->lb;
    *extent = gp_ext(o);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_get_true_extent", datatype, true_lb && true_extent ? true_lb : 0, &o));
    *true_lb = o->true_lb;
    *true_extent = o->true_ub - o->true_lb;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_get_true_extent_x", datatype, true_lb && true_extent ? true_lb : 0, &o));
    *true_lb = o->true_lb;
    *true_extent = o->true_ub - o->true_lb;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_extent", datatype, extent, &o));
    *extent = gp_ext(o);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_lb", datatype, displacement, &o));
    *displacement = o->lb;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_ub", datatype, displacement, &o));
    *displacement = o->ub;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_get_name", datatype, type_name && resultlen ? type_name : 0, &o));
    const char *name = o->name ? o->name : "";
    gp_type_state *s = gp_types();
    if (o->refs < 0 && s->predef_names && s->predef_names[datatype])
        name = s->predef_names[datatype];
    else if (o->refs < 0 && !gp_predef_name(datatype, &name))
        name = "";
    int n = (int)gp_strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    gp_memcpy(type_name, name, (size_t)n);
    type_name[n] = 0;
    *resultlen = n;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_query("MPI_Type_set_name", datatype, type_name, &o));
    size_t n = gp_strnlen(type_name, MPI_MAX_OBJECT_NAME - 1);
    char *copy = (char *)gp_malloc(n + 1);
    if (!copy) return gp_fatal("MPI_Type_set_name", MPI_ERR_NO_MEM, "no device heap left for a name");
    gp_memcpy(copy, type_name, n);
    copy[n] = 0;
    char **slot = &((gp_tobj *)o)->name;
    if (o->refs < 0) { /* a predefined type is shared by every rank: its new name is this rank's own */
        gp_type_state *s = gp_types();
        if (!s->predef_names) s->predef_names = (char **)gp_calloc(GP_NUM_PREDEF, sizeof(char *));
        if (!s->predef_names) return gp_fatal("MPI_Type_set_name", MPI_ERR_NO_MEM, "no device heap left for a name");
        slot = &s->predef_names[datatype];
    }
    gp_free(*slot);
    *slot = copy;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Get_address(const void *location, MPI_Aint *address)
{
    if (!address) return gp_err(MPI_COMM_WORLD, "MPI_Get_address", MPI_ERR_ARG, "the address argument is NULL");
    *address = (MPI_Aint)(intptr_t)location;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Address(const void *location, MPI_Aint *address) { return MPI_Get_address(location, address); }
GPUMPI_FN MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return base + disp; }
GPUMPI_FN MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) { return addr1 - addr2; }

/* ---- element counts ------------------------------------------------------ */

/* The basic elements in the first *left packed bytes of one element of t
 * (fewer than its size), taking those bytes off *left; it stops where the
 * next basic element does not fit, so *left ends non-zero when the bytes
 * end inside one. Walks the type's description, which, unlike the merged
 * program, still says where each basic element ends. */
GPUMPI_FN static MPI_Count gp_elems_part(const gp_tobj *t, MPI_Aint *left)
{
    MPI_Count n = 0;
    while (t) {
        if (t->nblocks == 0) { /* predefined: only a value-index pair can be partly there */
            MPI_Aint vsize = t->size - 4;
            if (t->nelems == 2 && *left >= vsize) {
                *left -= vsize;
                n++;
            }
            return n;
        }
        const gp_tobj *into = 0; /* the block the bytes end in */
        int b0 = 0;
        if (!t->blocklens && !t->children) { /* uniform blocks: skip the whole ones at once */
            MPI_Aint per = t->bl1 * t->child1->size;
            if (per > 0) {
                MPI_Aint blocks = *left / per;
                if (blocks > t->nblocks) blocks = t->nblocks;
                n += (MPI_Count)blocks * t->bl1 * t->child1->nelems;
                *left -= blocks * per;
                b0 = (int)blocks;
            }
        }
        for (int b = b0; b < t->nblocks && *left > 0 && !into; b++) {
            const gp_tobj *c = t->children ? t->children[b] : t->child1;
            MPI_Aint bl = t->blocklens ? t->blocklens[b] : t->bl1;
            if (c->size == 0) continue;
            MPI_Aint whole = *left / c->size;
            if (whole > bl) whole = bl;
            n += (MPI_Count)whole * c->nelems;
            *left -= whole * c->size;
            if (whole < bl && *left > 0) into = c;
        }
        t = into;
    }
    return n;
}

GPUMPI_FN static int gp_count_check(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                                    const void *count, const gp_tobj **o)
{
    GP_TRY(gp_type_valid(fn, datatype, o));
    if (!status || !count) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the status or count argument is NULL");
    return MPI_SUCCESS;
}

/* How many elements of `size` bytes `bytes` are (MPI_Get_count). */
GPUMPI_FN static inline int gp_count_of(MPI_Aint bytes, MPI_Aint size)
{
    if (size == 0) return 0;
    return bytes % size || bytes / size > 0x7fffffff ? MPI_UNDEFINED : (int)(bytes / size);
}

GPUMPI_FN __noinline__ int gp_get_count_general(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_count_check("MPI_Get_count", status, datatype, count, &o));
    *count = gp_count_of(status->gp_count_bytes, o->size);
    return MPI_SUCCESS;
}

/* A basic type and a count that fits 32 bits are answered with no call
 * (local_inline.h). */
GPUMPI_FN int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    return gp_get_count_inline(status, datatype, count);
}

GPUMPI_FN static MPI_Count gp_elements(const gp_tobj *o, MPI_Aint bytes)
{
    if (o->size == 0) return 0;
    MPI_Aint whole = bytes / o->size, left = bytes % o->size;
    MPI_Count n = (MPI_Count)whole * o->nelems;
    if (left) n += gp_elems_part(o, &left);
    return left ? MPI_UNDEFINED : n;
}

GPUMPI_FN int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_count_check("MPI_Get_elements", status, datatype, count, &o));
    MPI_Count n = gp_elements(o, status->gp_count_bytes);
    *count = n > 0x7fffffff ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_count_check("MPI_Get_elements_x", status, datatype, count, &o));
    *count = gp_elements(o, status->gp_count_bytes);
    return MPI_SUCCESS;
}
