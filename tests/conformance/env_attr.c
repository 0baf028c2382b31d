/* The environment and attributes: thread levels, versions, names of
 * communicators, the predefined attributes, user keys with copy and delete
 * callbacks (run by MPI_Comm_dup, MPI_Comm_set_attr, MPI_Comm_delete_attr
 * and MPI_Comm_free), the MPI-1 spellings, MPI_Pcontrol. Self-checking:
 * rank 0 prints " No Errors" when every check passed on every rank. Any
 * number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static int deletes, last_deleted_key, copies;
static void *last_deleted;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)extra;
    deletes++;
    last_deleted_key = keyval;
    last_deleted = value;
    return MPI_SUCCESS;
}

/* copies value + 1 and counts in *extra */
static int plus_one_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (*(int *)extra)++;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int get_int_attr(MPI_Comm comm, int key, int *value)
{
    int *p = NULL, flag = 0;
    MPI_Comm_get_attr(comm, key, &p, &flag);
    if (flag) *value = *p;
    return flag;
}

static void environment(int provided)
{
    int q = -1, main_flag = 0, flag = 0;
    MPI_Query_thread(&q);
    CHECK(q == provided, "Query_thread %d, Init_thread provided %d", q, provided);
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided level %d", provided);
    MPI_Is_thread_main(&main_flag);
    CHECK(main_flag, "Is_thread_main");
    MPI_Initialized(&flag);
    CHECK(flag, "Initialized");
    MPI_Finalized(&flag);
    CHECK(!flag, "Finalized before MPI_Finalize");

    int v = 0, sv = -1;
    MPI_Get_version(&v, &sv);
    CHECK(v >= 3 && sv >= 0, "Get_version %d.%d", v, sv);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    MPI_Get_library_version(lib, &len);
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (int)strlen(lib) == len, "Get_library_version: %d",
          len);
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(host, &len);
    CHECK(len > 0 && (int)strlen(host) == len, "Get_processor_name: %d", len);
    CHECK(MPI_Pcontrol(0) == MPI_SUCCESS && MPI_Pcontrol(1) == MPI_SUCCESS && MPI_Pcontrol(2, "extra", 3) == MPI_SUCCESS,
          "Pcontrol");
    double t0 = MPI_Wtime(), t1 = MPI_Wtime();
    CHECK(t1 >= t0 && MPI_Wtick() > 0, "Wtime %g %g Wtick %g", t0, t1, MPI_Wtick());
    int inter = 1;
    MPI_Comm_test_inter(MPI_COMM_WORLD, &inter);
    CHECK(!inter, "MPI_COMM_WORLD is not an intercommunicator");
}

static void predefined_attributes(void)
{
    int v = 0;
    CHECK(get_int_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v) && v >= 32767, "MPI_TAG_UB: %d", v);
    /* the largest tag works */
    int out = 5, in = 0;
    MPI_Sendrecv(&out, 1, MPI_INT, rank, v, &in, 1, MPI_INT, rank, v, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in == 5, "a message with tag MPI_TAG_UB");
    v = -99;
    CHECK(get_int_attr(MPI_COMM_WORLD, MPI_HOST, &v) && (v == MPI_PROC_NULL || (v >= 0 && v < size)), "MPI_HOST: %d",
          v);
    v = -99;
    CHECK(get_int_attr(MPI_COMM_WORLD, MPI_IO, &v) && (v == MPI_ANY_SOURCE || v == MPI_PROC_NULL || (v >= 0 && v < size)),
          "MPI_IO: %d", v);
    v = -99;
    CHECK(get_int_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v) && (v == 0 || v == 1), "MPI_WTIME_IS_GLOBAL: %d", v);
    v = -99;
    if (get_int_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v)) CHECK(v >= size, "MPI_UNIVERSE_SIZE: %d", v);
    v = -99;
    if (get_int_attr(MPI_COMM_WORLD, MPI_APPNUM, &v)) CHECK(v == 0, "MPI_APPNUM: %d", v);
    /* the MPI-1 spelling */
    int *p = NULL, flag = 0;
    MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
    CHECK(flag && *p >= 32767, "Attr_get(MPI_TAG_UB)");
}

static void names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14, "world's name '%s' (%d)", name, len);
    MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
    CHECK(!strcmp(name, "MPI_COMM_SELF") && len == 13, "self's name '%s' (%d)", name, len);
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_get_name(d, name, &len);
    CHECK(len == 0 && name[0] == 0, "a new communicator has no name: '%s'", name);
    MPI_Comm_set_name(d, "halo exchange");
    MPI_Comm_get_name(d, name, &len);
    CHECK(!strcmp(name, "halo exchange") && len == 13, "set then get: '%s'", name);
    MPI_Comm_set_name(d, "x");
    MPI_Comm_get_name(d, name, &len);
    CHECK(!strcmp(name, "x") && len == 1, "renamed: '%s'", name);
    char longest[MPI_MAX_OBJECT_NAME];
    memset(longest, 'n', sizeof longest - 1);
    longest[sizeof longest - 1] = 0;
    MPI_Comm_set_name(d, longest);
    MPI_Comm_get_name(d, name, &len);
    CHECK(len == MPI_MAX_OBJECT_NAME - 1 && !strcmp(name, longest), "a name of MPI_MAX_OBJECT_NAME - 1 chars: %d", len);
    MPI_Comm_set_name(MPI_COMM_WORLD, "everyone");
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(!strcmp(name, "everyone"), "world renamed: '%s'", name);
    MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    MPI_Comm_free(&d);
}

