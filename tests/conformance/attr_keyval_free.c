/* A key freed while attributes still use it (communicator and datatype
 * keys): MPI_*_free_keyval frees the handle at once, the key lives on
 * until its last attribute is deleted, and its delete callback still
 * runs then. Also MPICH's pattern of a delete callback that frees its own
 * key after the program freed it (the later frees change nothing).
 * Self-checking: rank 0 prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include "mpitest.h"

static int deletes, last_key;
static void *last_value;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)extra;
    deletes++;
    last_key = keyval;
    last_value = value;
    return MPI_SUCCESS;
}

static int count_type_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type;
    (void)extra;
    deletes++;
    last_key = keyval;
    last_value = value;
    return MPI_SUCCESS;
}

static int delete_and_free_key(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)value;
    (void)extra;
    deletes++;
    return MPI_Comm_free_keyval(&keyval);
}

static int type_delete_and_free_key(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type;
    (void)value;
    (void)extra;
    deletes++;
    return MPI_Type_free_keyval(&keyval);
}

static void comm_key_outlives_handle(void)
{
    static int marker;
    MPI_Comm dup;
    int key, other;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, NULL);
    int saved = key;
    MPI_Comm_set_attr(dup, key, &marker);
    int rc = MPI_Comm_free_keyval(&key);
    CHECK(rc == MPI_SUCCESS && key == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval: rc %d, key %d", rc, key);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &other, NULL);
    CHECK(other != saved, "a new key is %d, the number of a key an attribute still uses", other);
    deletes = 0;
    MPI_Comm_free(&dup);
    CHECK(deletes == 1 && last_key == saved && last_value == &marker,
          "MPI_Comm_free of the attribute's communicator: %d deletes, key %d (expected %d)", deletes, last_key, saved);
    MPI_Comm_free_keyval(&other);
}

static void type_key_outlives_handle(void)
{
    static int marker;
    MPI_Datatype t;
    int key;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_type_delete, &key, NULL);
    int saved = key;
    MPI_Type_set_attr(t, key, &marker);
    int rc = MPI_Type_free_keyval(&key);
    CHECK(rc == MPI_SUCCESS && key == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval: rc %d, key %d", rc, key);
    deletes = 0;
    MPI_Type_free(&t);
    CHECK(deletes == 1 && last_key == saved && last_value == &marker,
          "MPI_Type_free of the attribute's type: %d deletes, key %d (expected %d)", deletes, last_key, saved);
}

/* attr/keyval_double_free's pattern: every free after the first is a no-op */
static void callbacks_free_the_key(void)
{
    MPI_Comm a, b;
    int key, copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_and_free_key, &key, NULL);
    copy = key;
    MPI_Comm_set_attr(a, key, NULL);
    MPI_Comm_set_attr(b, key, NULL);
    deletes = 0;
    MPI_Comm_free(&a); /* the callback frees the key */
    int rc1 = MPI_Comm_free_keyval(&key);
    int rc2 = MPI_Comm_free_keyval(&copy);
    MPI_Comm_free(&b); /* and again */
    CHECK(rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS && deletes == 2, "communicator key: rc %d %d, %d deletes", rc1,
          rc2, deletes);

    MPI_Datatype s, t;
    MPI_Type_dup(MPI_INT, &s);
    MPI_Type_dup(MPI_INT, &t);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete_and_free_key, &key, NULL);
    copy = key;
    MPI_Type_set_attr(s, key, NULL);
    MPI_Type_set_attr(t, key, NULL);
    deletes = 0;
    MPI_Type_free(&s);
    rc1 = MPI_Type_free_keyval(&key);
    rc2 = MPI_Type_free_keyval(&copy);
    MPI_Type_free(&t);
    CHECK(rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS && deletes == 2, "datatype key: rc %d %d, %d deletes", rc1, rc2,
          deletes);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    comm_key_outlives_handle();
    type_key_outlives_handle();
    callbacks_free_the_key();
    return mt_finish();
}
