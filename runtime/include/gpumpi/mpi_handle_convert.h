/* Handle conversions between C and Fortran (part of mpi.h): what a C
 * library hands to Fortran code, or gets from it. Every gpumpi handle is
 * already an int, so a Fortran handle (MPI_Fint) is the same number. */
#ifndef GPUMPI_MPI_HANDLE_CONVERT_H
#define GPUMPI_MPI_HANDLE_CONVERT_H

typedef int MPI_Fint;
/* A status as Fortran sees it: MPI_F_STATUS_SIZE integers. */
#define MPI_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2

GPUMPI_FN MPI_Fint MPI_Comm_c2f(MPI_Comm comm);
GPUMPI_FN MPI_Comm MPI_Comm_f2c(MPI_Fint comm);
GPUMPI_FN MPI_Fint MPI_Type_c2f(MPI_Datatype datatype);
GPUMPI_FN MPI_Datatype MPI_Type_f2c(MPI_Fint datatype);
GPUMPI_FN MPI_Fint MPI_Group_c2f(MPI_Group group);
GPUMPI_FN MPI_Group MPI_Group_f2c(MPI_Fint group);
GPUMPI_FN MPI_Fint MPI_Request_c2f(MPI_Request request);
GPUMPI_FN MPI_Request MPI_Request_f2c(MPI_Fint request);
GPUMPI_FN MPI_Fint MPI_Op_c2f(MPI_Op op);
GPUMPI_FN MPI_Op MPI_Op_f2c(MPI_Fint op);
GPUMPI_FN MPI_Fint MPI_Info_c2f(MPI_Info info);
GPUMPI_FN MPI_Info MPI_Info_f2c(MPI_Fint info);
GPUMPI_FN MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler);
GPUMPI_FN MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler);
GPUMPI_FN MPI_Fint MPI_Message_c2f(MPI_Message message);
GPUMPI_FN MPI_Message MPI_Message_f2c(MPI_Fint message);
GPUMPI_FN MPI_Fint MPI_Session_c2f(MPI_Session session);
GPUMPI_FN MPI_Session MPI_Session_f2c(MPI_Fint session);
GPUMPI_FN int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
GPUMPI_FN int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
/* A status as Fortran 2008's TYPE(MPI_Status) holds it (MPI-4.0 19.3.5):
 * the public fields, then the rest of MPI_Status as it is. */
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint gp_private[MPI_F_STATUS_SIZE - 3];
} MPI_F08_status;
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status *)0)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)0)
GPUMPI_FN int MPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status);
GPUMPI_FN int MPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status);
GPUMPI_FN int MPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status);
GPUMPI_FN int MPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status);

/* The profiling names of the conversions (MPICH's tests call them): there
 * is nothing in a conversion for a profiling layer to intercept. */
#define PMPI_Comm_c2f MPI_Comm_c2f
#define PMPI_Comm_f2c MPI_Comm_f2c
#define PMPI_Type_c2f MPI_Type_c2f
#define PMPI_Type_f2c MPI_Type_f2c
#define PMPI_Group_c2f MPI_Group_c2f
#define PMPI_Group_f2c MPI_Group_f2c
#define PMPI_Request_c2f MPI_Request_c2f
#define PMPI_Request_f2c MPI_Request_f2c
#define PMPI_Op_c2f MPI_Op_c2f
#define PMPI_Op_f2c MPI_Op_f2c
#define PMPI_Info_c2f MPI_Info_c2f
#define PMPI_Info_f2c MPI_Info_f2c
#define PMPI_Errhandler_c2f MPI_Errhandler_c2f
#define PMPI_Errhandler_f2c MPI_Errhandler_f2c
#define PMPI_Message_c2f MPI_Message_c2f
#define PMPI_Message_f2c MPI_Message_f2c
#define PMPI_Session_c2f MPI_Session_c2f
#define PMPI_Session_f2c MPI_Session_f2c
#define PMPI_Status_c2f MPI_Status_c2f
#define PMPI_Status_f2c MPI_Status_f2c
#define PMPI_Status_c2f08 MPI_Status_c2f08
#define PMPI_Status_f082c MPI_Status_f082c
#define PMPI_Status_f2f08 MPI_Status_f2f08
#define PMPI_Status_f082f MPI_Status_f082f

#endif
