#include "config.h"
#include "ringlib.h"

#include <math.h>

static inline long add_rank(long token, int rank) { return token + rank; }

long ring_pass(MPI_Comm comm, long start)
{
    int rank, size;
    long token = start;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size > 1) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_LONG, 1, 0, comm);
            MPI_Recv(&token, 1, MPI_LONG, size - 1, 0, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_LONG, rank - 1, 0, comm, MPI_STATUS_IGNORE);
            token = add_rank(token, rank);
            MPI_Send(&token, 1, MPI_LONG, (rank + 1) % size, 0, comm);
        }
    }
    MPI_Bcast(&token, 1, MPI_LONG, 0, comm);
    return token;
}

double sum_of_squares(MPI_Comm comm)
{
    int rank;
    double mine, sum = 0;
    MPI_Comm_rank(comm, &rank);
    mine = (double)rank * rank;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    return sqrt(sum * sum);
}
