/* Collectives (part of mpi.h). */
#ifndef GPUMPI_MPI_COLL_H
#define GPUMPI_MPI_COLL_H

GPUMPI_FN int MPI_Barrier(MPI_Comm comm);
GPUMPI_FN int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
GPUMPI_FN int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         int root, MPI_Comm comm);
GPUMPI_FN int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm);

#endif
