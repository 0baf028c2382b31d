/* What a program may set in a status (for generalized requests and
 * layered libraries): MPI_Status_set_elements(_x), MPI_Status_set_cancelled.
 * A status keeps the bytes received; setting a number of basic elements
 * stores the bytes those elements take, so MPI_Get_elements(_x) and
 * MPI_Get_count read them back. */
#include "datatype.h"

/* The packed bytes of the first n basic elements of one element of t
 * (n < t->nelems): the inverse of types_query.cu's element walk. */
GPUMPI_FN static MPI_Aint gp_elems_bytes(const gp_tobj *t, MPI_Count n)
{
    MPI_Aint bytes = 0;
    while (t && n > 0) {
        if (t->nblocks == 0) /* predefined: a value-index pair may be half there */
            return bytes + (t->nelems == 2 ? t->size - 4 : (MPI_Aint)n * (t->size / t->nelems));
        const gp_tobj *into = 0;
        for (int b = 0; b < t->nblocks && !into; b++) {
            const gp_tobj *c = t->children ? t->children[b] : t->child1;
            MPI_Aint bl = t->blocklens ? t->blocklens[b] : t->bl1;
            if (c->nelems == 0) continue;
            MPI_Count block = (MPI_Count)bl * c->nelems;
            if (n >= block) {
                n -= block;
                bytes += bl * c->size;
                continue;
            }
            MPI_Count whole = n / c->nelems;
            bytes += (MPI_Aint)whole * c->size;
            n -= whole * c->nelems;
            into = c;
        }
        t = into;
    }
    return bytes;
}

GPUMPI_FN static int gp_set_elements(const char *fn, MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    GP_TRY(gp_check_initialized(fn));
    const gp_tobj *o = 0;
    GP_TRY(gp_type_valid(fn, datatype, &o));
    if (!status) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the status argument is NULL");
    if (count < 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COUNT, "negative count %lld", (long long)count);
    MPI_Count bytes = 0;
    if (o->nelems > 0) {
        MPI_Count whole = count / o->nelems;
        bytes = whole * o->size + gp_elems_bytes(o, count - whole * o->nelems);
    } else if (count > 0) {
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TYPE, "datatype %d has no basic elements to count", (int)datatype);
    }
    status->gp_count_bytes = bytes;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return gp_set_elements("MPI_Status_set_elements", status, datatype, count);
}

GPUMPI_FN int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return gp_set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

GPUMPI_FN int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    GP_TRY(gp_check_initialized("MPI_Status_set_cancelled"));
    if (!status) return gp_err(MPI_COMM_WORLD, "MPI_Status_set_cancelled", MPI_ERR_ARG, "the status argument is NULL");
    status->gp_cancelled = flag != 0;
    return MPI_SUCCESS;
}
