/* How a datatype was made (MPI_Type_get_envelope, MPI_Type_get_contents),
 * and MPI_Type_match_size. Every constructor records its arguments in the
 * new object (gp_env_new); the types it names are kept alive by the
 * record, so get_contents works after the program freed them. */
#include "datatype.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN gp_tenv *gp_env_new(gp_tobj *o, int combiner, int ni, int na, int nd)
{
    return gp_env_new_c(o, combiner, ni, na, 0, nd);
}

GPUMPI_FN gp_tenv *gp_env_new_c(gp_tobj *o, int combiner, int ni, int na, int nc, int nd)
{
    size_t bytes = sizeof(gp_tenv) + sizeof(MPI_Aint) * (size_t)na + sizeof(MPI_Count) * (size_t)nc +
                   sizeof(gp_tobj *) * (size_t)nd + sizeof(int) * (size_t)ni;
    gp_tenv *e = (gp_tenv *)gp_calloc(1, bytes);
    if (!e) gp_fatal("MPI_Type", MPI_ERR_NO_MEM, "no device heap left for a datatype's description");
    e->combiner = combiner;
    e->ni = ni;
    e->na = na;
    e->nc = nc;
    e->nd = nd;
    e->aints = (MPI_Aint *)(e + 1); /* most aligned first */
    e->counts = (MPI_Count *)(e->aints + na);
    e->types = (const gp_tobj **)(e->counts + nc);
    e->ints = (int *)(e->types + nd);
    o->env = e;
    return e;
}

GPUMPI_FN void gp_env_type(gp_tenv *e, int k, MPI_Datatype t)
{
    const gp_tobj *o = gp_tobj_of(t);
    gp_tobj_ref(o);
    e->types[k] = o;
}

GPUMPI_FN int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                    int *num_datatypes, int *combiner)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_check_initialized("MPI_Type_get_envelope"));
    GP_TRY(gp_type_valid("MPI_Type_get_envelope", datatype, &o));
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_get_envelope", MPI_ERR_ARG, "an output argument is NULL");
    const gp_tenv *e = o->env;
    if (e && e->nc)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_get_envelope", MPI_ERR_TYPE,
                      "datatype %d was made by a large-count constructor: use MPI_Type_get_envelope_c", (int)datatype);
    *combiner = e ? e->combiner : MPI_COMBINER_NAMED;
    *num_integers = e ? e->ni : 0;
    *num_addresses = e ? e->na : 0;
    *num_datatypes = e ? e->nd : 0;
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_contents(const char *fn, MPI_Datatype datatype, int array_of_integers[],
                                 MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                 MPI_Datatype array_of_datatypes[]);

GPUMPI_FN int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                    int array_of_integers[], MPI_Aint array_of_addresses[],
                                    MPI_Datatype array_of_datatypes[])
{
    const char *fn = "MPI_Type_get_contents";
    const gp_tobj *o = 0;
    GP_TRY(gp_check_initialized(fn));
    GP_TRY(gp_type_valid(fn, datatype, &o));
    const gp_tenv *e = o->env;
    if (!e) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TYPE, "datatype %d is predefined (MPI_COMBINER_NAMED)", (int)datatype);
    if (e->nc)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TYPE,
                      "datatype %d was made by a large-count constructor: use MPI_Type_get_contents_c", (int)datatype);
    if (max_integers < e->ni || max_addresses < e->na || max_datatypes < e->nd)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                      "room for %d integers, %d addresses, %d datatypes; the type has %d, %d, %d", max_integers,
                      max_addresses, max_datatypes, e->ni, e->na, e->nd);
    return gp_contents(fn, datatype, array_of_integers, array_of_addresses, 0, array_of_datatypes);
}

GPUMPI_FN int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                      MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_check_initialized("MPI_Type_get_envelope_c"));
    GP_TRY(gp_type_valid("MPI_Type_get_envelope_c", datatype, &o));
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes || !combiner)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_get_envelope_c", MPI_ERR_ARG, "an output argument is NULL");
    const gp_tenv *e = o->env;
    *combiner = e ? e->combiner : MPI_COMBINER_NAMED;
    *num_integers = e ? e->ni : 0;
    *num_addresses = e ? e->na : 0;
    *num_large_counts = e ? e->nc : 0;
    *num_datatypes = e ? e->nd : 0;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                      MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                                      MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                      MPI_Datatype array_of_datatypes[])
{
    const char *fn = "MPI_Type_get_contents_c";
    const gp_tobj *o = 0;
    GP_TRY(gp_check_initialized(fn));
    GP_TRY(gp_type_valid(fn, datatype, &o));
    const gp_tenv *e = o->env;
    if (!e) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TYPE, "datatype %d is predefined (MPI_COMBINER_NAMED)", (int)datatype);
    if (max_integers < e->ni || max_addresses < e->na || max_large_counts < e->nc || max_datatypes < e->nd)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                      "room for %lld integers, %lld addresses, %lld large counts, %lld datatypes; the type has %d, %d, "
                      "%d, %d",
                      (long long)max_integers, (long long)max_addresses, (long long)max_large_counts,
                      (long long)max_datatypes, e->ni, e->na, e->nc, e->nd);
    return gp_contents(fn, datatype, array_of_integers, array_of_addresses, array_of_large_counts, array_of_datatypes);
}

