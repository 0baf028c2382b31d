/* Datatype attributes: MPI_Type_create_keyval and the rest, copy callbacks
 * run by MPI_Type_dup (MPI_TYPE_DUP_FN, MPI_TYPE_NULL_COPY_FN, the
 * program's own), delete callbacks run by MPI_Type_free, MPI_Type_set_attr
 * (replacing a value) and MPI_Type_delete_attr, attributes on a predefined
 * type, and a communicator key refused on a type. Self-checking: rank 0
 * prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include "mpitest.h"

static int deletes, copies;
static void *last_deleted;

static int count_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type;
    (void)keyval;
    (void)extra;
    deletes++;
    last_deleted = value;
    return MPI_SUCCESS;
}

static int plus_one_copy(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)type;
    (void)keyval;
    (void)extra;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static void *get(MPI_Datatype t, int key, int *flag)
{
    void *v = NULL;
    *flag = -1;
    MPI_Type_get_attr(t, key, &v, flag);
    return v;
}

int main(int argc, char **argv)
{
    static char base[4];
    int kdup, knull, kplus, flag;
    mt_init(&argc, &argv);
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_delete, &kdup, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_delete, &knull, NULL);
    MPI_Type_create_keyval(plus_one_copy, MPI_TYPE_NULL_DELETE_FN, &kplus, NULL);

    MPI_Datatype t, d;
    MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &t);
    void *v = get(t, kdup, &flag);
    CHECK(flag == 0, "an unset attribute: flag %d", flag);
    MPI_Type_set_attr(t, kdup, base);
    MPI_Type_set_attr(t, knull, base + 1);
    MPI_Type_set_attr(t, kplus, base);
    v = get(t, kdup, &flag);
    CHECK(flag == 1 && v == base, "MPI_Type_get_attr: flag %d", flag);

    MPI_Type_dup(t, &d);
    CHECK(copies == 1, "MPI_Type_dup ran the program's copy callback %d times", copies);
    v = get(d, kdup, &flag);
    CHECK(flag == 1 && v == base, "MPI_TYPE_DUP_FN's copy: flag %d", flag);
    v = get(d, knull, &flag);
    CHECK(flag == 0, "MPI_TYPE_NULL_COPY_FN copied the attribute");
    v = get(d, kplus, &flag);
    CHECK(flag == 1 && v == base + 1, "the program's copy: flag %d", flag);

    /* replacing a value deletes the old one */
    deletes = 0;
    MPI_Type_set_attr(d, kdup, base + 2);
    CHECK(deletes == 1 && last_deleted == base, "replacing a value: %d deletes", deletes);
    MPI_Type_delete_attr(d, kdup);
    CHECK(deletes == 2 && last_deleted == base + 2, "MPI_Type_delete_attr: %d deletes", deletes);
    v = get(d, kdup, &flag);
    CHECK(flag == 0, "a deleted attribute is still there");

    /* freeing a type deletes its attributes (the dup first: MPICH defers
     * the original's while a dup of it lives) */
    deletes = 0;
    MPI_Type_free(&d);
    CHECK(deletes == 0, "MPI_Type_free of the dup ran %d delete callbacks (expected 0)", deletes);
    v = get(t, kdup, &flag);
    CHECK(flag == 1 && v == base, "freeing the dup deleted the original's attribute");
    MPI_Type_free(&t);
    CHECK(deletes == 2, "MPI_Type_free ran %d delete callbacks (expected 2)", deletes);

    /* a predefined type's attributes are the calling process's own */
    MPI_Type_set_attr(MPI_INT, kdup, base + rank % 4);
    v = get(MPI_INT, kdup, &flag);
    CHECK(flag == 1 && v == base + rank % 4, "an attribute on MPI_INT: flag %d", flag);
    deletes = 0;
    MPI_Type_delete_attr(MPI_INT, kdup);
    CHECK(deletes == 1, "MPI_Type_delete_attr on MPI_INT: %d deletes", deletes);

    /* a communicator key is not a datatype key */
    int ckey;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Type_set_attr(MPI_INT, ckey, base);
    CHECK(rc != MPI_SUCCESS, "MPI_Type_set_attr took a communicator key");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free_keyval(&ckey);

    MPI_Type_free_keyval(&kdup);
    MPI_Type_free_keyval(&knull);
    MPI_Type_free_keyval(&kplus);
    return mt_finish();
}
