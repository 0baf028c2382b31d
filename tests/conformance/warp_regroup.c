/* Neighbouring ranks doing different things between blocking calls. On
 * the GPU a warp's 32 ranks wait for each other a while after a blocking
 * call so that they go on in step (warp_regroup.cu); they must never wait
 * for a rank that waits for them, nor for one that will not come. Here: a
 * pipeline (each rank waits for the one before it, then passes the value
 * on), ranks making different numbers of blocking calls between the same
 * exchanges, broadcasts and reductions with the root moving, and half the
 * ranks going on exchanging while the other half have gone on to the
 * closing report and MPI_Finalize. Every value is checked. Prints
 * " No Errors". */
#include <mpi.h>
#include <stdio.h>
#include "mpitest.h"

enum { PASSES = 40, ROUNDS = 30 };

static void pipeline(void)
{
    for (int pass = 0; pass < PASSES; pass++) {
        long long v = 0;
        MPI_Request r;
        if (rank > 0) {
            MPI_Irecv(&v, 1, MPI_LONG_LONG, rank - 1, pass, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        v += rank + pass;
        CHECK(v == (long long)rank * (rank + 1) / 2 + (long long)(rank + 1) * pass, "pass %d: got %lld", pass, v);
        if (rank < size - 1) {
            MPI_Isend(&v, 1, MPI_LONG_LONG, rank + 1, pass, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
}

/* a ring shift with Waitall, some ranks first waiting on messages to
 * themselves (a different number of blocking calls each round) */
static void uneven(void)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < (rank + round) % 3; k++) {
            int out = rank * 100 + k, in = -1;
            MPI_Request q[2];
            MPI_Irecv(&in, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(&out, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &q[1]);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
            CHECK(in == out, "round %d: message to self %d, got %d", round, out, in);
        }
        double send[20], recv[20];
        for (int i = 0; i < 20; i++) send[i] = rank * 1000.0 + round * 20 + i;
        MPI_Request q[2];
        MPI_Irecv(recv, 20, MPI_DOUBLE, left, round, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(send, 20, MPI_DOUBLE, right, round, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        int bad = 0;
        for (int i = 0; i < 20; i++) bad += recv[i] != left * 1000.0 + round * 20 + i;
        CHECK(!bad, "round %d: %d values from rank %d wrong", round, bad, left);
    }
}

static void rooted(void)
{
    for (int call = 0; call < ROUNDS; call++) {
        int root = (call * 5) % size, v = rank == root ? call * 3 + 1 : -1;
        long long me = rank, sum = -1; /* the sum of 270,336 ranks does not fit an int */
        MPI_Bcast(&v, 1, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(v == call * 3 + 1, "bcast %d from %d: got %d", call, root, v);
        MPI_Reduce(&me, &sum, 1, MPI_LONG_LONG, MPI_SUM, root, MPI_COMM_WORLD);
        if (rank == root)
            CHECK(sum == (long long)size * (size - 1) / 2, "reduce %d to %d: got %lld", call, root, sum);
    }
}

/* even ranks exchange in pairs while the odd ones have gone on to the
 * closing report */
static void half_gone(void)
{
    int partner = rank ^ 2;
    if (rank % 2 || partner >= size) return;
    for (int round = 0; round < ROUNDS; round++) {
        int out = rank * 10 + round, in = -1;
        MPI_Request q[2];
        MPI_Irecv(&in, 1, MPI_INT, partner, round, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(&out, 1, MPI_INT, partner, round, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        CHECK(in == partner * 10 + round, "round %d: from %d got %d", round, partner, in);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    pipeline();
    uneven();
    rooted();
    half_gone();
    return mt_finish();
}
