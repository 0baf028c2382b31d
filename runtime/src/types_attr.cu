/* Datatype attributes: the MPI_Type_*_keyval and MPI_Type_*_attr calls,
 * on attr.cu's one implementation of keys and attributes. A datatype's
 * errors go to MPI_COMM_WORLD, as its other calls' do. */
#include "comm_impl.h"
#include "datatype.h"

GPUMPI_FN int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                     MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                                     void *extra_state)
{
    return gp_keyval_create("MPI_Type_create_keyval", GP_ATTR_TYPE, type_copy_attr_fn, type_delete_attr_fn,
                            type_keyval, extra_state);
}

GPUMPI_FN int MPI_Type_free_keyval(int *type_keyval)
{
    return gp_keyval_free("MPI_Type_free_keyval", GP_ATTR_TYPE, type_keyval);
}

GPUMPI_FN int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    GP_TRY(gp_check_initialized("MPI_Type_set_attr"));
    GP_TRY(gp_type_valid("MPI_Type_set_attr", datatype, 0));
    return gp_attr_set("MPI_Type_set_attr", GP_ATTR_TYPE, datatype, type_keyval, attribute_val);
}

GPUMPI_FN int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    GP_TRY(gp_check_initialized("MPI_Type_get_attr"));
    GP_TRY(gp_type_valid("MPI_Type_get_attr", datatype, 0));
    return gp_attr_get("MPI_Type_get_attr", GP_ATTR_TYPE, datatype, type_keyval, attribute_val, flag);
}

GPUMPI_FN int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    GP_TRY(gp_check_initialized("MPI_Type_delete_attr"));
    GP_TRY(gp_type_valid("MPI_Type_delete_attr", datatype, 0));
    return gp_attr_delete("MPI_Type_delete_attr", GP_ATTR_TYPE, datatype, type_keyval);
}
