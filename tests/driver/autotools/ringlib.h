/* A token passed around a ring of ranks, and the sum of the ranks' squares. */
#ifndef RINGLIB_H
#define RINGLIB_H
#include <mpi.h>

/* Each rank adds its rank to the token and passes it on; returns what
 * came back to rank 0 (every rank gets it). */
long ring_pass(MPI_Comm comm, long start);
double sum_of_squares(MPI_Comm comm);

#endif