static void user_keys(void)
{
    int copy_count = 0, k_dup, k_null, k_plus, flag = 0;
    static int x, y;
    void *v = NULL;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &k_dup, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k_null, NULL);
    MPI_Comm_create_keyval(plus_one_copy, count_delete, &k_plus, &copy_count);
    CHECK(k_dup != k_null && k_null != k_plus && k_dup != k_plus, "keys differ");

    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_get_attr(a, k_dup, &v, &flag);
    CHECK(!flag, "no attribute before one is set");
    MPI_Comm_set_attr(a, k_dup, &x);
    MPI_Comm_set_attr(a, k_null, &y);
    MPI_Comm_set_attr(a, k_plus, (char *)&x + 8);
    MPI_Comm_get_attr(a, k_dup, &v, &flag);
    CHECK(flag && v == &x, "get what was set");

    /* replacing a value deletes the old one */
    deletes = 0;
    MPI_Comm_set_attr(a, k_dup, &y);
    CHECK(deletes == 1 && last_deleted == &x && last_deleted_key == k_dup, "replace: %d deletes", deletes);
    MPI_Comm_get_attr(a, k_dup, &v, &flag);
    CHECK(flag && v == &y, "the new value");

    /* dup: DUP_FN copies, NULL_COPY_FN does not, ours adds one */
    copies = 0;
    MPI_Comm_dup(a, &b);
    MPI_Comm_get_attr(b, k_dup, &v, &flag);
    CHECK(flag && v == &y, "MPI_COMM_DUP_FN copied the value");
    MPI_Comm_get_attr(b, k_null, &v, &flag);
    CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied nothing");
    MPI_Comm_get_attr(b, k_plus, &v, &flag);
    CHECK(flag && v == (char *)&x + 9, "the user copy function's value");
    CHECK(copy_count == 1 && copies == 1, "the copy function got its extra state: %d", copy_count);
    /* the original keeps its values */
    MPI_Comm_get_attr(a, k_plus, &v, &flag);
    CHECK(flag && v == (char *)&x + 8, "the original's value");

    /* delete_attr runs the delete callback */
    deletes = 0;
    MPI_Comm_delete_attr(b, k_plus);
    CHECK(deletes == 1 && last_deleted == (char *)&x + 9 && last_deleted_key == k_plus, "delete_attr: %d", deletes);
    MPI_Comm_get_attr(b, k_plus, &v, &flag);
    CHECK(!flag, "no attribute after delete_attr");

    /* freeing a key keeps its attributes until the communicator goes */
    MPI_Comm_free_keyval(&k_dup);
    CHECK(k_dup == MPI_KEYVAL_INVALID, "free_keyval sets MPI_KEYVAL_INVALID");
    deletes = 0;
    MPI_Comm_free(&b); /* k_dup's value */
    CHECK(deletes == 1 && last_deleted == &y, "Comm_free deleted %d attributes, want 1", deletes);
    deletes = 0;
    MPI_Comm_free(&a); /* k_dup's and k_plus's (k_null has no delete callback) */
    CHECK(deletes == 2, "Comm_free deleted %d attributes, want 2", deletes);
    MPI_Comm_free_keyval(&k_null);
    MPI_Comm_free_keyval(&k_plus);

    /* the MPI-1 spellings */
    int k1;
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k1, NULL);
    MPI_Comm c, c2;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Attr_put(c, k1, &x);
    MPI_Comm_dup(c, &c2);
    MPI_Attr_get(c2, k1, &v, &flag);
    CHECK(flag && v == &x, "MPI_DUP_FN through Keyval_create and Attr_put");
    MPI_Attr_delete(c2, k1);
    MPI_Attr_get(c2, k1, &v, &flag);
    CHECK(!flag, "Attr_delete");
    int k2;
    MPI_Keyval_create(MPI_NULL_COPY_FN, count_delete, &k2, NULL);
    MPI_Attr_put(c, k2, &y);
    MPI_Comm_free(&c2);
    deletes = 0;
    MPI_Comm_free(&c);
    CHECK(deletes == 1 && last_deleted == &y, "MPI-1 key deleted with the communicator: %d", deletes);
    MPI_Keyval_free(&k1);
    MPI_Keyval_free(&k2);
    CHECK(k1 == MPI_KEYVAL_INVALID && k2 == MPI_KEYVAL_INVALID, "Keyval_free");

    /* errors: a freed key, a predefined key set by the program */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1, rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &x);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS, "setting MPI_TAG_UB is an error");
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, -12345, &v, &flag);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_KEYVAL, "an invalid key: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    environment(provided);
    predefined_attributes();
    names();
    user_keys();

    return mt_finish();
}
