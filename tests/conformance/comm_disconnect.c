/* MPI_Comm_disconnect on communicators that are not from dynamic
 * processes: it waits for the rank's pending communication on the
 * communicator (here a send and a receive the program freed, which only
 * the disconnect can see finish), frees it and sets the handle to
 * MPI_COMM_NULL; on a duplicate of MPI_COMM_WORLD, on a split one and on
 * an intercommunicator. Self-checking: rank 0 prints " No Errors". Any
 * number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

/* MPICH 4.0.2 does not wait for the freed receives (it only synchronizes
 * and frees), so what they got is checked under gpumpi alone; the buffers
 * outlive the calls, as a receive may land after them there. */
static int out1, in1, out2, in2;

static void with_pending(const char *what, MPI_Comm c)
{
    int me, n;
    int *out = &out1, *in = &in1;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    if (!strcmp(what, "split")) {
        out = &out2;
        in = &in2;
    }
    *out = me * 3 + 1;
    *in = -1;
    MPI_Request rs, rr;
    MPI_Irecv(in, 1, MPI_INT, (me + n - 1) % n, 4, c, &rr);
    MPI_Isend(out, 1, MPI_INT, (me + 1) % n, 4, c, &rs);
    MPI_Request_free(&rr);
    MPI_Request_free(&rs);
    int rc = MPI_Comm_disconnect(&c);
    CHECK(rc == MPI_SUCCESS && c == MPI_COMM_NULL, "%s: MPI_Comm_disconnect returned %d, handle %s", what, rc,
          c == MPI_COMM_NULL ? "MPI_COMM_NULL" : "not MPI_COMM_NULL");
#ifndef MPICH_VERSION
    int from = (me + n - 1) % n;
    CHECK(*in == from * 3 + 1, "%s: the freed receive got %d, want %d", what, *in, from * 3 + 1);
#endif
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    with_pending("dup", dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    with_pending("split", half);
    if (size >= 2) {
        MPI_Comm local, inter;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 8, &inter);
        static int out, in;
        int lsize, rsize, lr, partner = -1;
        out = rank * 5 + 2;
        in = -1;
        MPI_Comm_size(inter, &lsize);
        MPI_Comm_remote_size(inter, &rsize);
        MPI_Comm_rank(inter, &lr);
        if (lr < lsize && lr < rsize) { /* local rank i and remote rank i swap, with freed requests */
            MPI_Request r[2];
            MPI_Irecv(&in, 1, MPI_INT, lr, 2, inter, &r[0]);
            MPI_Isend(&out, 1, MPI_INT, lr, 2, inter, &r[1]);
            MPI_Request_free(&r[0]);
            MPI_Request_free(&r[1]);
            partner = 2 * lr + (rank % 2 ? 0 : 1); /* its world rank: the other parity's lr-th */
        }
        int rc = MPI_Comm_disconnect(&inter);
        CHECK(rc == MPI_SUCCESS && inter == MPI_COMM_NULL, "intercommunicator: MPI_Comm_disconnect returned %d", rc);
#ifndef MPICH_VERSION
        if (partner >= 0)
            CHECK(in == partner * 5 + 2, "intercommunicator: the freed receive got %d, want %d", in, partner * 5 + 2);
#else
        (void)partner;
#endif
        MPI_Comm_free(&local);
    }
    return mt_finish();
}
