/* Error classes and codes of the program's own: MPI_Add_error_class,
 * MPI_Add_error_code, MPI_Add_error_string; MPI_Error_class and
 * MPI_Error_string then know them, MPI_LASTUSEDCODE covers them, and user
 * error handlers receive them through MPI_Comm_call_errhandler. Also a
 * user handler called by a failing call on a duplicated communicator, and
 * MPI_Get_library_version / MPI_Is_thread_main. Self-checking: rank 0
 * prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    last_code = *code;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int cls1, cls2, code1, code2, code3, c = -1, len = -1;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&cls1);
    MPI_Add_error_class(&cls2);
    MPI_Add_error_code(cls1, &code1);
    MPI_Add_error_code(cls1, &code2);
    MPI_Add_error_code(MPI_ERR_ARG, &code3);
    CHECK(cls1 != cls2 && code1 != code2 && code1 != cls1 && code2 != cls2 && code3 != code1, "values differ");
    CHECK(cls1 > MPI_ERR_LASTCODE && cls2 > MPI_ERR_LASTCODE, "classes %d %d above MPI_ERR_LASTCODE %d", cls1, cls2,
          MPI_ERR_LASTCODE);
    MPI_Error_class(code1, &c);
    CHECK(c == cls1, "class of code1 %d, want %d", c, cls1);
    MPI_Error_class(code2, &c);
    CHECK(c == cls1, "class of code2 %d, want %d", c, cls1);
    MPI_Error_class(code3, &c);
    CHECK(c == MPI_ERR_ARG, "class of code3 %d, want MPI_ERR_ARG", c);
    MPI_Error_class(cls2, &c);
    CHECK(c == cls2, "a class is its own class: %d", c);
    MPI_Add_error_string(cls1, "my first class");
    MPI_Add_error_string(code1, "disk on fire");
    MPI_Add_error_string(code2, "disk too cold");
    MPI_Add_error_string(code2, "disk just right"); /* replaced */
    MPI_Error_string(code1, text, &len);
    CHECK(!strcmp(text, "disk on fire") && len == 12, "code1 text '%s' (%d)", text, len);
    MPI_Error_string(code2, text, &len);
    CHECK(!strcmp(text, "disk just right"), "code2 text '%s'", text);
    MPI_Error_string(cls1, text, &len);
    CHECK(!strcmp(text, "my first class"), "class text '%s'", text);
    int *last = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    /* (MPICH's codes carry more bits than its classes: only classes are compared) */
    CHECK(flag && *last >= cls1 && *last >= cls2,
          "MPI_LASTUSEDCODE %d", flag ? *last : -1);

    /* a user handler gets the added code, and the comm */
    MPI_Errhandler eh;
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(d, eh);
    MPI_Errhandler_free(&eh);
    MPI_Comm_call_errhandler(d, code1);
    CHECK(calls == 1 && last_code == code1 && last_comm == d, "handler: %d calls, code %d", calls, last_code);
    /* and a failing call on d goes through it */
    int x = 0, rc = MPI_Send(&x, 1, MPI_INT, -42, 0, d);
    MPI_Error_class(last_code, &c);
    CHECK(calls == 2 && c == MPI_ERR_RANK && last_comm == d && rc != MPI_SUCCESS, "handler on Send: %d calls, class %d",
          calls, c);
    rc = MPI_Recv(&x, 1, MPI_DATATYPE_NULL, 0, 0, d, MPI_STATUS_IGNORE);
    MPI_Error_class(last_code, &c);
    CHECK(calls == 3 && c == MPI_ERR_TYPE, "handler on Recv: %d calls, class %d", calls, c);
    MPI_Comm_free(&d);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(lib, &len);
    CHECK(len > 0 && (int)strlen(lib) == len, "library version length %d", len);
    int main_thread = 0;
    MPI_Is_thread_main(&main_thread);
    CHECK(main_thread, "Is_thread_main");
    return mt_finish();
}
