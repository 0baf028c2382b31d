/* The MPI_ERROR field of a status (MPI-3.1 3.2.5): calls that return one
 * status (MPI_Recv, MPI_Sendrecv, MPI_Wait, MPI_Test, MPI_Waitany,
 * MPI_Mrecv, MPI_Request_get_status of a request that was active) leave it
 * as it was; the calls that return several set it in every status when, and only
 * when, they return MPI_ERR_IN_STATUS (a truncated receive among them,
 * under MPI_ERRORS_RETURN). Prints " No Errors" when every check passed on
 * every rank. Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include "mpitest.h"

#define UNTOUCHED 4242 /* no MPI error code */

static void fill(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++) st[i].MPI_ERROR = UNTOUCHED;
}

/* one status: never written */
static void single(int left, int right)
{
    int in = -1, out = rank, flag = 0, index = -1;
    MPI_Status st;
    MPI_Request r;
    MPI_Message msg;

    fill(&st, 1);
    MPI_Sendrecv(&out, 1, MPI_INT, right, 1, &in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_ERROR == UNTOUCHED && in == left, "MPI_Sendrecv: MPI_ERROR %d, got %d", st.MPI_ERROR, in);

    MPI_Irecv(&in, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r);
    MPI_Send(&out, 1, MPI_INT, right, 2, MPI_COMM_WORLD);
    fill(&st, 1);
    MPI_Wait(&r, &st);
    CHECK(st.MPI_ERROR == UNTOUCHED, "MPI_Wait: MPI_ERROR %d", st.MPI_ERROR);

    MPI_Irecv(&in, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &r);
    MPI_Send(&out, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
    fill(&st, 1);
    for (flag = 0; !flag;) MPI_Test(&r, &flag, &st);
    CHECK(st.MPI_ERROR == UNTOUCHED, "MPI_Test: MPI_ERROR %d", st.MPI_ERROR);

    MPI_Irecv(&in, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &r);
    MPI_Send(&out, 1, MPI_INT, right, 4, MPI_COMM_WORLD);
    fill(&st, 1);
    MPI_Waitany(1, &r, &index, &st);
    CHECK(st.MPI_ERROR == UNTOUCHED && index == 0, "MPI_Waitany: MPI_ERROR %d", st.MPI_ERROR);

    MPI_Request sr; /* a send nothing is posted for yet: nonblocking, as one rank sends to itself */
    MPI_Isend(&out, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &sr);
    /* (MPICH 4.0 writes MPI_SUCCESS there in MPI_Probe and MPI_Iprobe: not checked) */
    MPI_Probe(left, 5, MPI_COMM_WORLD, &st);
    for (flag = 0; !flag;) MPI_Iprobe(left, 5, MPI_COMM_WORLD, &flag, &st);
    fill(&st, 1);
    MPI_Recv(&in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_ERROR == UNTOUCHED && in == left, "MPI_Recv: MPI_ERROR %d", st.MPI_ERROR);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);

    MPI_Isend(&out, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &sr);
    MPI_Mprobe(left, 6, MPI_COMM_WORLD, &msg, &st);
    fill(&st, 1);
    MPI_Mrecv(&in, 1, MPI_INT, &msg, &st);
    CHECK(st.MPI_ERROR == UNTOUCHED && in == left, "MPI_Mrecv: MPI_ERROR %d", st.MPI_ERROR);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);

    MPI_Irecv(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &r);
    MPI_Send(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
    fill(&st, 1);
    for (flag = 0; !flag;) MPI_Request_get_status(r, &flag, &st);
    CHECK(st.MPI_ERROR == UNTOUCHED, "MPI_Request_get_status: MPI_ERROR %d", st.MPI_ERROR);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* several: set in every status when one of them failed */
static void several(int left, int right)
{
    int in[2] = {-1, -1}, small = -1, out[2] = {rank, rank}, cls = -1;
    MPI_Status st[2];
    MPI_Request r[2];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* request 0 fits, request 1 is truncated (2 ints into 1) */
    MPI_Irecv(in, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&small, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &r[1]);
    MPI_Send(out, 1, MPI_INT, right, 8, MPI_COMM_WORLD);
    MPI_Send(out, 2, MPI_INT, right, 9, MPI_COMM_WORLD);
    fill(st, 2);
    int rc = MPI_Waitall(2, r, st);
    CHECK(rc == MPI_ERR_IN_STATUS, "MPI_Waitall with a truncated receive: returned %d, want MPI_ERR_IN_STATUS", rc);
    CHECK(st[0].MPI_ERROR == MPI_SUCCESS, "MPI_Waitall: the receive that fit has MPI_ERROR %d", st[0].MPI_ERROR);
    MPI_Error_class(st[1].MPI_ERROR, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Waitall: the truncated receive has MPI_ERROR of class %d", cls);

    MPI_Irecv(in, 1, MPI_INT, left, 10, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&small, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &r[1]);
    MPI_Send(out, 1, MPI_INT, right, 10, MPI_COMM_WORLD);
    MPI_Send(out, 2, MPI_INT, right, 11, MPI_COMM_WORLD);
    int flag = 0;
    fill(st, 2);
    for (rc = MPI_SUCCESS; !flag && rc == MPI_SUCCESS;) rc = MPI_Testall(2, r, &flag, st);
    CHECK(rc == MPI_ERR_IN_STATUS, "MPI_Testall with a truncated receive: returned %d, want MPI_ERR_IN_STATUS", rc);
    CHECK(st[0].MPI_ERROR == MPI_SUCCESS, "MPI_Testall: the receive that fit has MPI_ERROR %d", st[0].MPI_ERROR);
    MPI_Error_class(st[1].MPI_ERROR, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Testall: the truncated receive has MPI_ERROR of class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    single(left, right);
    MPI_Barrier(MPI_COMM_WORLD);
    several(left, right);
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total) printf(" Found %d errors\n", total);
        else printf(" No Errors\n");
    }
    MPI_Finalize();
    return 0;
}
