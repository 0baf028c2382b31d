/* Derived datatypes, packing and reduction operations (part of mpi.h). */
#ifndef GPUMPI_MPI_TYPES_H
#define GPUMPI_MPI_TYPES_H

#endif
