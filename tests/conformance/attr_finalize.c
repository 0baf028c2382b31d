/* Attributes at MPI_Finalize: the standard has MPI_Finalize first free
 * MPI_COMM_SELF's attributes, running their delete callbacks in the
 * reverse order they were set, while MPI still works. The report is
 * therefore made from the last delete callback (the attribute set first):
 * it checks the order the others ran in and reduces the error count over
 * MPI_COMM_WORLD. Also checks attributes on MPI_COMM_SELF before that.
 * Self-checking: rank 0 prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include "mpitest.h"

static int order[8], norder, reported;

static int record(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    CHECK(comm == MPI_COMM_SELF, "delete callback on another communicator");
    if (norder < 8) order[norder++] = (int)(long)value;
    return MPI_SUCCESS;
}

/* set first, so deleted last: check and report */
static int report(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    CHECK(norder == 3, "%d delete callbacks ran before the last, want 3", norder);
    /* set as 1, 2, 3, then 2 replaced by 4 (which deletes the old 2 at once;
     * the attribute keeps its place, as MPICH keeps it) */
    CHECK(norder >= 1 && order[0] == 2, "first deleted %d, want the replaced 2", order[0]);
    CHECK(norder >= 3 && order[1] == 3 && order[2] == 4, "then %d %d, want 3 4 (newest first)", order[1], order[2]);
    /* 1 has no delete callback of this key's: set with a separate key */
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors\n", total);
    }
    reported = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int kr, k1, k2, k3;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, report, &kr, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record, &k2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record, &k3, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, kr, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void *)1L);
    MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)2L);
    MPI_Comm_set_attr(MPI_COMM_SELF, k3, (void *)3L);
    MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)4L); /* runs record(2) now */
    void *v = NULL;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_SELF, k2, &v, &flag);
    CHECK(flag && v == (void *)4L, "the replaced value");
    CHECK(norder == 1 && order[0] == 2, "replacing ran the delete callback: %d", norder);
    /* the keys may be freed: the attributes keep them until they go */
    MPI_Comm_free_keyval(&k2);
    MPI_Comm_free_keyval(&k3);
    MPI_Finalize();
    return reported ? 0 : 1;
}
