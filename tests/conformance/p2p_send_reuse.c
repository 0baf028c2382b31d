/* A large nonblocking send is still complete after the sender has made
 * more sends than it has message slots: the receiver takes the large one
 * first, then the sender starts nine small ones (eager) that the receiver
 * will not take until the sender's MPI_Wait on the large one has returned
 * and a last message says so. The runtime must not hand the large send's
 * slot to one of the small ones before the sender has seen it complete,
 * or that Wait never returns. Pairs of ranks (even sends to odd). Prints
 * " No Errors" when every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpitest.h"

enum { BIG = 1000, SMALL = 9, ROUNDS = 3 };

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int *big = malloc(sizeof(int) * BIG), partner = rank ^ 1;
    for (int round = 0; round < ROUNDS; round++) {
        int small[SMALL], go = -1;
        MPI_Request r, rs[SMALL];
        if (partner < size && rank % 2 == 0) {
            for (int i = 0; i < BIG; i++) big[i] = rank * 1000 + i + round;
            MPI_Isend(big, BIG, MPI_INT, partner, 1, MPI_COMM_WORLD, &r);
            MPI_Barrier(MPI_COMM_WORLD); /* the partner has received it */
            for (int i = 0; i < SMALL; i++) {
                small[i] = round * 100 + i;
                MPI_Isend(&small[i], 1, MPI_INT, partner, 2 + i, MPI_COMM_WORLD, &rs[i]);
            }
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            go = round;
            MPI_Send(&go, 1, MPI_INT, partner, 99, MPI_COMM_WORLD);
            MPI_Waitall(SMALL, rs, MPI_STATUSES_IGNORE);
        } else if (partner < size) {
            MPI_Recv(big, BIG, MPI_INT, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int ok = 1;
            for (int i = 0; i < BIG; i++) ok &= big[i] == partner * 1000 + i + round;
            CHECK(ok, "round %d: the large message", round);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Recv(&go, 1, MPI_INT, partner, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(go == round, "round %d: go message %d", round, go);
            for (int i = 0; i < SMALL; i++) {
                int v = -1;
                MPI_Recv(&v, 1, MPI_INT, partner, 2 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                CHECK(v == round * 100 + i, "round %d: small message %d: %d", round, i, v);
            }
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    free(big);
    return mt_finish();
}
