/* The large-count (_c) bindings of status, buffer, datatype query and
 * packing calls: each narrows its counts and calls its int twin
 * (large_count.h), or is its _x twin under the MPI-4.0 name. */
#include "large_count.h"

GPUMPI_FN int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    int n = 0;
    int rc = MPI_Get_count(status, datatype, count ? &n : 0);
    if (rc == MPI_SUCCESS && count) *count = n; /* MPI_UNDEFINED stays itself */
    return rc;
}

GPUMPI_FN int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return MPI_Get_elements_x(status, datatype, count);
}

GPUMPI_FN int MPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return MPI_Status_set_elements_x(status, datatype, count);
}

GPUMPI_FN int MPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    int n;
    GP_TRY(gp_lc_int("MPI_Buffer_attach_c", MPI_COMM_WORLD, "size", size, &n));
    return MPI_Buffer_attach(buffer, n);
}

GPUMPI_FN int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    int n = 0;
    int rc = MPI_Buffer_detach(buffer_addr, size ? &n : 0);
    if (rc == MPI_SUCCESS && size) *size = n;
    return rc;
}

GPUMPI_FN int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return MPI_Type_get_extent_x(datatype, lb, extent);
}

GPUMPI_FN int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return MPI_Type_get_true_extent_x(datatype, true_lb, true_extent);
}

GPUMPI_FN int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    return MPI_Type_size_x(datatype, size);
}

/* ndims sizes as ints in out (ndims <= GP_LC_MAX_DIMS) */
#define GP_LC_MAX_DIMS 32
GPUMPI_FN static int gp_lc_dims(const char *fn, int ndims, const MPI_Count *src, int *out)
{
    if (ndims > GP_LC_MAX_DIMS)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "ndims %d (at most %d)", ndims, GP_LC_MAX_DIMS);
    if (!src) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "an array argument is NULL");
    for (int d = 0; d < ndims; d++) GP_TRY(gp_lc_int(fn, MPI_COMM_WORLD, "array size", src[d], &out[d]));
    return MPI_SUCCESS;
}

/* Subarray and darray sizes are narrowed too: their record is the int
 * constructor's (MPI_Type_get_contents_c gives them as integers). */
GPUMPI_FN int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                         const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                         int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_subarray_c";
    int sizes[GP_LC_MAX_DIMS], subsizes[GP_LC_MAX_DIMS], starts[GP_LC_MAX_DIMS];
    if (ndims <= 0) return MPI_Type_create_subarray(ndims, 0, 0, 0, order, oldtype, newtype); /* its error */
    GP_TRY(gp_lc_dims(fn, ndims, array_of_sizes, sizes));
    GP_TRY(gp_lc_dims(fn, ndims, array_of_subsizes, subsizes));
    GP_TRY(gp_lc_dims(fn, ndims, array_of_starts, starts));
    return MPI_Type_create_subarray(ndims, sizes, subsizes, starts, order, oldtype, newtype);
}

GPUMPI_FN int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                       const int array_of_distribs[], const int array_of_dargs[],
                                       const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype)
{
    int gsizes[GP_LC_MAX_DIMS];
    if (ndims <= 0)
        return MPI_Type_create_darray(size, rank, ndims, 0, array_of_distribs, array_of_dargs, array_of_psizes, order,
                                      oldtype, newtype);
    GP_TRY(gp_lc_dims("MPI_Type_create_darray_c", ndims, array_of_gsizes, gsizes));
    return MPI_Type_create_darray(size, rank, ndims, gsizes, array_of_distribs, array_of_dargs, array_of_psizes,
                                  order, oldtype, newtype);
}

GPUMPI_FN int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                         MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    const char *fn = "MPI_Pack_c";
    int n, size, pos = 0;
    GP_TRY(gp_lc_int(fn, comm, "incount", incount, &n));
    GP_TRY(gp_lc_int(fn, comm, "outsize", outsize, &size));
    if (position) GP_TRY(gp_lc_int(fn, comm, "position", *position, &pos));
    int rc = MPI_Pack(inbuf, n, datatype, outbuf, size, position ? &pos : 0, comm);
    if (rc == MPI_SUCCESS) *position = pos;
    return rc;
}

GPUMPI_FN int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                           MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    const char *fn = "MPI_Unpack_c";
    int size, n, pos = 0;
    GP_TRY(gp_lc_int(fn, comm, "insize", insize, &size));
    GP_TRY(gp_lc_int(fn, comm, "outcount", outcount, &n));
    if (position) GP_TRY(gp_lc_int(fn, comm, "position", *position, &pos));
    int rc = MPI_Unpack(inbuf, size, position ? &pos : 0, outbuf, n, datatype, comm);
    if (rc == MPI_SUCCESS) *position = pos;
    return rc;
}

GPUMPI_FN int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    int n, bytes = 0;
    GP_TRY(gp_lc_int("MPI_Pack_size_c", comm, "incount", incount, &n));
    int rc = MPI_Pack_size(n, datatype, comm, size ? &bytes : 0);
    if (rc == MPI_SUCCESS) *size = bytes;
    return rc;
}

GPUMPI_FN int MPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                                  MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    int n;
    MPI_Aint pos = position ? (MPI_Aint)*position : 0;
    GP_TRY(gp_lc_int("MPI_Pack_external_c", MPI_COMM_WORLD, "incount", incount, &n));
    int rc = MPI_Pack_external(datarep, inbuf, n, datatype, outbuf, (MPI_Aint)outsize, position ? &pos : 0);
    if (rc == MPI_SUCCESS) *position = pos;
    return rc;
}

GPUMPI_FN int MPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                                    MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    int n;
    MPI_Aint pos = position ? (MPI_Aint)*position : 0;
    GP_TRY(gp_lc_int("MPI_Unpack_external_c", MPI_COMM_WORLD, "outcount", outcount, &n));
    int rc = MPI_Unpack_external(datarep, inbuf, (MPI_Aint)insize, position ? &pos : 0, outbuf, n, datatype);
    if (rc == MPI_SUCCESS) *position = pos;
    return rc;
}

GPUMPI_FN int MPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                                       MPI_Count *size)
{
    int n;
    MPI_Aint bytes = 0;
    GP_TRY(gp_lc_int("MPI_Pack_external_size_c", MPI_COMM_WORLD, "incount", incount, &n));
    int rc = MPI_Pack_external_size(datarep, n, datatype, size ? &bytes : 0);
    if (rc == MPI_SUCCESS) *size = bytes;
    return rc;
}