/* Copies the record out (room checked by the caller). Derived types come
 * back as new handles the program frees; predefined ones as themselves. */
GPUMPI_FN static int gp_contents(const char *fn, MPI_Datatype datatype, int array_of_integers[],
                                 MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                 MPI_Datatype array_of_datatypes[])
{
    const gp_tenv *e = gp_tobj_of(datatype)->env;
    if ((e->ni && !array_of_integers) || (e->na && !array_of_addresses) || (e->nc && !array_of_large_counts) ||
        (e->nd && !array_of_datatypes))
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "an output array is NULL");
    if (e->ni) gp_memcpy(array_of_integers, e->ints, sizeof(int) * (size_t)e->ni);
    if (e->na) gp_memcpy(array_of_addresses, e->aints, sizeof(MPI_Aint) * (size_t)e->na);
    if (e->nc) gp_memcpy(array_of_large_counts, e->counts, sizeof(MPI_Count) * (size_t)e->nc);
    for (int k = 0; k < e->nd; k++) {
        const gp_tobj *t = gp_tobj_of(datatype)->env->types[k]; /* re-read: a new handle may move the table */
        if (t->refs < 0) {
            array_of_datatypes[k] = gp_predef_handle(t);
            continue;
        }
        gp_tobj_ref(t);
        GP_TRY(gp_type_new_handle(fn, (gp_tobj *)t, &array_of_datatypes[k]));
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    GP_TRY(gp_check_initialized("MPI_Type_match_size"));
    if (!datatype) return gp_err(MPI_COMM_WORLD, "MPI_Type_match_size", MPI_ERR_ARG, "the datatype argument is NULL");
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (typeclass == MPI_TYPECLASS_INTEGER) {
        t = size == 1 ? MPI_SIGNED_CHAR : size == 2 ? MPI_SHORT : size == 4 ? MPI_INT : size == 8 ? MPI_LONG_LONG
                                                                                                    : MPI_DATATYPE_NULL;
    } else if (typeclass == MPI_TYPECLASS_REAL) {
        t = size == 4 ? MPI_FLOAT : size == 8 ? MPI_DOUBLE : size == GP_LDBL_SIZE ? MPI_LONG_DOUBLE : MPI_DATATYPE_NULL;
    } else if (typeclass == MPI_TYPECLASS_COMPLEX) {
        t = size == 8 ? MPI_C_FLOAT_COMPLEX : size == 16 ? MPI_C_DOUBLE_COMPLEX : MPI_DATATYPE_NULL;
    } else {
        return gp_err(MPI_COMM_WORLD, "MPI_Type_match_size", MPI_ERR_ARG, "invalid type class %d", typeclass);
    }
    if (t == MPI_DATATYPE_NULL)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_match_size", MPI_ERR_ARG, "no type of class %d has %d bytes", typeclass,
                      size);
    *datatype = t;
    return MPI_SUCCESS;
}

/* MPI_Type_create_f90_integer/real/complex: the predefined type of the
 * smallest Fortran kind with at least decimal range r (and precision p),
 * as SELECTED_INT_KIND / SELECTED_REAL_KIND choose it (gfortran's kinds;
 * none past 8-byte reals here: mpi_types.h). MPI_UNDEFINED leaves p or r
 * free, not both. The result is a named type: it is not freed. */
GPUMPI_FN static int gp_f90_real(const char *fn, int p, int r, MPI_Datatype four, MPI_Datatype eight,
                                 MPI_Datatype *newtype)
{
    GP_TRY(gp_check_initialized(fn));
    if (!newtype) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the newtype argument is NULL");
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "both p and r are MPI_UNDEFINED (give at least one)");
    int pp = p == MPI_UNDEFINED ? 0 : p, rr = r == MPI_UNDEFINED ? 0 : r;
    if (pp < 0 || rr < 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "negative precision %d or range %d", p, r);
    if (pp <= 6 && rr <= 37)
        *newtype = four;
    else if (pp <= 15 && rr <= 307)
        *newtype = eight;
    else
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG,
                      "no kind has precision %d and range %d (at most 15 and 307 here: no quad precision)", p, r);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return gp_f90_real("MPI_Type_create_f90_real", p, r, MPI_REAL4, MPI_REAL8, newtype);
}

GPUMPI_FN int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return gp_f90_real("MPI_Type_create_f90_complex", p, r, MPI_COMPLEX8, MPI_COMPLEX16, newtype);
}

GPUMPI_FN int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_f90_integer";
    GP_TRY(gp_check_initialized(fn));
    if (!newtype) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the newtype argument is NULL");
    /* 10^r must fit: 127, 32767, 2^31 - 1 and 2^63 - 1 hold 2, 4, 9 and 18 digits */
    MPI_Datatype t = r < 0 ? MPI_DATATYPE_NULL
                     : r <= 2 ? MPI_INTEGER1
                     : r <= 4 ? MPI_INTEGER2
                     : r <= 9 ? MPI_INTEGER4
                     : r <= 18 ? MPI_INTEGER8
                               : MPI_DATATYPE_NULL;
    if (t == MPI_DATATYPE_NULL)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "no integer kind has range %d (0 to 18 here)", r);
    *newtype = t;
    return MPI_SUCCESS;
}
