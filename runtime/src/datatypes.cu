/* Basic datatypes: handle -> size in bytes. */
#include "runtime.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN int gp_type_size(MPI_Datatype t)
{
    switch (t) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_UNSIGNED_CHAR: case MPI_BYTE:
    case MPI_INT8_T: case MPI_UINT8_T: case MPI_C_BOOL:
        return 1;
    case MPI_SHORT: case MPI_UNSIGNED_SHORT: case MPI_INT16_T: case MPI_UINT16_T:
        return 2;
    case MPI_INT: case MPI_UNSIGNED: case MPI_FLOAT: case MPI_INT32_T: case MPI_UINT32_T: case MPI_WCHAR:
        return 4;
    case MPI_LONG: case MPI_UNSIGNED_LONG: return (int)sizeof(long);
    case MPI_LONG_LONG_INT: case MPI_UNSIGNED_LONG_LONG: case MPI_DOUBLE: case MPI_INT64_T: case MPI_UINT64_T:
        return 8;
    case MPI_LONG_DOUBLE: return (int)sizeof(long double);
    default: return -1;
    }
}

GPUMPI_FN int gp_type_check(MPI_Comm comm, const char *fn, MPI_Datatype t, int count)
{
    if (gp_type_size(t) < 0) return gp_err(comm, fn, MPI_ERR_TYPE, "invalid datatype %d", (int)t);
    if (count < 0) return gp_err(comm, fn, MPI_ERR_COUNT, "negative count %d", count);
    return MPI_SUCCESS;
}

/* Basic types only so far: every one is contiguous and its own basic type. */
GPUMPI_FN size_t gp_type_extent(MPI_Datatype t) { return (size_t)gp_type_size(t); }

GPUMPI_FN int gp_type_contiguous(MPI_Datatype t, int count, const void *buf, const void **first)
{
    (void)t;
    (void)count;
    *first = buf;
    return 1;
}

GPUMPI_FN void gp_type_pack(const void *buf, int count, MPI_Datatype t, void *out)
{
    gp_memcpy(out, buf, (size_t)count * (size_t)gp_type_size(t));
}

GPUMPI_FN void gp_type_unpack(const void *in, size_t bytes, void *buf, int count, MPI_Datatype t)
{
    (void)count;
    (void)t;
    gp_memcpy(buf, in, bytes);
}

GPUMPI_FN MPI_Datatype gp_type_basic(MPI_Datatype t) { return t; }

GPUMPI_FN int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    return MPI_Get_count(status, datatype, count); /* basic types: one element each */
}

GPUMPI_FN int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    GP_TRY(gp_type_check(MPI_COMM_WORLD, "MPI_Get_count", datatype, 0));
    int size = gp_type_size(datatype);
    if (size == 0)
        *count = 0;
    else
        *count = status->gp_count_bytes % size ? MPI_UNDEFINED : status->gp_count_bytes / size;
    return MPI_SUCCESS;
}
