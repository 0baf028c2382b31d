/* C <-> Fortran handle conversions: identities, since every gpumpi handle
 * is an int (gpumpi/mpi_handle_convert.h). A status is copied whole, its
 * private fields too, so that a status converted there and back is the
 * same status. */
#include "runtime.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN MPI_Fint MPI_Comm_c2f(MPI_Comm h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Comm MPI_Comm_f2c(MPI_Fint h) { return (MPI_Comm)h; }
GPUMPI_FN MPI_Fint MPI_Type_c2f(MPI_Datatype h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Datatype MPI_Type_f2c(MPI_Fint h) { return (MPI_Datatype)h; }
GPUMPI_FN MPI_Fint MPI_Group_c2f(MPI_Group h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Group MPI_Group_f2c(MPI_Fint h) { return (MPI_Group)h; }
GPUMPI_FN MPI_Fint MPI_Request_c2f(MPI_Request h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Request MPI_Request_f2c(MPI_Fint h) { return (MPI_Request)h; }
GPUMPI_FN MPI_Fint MPI_Op_c2f(MPI_Op h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Op MPI_Op_f2c(MPI_Fint h) { return (MPI_Op)h; }
GPUMPI_FN MPI_Fint MPI_Info_c2f(MPI_Info h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Info MPI_Info_f2c(MPI_Fint h) { return (MPI_Info)h; }
GPUMPI_FN MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint h) { return (MPI_Errhandler)h; }
GPUMPI_FN MPI_Fint MPI_Message_c2f(MPI_Message h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Message MPI_Message_f2c(MPI_Fint h) { return (MPI_Message)h; }
GPUMPI_FN MPI_Fint MPI_Session_c2f(MPI_Session h) { return (MPI_Fint)h; }
GPUMPI_FN MPI_Session MPI_Session_f2c(MPI_Fint h) { return (MPI_Session)h; }

/* Every form of a status (C, Fortran's integer array, Fortran 2008's
 * struct) is the same bytes. */
GPUMPI_FN static int gp_status_copy(const char *fn, const void *from, void *to)
{
    if (!from || !to) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "a status argument is NULL (or MPI_STATUS_IGNORE)");
    gp_memcpy(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "MPI_F08_status holds a whole MPI_Status");

GPUMPI_FN int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    return gp_status_copy("MPI_Status_c2f", c_status, f_status);
}

GPUMPI_FN int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    return gp_status_copy("MPI_Status_f2c", f_status, c_status);
}

GPUMPI_FN int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return gp_status_copy("MPI_Status_c2f08", c_status, f08_status);
}

GPUMPI_FN int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return gp_status_copy("MPI_Status_f082c", f08_status, c_status);
}

GPUMPI_FN int MPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return gp_status_copy("MPI_Status_f2f08", f_status, f08_status);
}

GPUMPI_FN int MPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return gp_status_copy("MPI_Status_f082f", f08_status, f_status);
}
