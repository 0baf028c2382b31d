/* Communicators, groups, topologies, error handlers and attributes (part of mpi.h). */
#ifndef GPUMPI_MPI_COMM_H
#define GPUMPI_MPI_COMM_H

GPUMPI_FN int MPI_Comm_rank(MPI_Comm comm, int *rank);
GPUMPI_FN int MPI_Comm_size(MPI_Comm comm, int *size);

#endif
