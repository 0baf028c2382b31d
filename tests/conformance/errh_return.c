/* Error handlers: MPI_ERRORS_RETURN on MPI_COMM_WORLD makes invalid
 * arguments return their error class and the program go on; a truncated
 * message returns MPI_ERR_TRUNCATE with its status filled in; user
 * handlers are called with the communicator and the code, and are
 * inherited by new communicators. Error classes are compared through
 * MPI_Error_class and the MPI_ERR_* names (values differ between MPI
 * libraries). Self-checking: rank 0 prints " No Errors" when every check
 * passed on every rank. Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

/* rc is an error of class want, and its text is not empty */
static void expect_class(int rc, int want, const char *what)
{
    int cls = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    text[0] = 0;
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &cls);
        MPI_Error_string(rc, text, &len);
    }
    CHECK(rc != MPI_SUCCESS && cls == want, "%s: returned %d (class %d), want class %d", what, rc, cls, want);
    CHECK(len > 0 && (int)strlen(text) == len, "%s: error string of length %d", what, len);
}

static int handler_calls, handler_code;
static MPI_Comm handler_comm;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_comm = *comm;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);

    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "the default handler on MPI_COMM_WORLD is MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "get after set gives MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);

    /* invalid arguments: each returns its class, nothing is sent */
    int buf[4] = {1, 2, 3, 4};
    expect_class(MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send to rank size");
    expect_class(MPI_Send(buf, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send to rank -7");
    expect_class(MPI_Send(buf, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG, "Send with tag -5");
    expect_class(MPI_Send(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "Send with count -1");
    expect_class(MPI_Send(buf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send of MPI_DATATYPE_NULL");
    expect_class(MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM, "Send on MPI_COMM_NULL");
    MPI_Request req = MPI_REQUEST_NULL;
    expect_class(MPI_Irecv(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK, "Irecv from rank size+3");
    expect_class(MPI_Recv(buf, 1, MPI_INT, 0, -9, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TAG, "Recv with tag -9");
    expect_class(MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "Bcast from root size");
    expect_class(MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "Bcast from root -1");
    expect_class(MPI_Reduce(buf, buf + 1, 1, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD), MPI_ERR_ROOT,
                 "Reduce to root size");
    expect_class(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "Barrier on MPI_COMM_NULL");
    int sz;
    expect_class(MPI_Comm_size(MPI_COMM_NULL, &sz), MPI_ERR_COMM, "Comm_size of MPI_COMM_NULL");
    MPI_Comm world_copy = MPI_COMM_WORLD;
    expect_class(MPI_Comm_free(&world_copy), MPI_ERR_COMM, "Comm_free of MPI_COMM_WORLD");
    int gs;
    expect_class(MPI_Group_size(MPI_GROUP_NULL, &gs), MPI_ERR_GROUP, "Group_size of MPI_GROUP_NULL");

    /* the program goes on: a ring still works */
    int right = (rank + 1) % size, left = (rank - 1 + size) % size, got = -1;
    MPI_Status st;
    int rc = MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
    CHECK(rc == MPI_SUCCESS && got == left, "ring after errors: rc %d got %d", rc, got);

    /* truncation: 4 ints into room for 2, blocking and nonblocking */
    int small[2] = {-1, -1};
    MPI_Request sr;
    MPI_Isend(buf, 4, MPI_INT, right, 2, MPI_COMM_WORLD, &sr);
    rc = MPI_Recv(small, 2, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
    expect_class(rc, MPI_ERR_TRUNCATE, "Recv of 4 ints into 2");
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 2, "truncated Recv status: source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Isend(buf, 4, MPI_INT, right, 3, MPI_COMM_WORLD, &sr);
    MPI_Irecv(small, 2, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &req);
    rc = MPI_Wait(&req, &st);
    expect_class(rc, MPI_ERR_TRUNCATE, "Irecv + Wait of 4 ints into 2");
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 3, "truncated Wait status: source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);

    /* MPI_Error_class and MPI_Error_string of the classes themselves */
    int classes[] = {MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM, MPI_ERR_RANK,
                     MPI_ERR_REQUEST, MPI_ERR_ROOT, MPI_ERR_GROUP, MPI_ERR_OP, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS,
                     MPI_ERR_ARG, MPI_ERR_UNKNOWN, MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN,
                     MPI_ERR_IN_STATUS, MPI_ERR_PENDING, MPI_ERR_KEYVAL, MPI_ERR_NO_MEM};
    unsigned long seen[32]; /* a hash of each text: they must differ */
    int nc = sizeof classes / sizeof classes[0], len = 0, cls = -1;
    char text[MPI_MAX_ERROR_STRING];
    for (int i = 0; i < nc; i++) {
        MPI_Error_class(classes[i], &cls);
        CHECK(cls == classes[i], "Error_class of class %d is %d", classes[i], cls);
        len = 0;
        MPI_Error_string(classes[i], text, &len);
        CHECK(len > 0 && (int)strlen(text) == len, "Error_string of class %d: length %d", classes[i], len);
        seen[i] = 5381;
        for (int c = 0; text[c]; c++) seen[i] = seen[i] * 33 + (unsigned char)text[c];
        for (int j = 0; j < i; j++) CHECK(seen[i] != seen[j], "classes %d and %d share a text", classes[i], classes[j]);
    }
    MPI_Error_string(MPI_SUCCESS, text, &len);
    CHECK(len > 0, "Error_string of MPI_SUCCESS");
    MPI_Error_class(MPI_SUCCESS, &cls);
    CHECK(cls == MPI_SUCCESS, "Error_class of MPI_SUCCESS: %d", cls);

    /* a new communicator inherits MPI_ERRORS_RETURN */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_errhandler(dup, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "a dup inherits MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);

    /* a user handler: called with the communicator and the code */
    MPI_Errhandler mine;
    MPI_Comm_create_errhandler(my_handler, &mine);
    MPI_Comm_set_errhandler(dup, mine);
    rc = MPI_Send(buf, 1, MPI_INT, size + 1, 0, dup);
    int hc = -1;
    if (handler_calls) MPI_Error_class(handler_code, &hc);
    CHECK(handler_calls == 1, "the user handler ran %d times, want 1", handler_calls);
    CHECK(handler_comm == dup, "the user handler got the communicator");
    CHECK(hc == MPI_ERR_RANK, "the user handler got class %d, want MPI_ERR_RANK", hc);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_RANK, "the call returned class %d after the handler", cls);
    /* the world is untouched */
    handler_calls = 0;
    expect_class(MPI_Send(buf, 1, MPI_INT, size + 1, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "Send on world");
    CHECK(handler_calls == 0, "the user handler ran for another communicator");
    /* MPI_Comm_call_errhandler */
    MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER);
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_comm == dup,
          "Comm_call_errhandler: %d calls, code %d", handler_calls, handler_code);
    /* inherited by a split of dup, even after the handle is freed */
    MPI_Errhandler_free(&mine);
    CHECK(mine == MPI_ERRHANDLER_NULL, "Errhandler_free sets MPI_ERRHANDLER_NULL");
    MPI_Comm sub;
    MPI_Comm_split(dup, rank % 2, rank, &sub);
    handler_calls = 0;
    MPI_Comm_call_errhandler(sub, MPI_ERR_ARG);
    CHECK(handler_calls == 1 && handler_comm == sub && handler_code == MPI_ERR_ARG,
          "the split inherited the user handler: %d calls", handler_calls);
    MPI_Comm_get_errhandler(sub, &eh);
    MPI_Comm_set_errhandler(sub, MPI_ERRORS_RETURN);
    handler_calls = 0;
    expect_class(MPI_Send(buf, 1, MPI_INT, -10, 0, sub), MPI_ERR_RANK, "Send on the split, MPI_ERRORS_RETURN again");
    CHECK(handler_calls == 0, "the handler ran after it was replaced");
    MPI_Comm_set_errhandler(sub, eh); /* the handle from get still works */
    MPI_Comm_call_errhandler(sub, MPI_ERR_COUNT);
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_COUNT, "handler set back from get: %d calls", handler_calls);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&dup);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mt_finish();
}
