/* Info objects (MPI_Info_create, set, get, get_valuelen, get_nkeys,
 * get_nthkey, delete, dup, free; MPI_INFO_ENV) and the communicator calls
 * that take them: MPI_Comm_set_info / get_info, MPI_Comm_dup_with_info,
 * MPI_Comm_idup (a usable communicator once the request completes, with
 * the attributes copied), MPI_Comm_split_type(MPI_COMM_TYPE_SHARED),
 * MPI_Comm_test_inter. A hint that is none of MPI's is ignored (as MPICH
 * does: MPI_Comm_get_info does not list it); MPI's own may be, and are
 * checked to be what was set when present.
 * Self-checking: rank 0 prints " No Errors". Any number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static void expect_class(int rc, int want, const char *what)
{
    int cls = -1;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == want, "%s: returned %d (class %d), want class %d", what, rc, cls, want);
}

static void info_objects(void)
{
    MPI_Info info, dup;
    char value[MPI_MAX_INFO_VAL], key[MPI_MAX_INFO_KEY];
    int flag = -1, n = -1, len = -1;
    MPI_Info_create(&info);
    CHECK(info != MPI_INFO_NULL, "Info_create gives a handle");
    MPI_Info_get_nkeys(info, &n);
    CHECK(n == 0, "a new info has %d keys", n);
    MPI_Info_set(info, "alpha", "one");
    MPI_Info_set(info, "beta", "twenty-two");
    MPI_Info_set(info, "gamma", "3");
    MPI_Info_set(info, "alpha", "uno"); /* replaces, keeps its place */
    MPI_Info_get_nkeys(info, &n);
    CHECK(n == 3, "3 keys, got %d", n);
    MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && !strcmp(value, "uno"), "alpha = '%s' (flag %d)", flag ? value : "", flag);
    MPI_Info_get(info, "nope", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(!flag, "a missing key: flag %d", flag);
    MPI_Info_get_valuelen(info, "beta", &len, &flag);
    CHECK(flag && len == 10, "valuelen of beta %d", len);
    /* (a buffer too short is left out: MPI-3.1 truncates, MPICH 4 raises an error) */
    int seen = 0;
    for (int i = 0; i < n; i++) {
        MPI_Info_get_nthkey(info, i, key);
        if (!strcmp(key, "alpha")) seen |= 1;
        if (!strcmp(key, "beta")) seen |= 2;
        if (!strcmp(key, "gamma")) seen |= 4;
    }
    CHECK(seen == 7, "get_nthkey saw keys %d", seen);
    MPI_Info_dup(info, &dup);
    MPI_Info_delete(info, "beta");
    MPI_Info_get_nkeys(info, &n);
    CHECK(n == 2, "after delete %d keys", n);
    MPI_Info_get(dup, "beta", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && !strcmp(value, "twenty-two"), "the dup keeps beta: '%s'", flag ? value : "");
    MPI_Info_get_nkeys(dup, &n);
    CHECK(n == 3, "the dup has %d keys", n);
    MPI_Info_set(dup, "delta", "4");
    MPI_Info_get(info, "delta", 10, value, &flag);
    CHECK(!flag, "setting the dup leaves the original");

    /* errors */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    expect_class(MPI_Info_delete(info, "nope"), MPI_ERR_INFO_NOKEY, "Info_delete of a missing key");
    expect_class(MPI_Info_get_nthkey(info, 5, key), MPI_ERR_ARG, "Info_get_nthkey past the end");
    char longkey[MPI_MAX_INFO_KEY + 8];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = 0;
    expect_class(MPI_Info_set(info, longkey, "v"), MPI_ERR_INFO_KEY, "Info_set with a key too long");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    MPI_Info_free(&info);
    MPI_Info_free(&dup);
    CHECK(info == MPI_INFO_NULL && dup == MPI_INFO_NULL, "Info_free sets MPI_INFO_NULL");

    /* MPI_INFO_ENV can be read */
    MPI_Info_get_nkeys(MPI_INFO_ENV, &n);
    CHECK(n >= 0, "MPI_INFO_ENV has %d keys", n);
    for (int i = 0; i < n; i++) {
        MPI_Info_get_nthkey(MPI_INFO_ENV, i, key);
        MPI_Info_get_valuelen(MPI_INFO_ENV, key, &len, &flag);
        CHECK(flag && len >= 0 && len < MPI_MAX_INFO_VAL, "MPI_INFO_ENV key '%s': %d", key, len);
    }
}

static int copies;
static int count_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void comm_info(void)
{
    MPI_Info info, used;
    char value[64];
    int flag, key, sum = 0;
    static int payload;
    MPI_Info_create(&info);
    MPI_Info_set(info, "gpumpi_test_hint", "yes");          /* no hint of MPI's: ignored (as MPICH does) */
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false"); /* MPI-4.0's: kept as set, if kept */
    MPI_Comm d, e;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &d);
    long long lrank = rank, lsum = 0; /* the sum passes 2^31 from 65,536 ranks on */
    MPI_Allreduce(&lrank, &lsum, 1, MPI_LONG_LONG, MPI_SUM, d);
    CHECK(lsum == (long long)size * (size - 1) / 2, "dup_with_info communicator works: %lld", lsum);
    MPI_Comm_get_info(d, &used);
    CHECK(used != MPI_INFO_NULL, "Comm_get_info gives an info");
    MPI_Info_get(used, "gpumpi_test_hint", 63, value, &flag);
    CHECK(!flag, "dup_with_info kept the unknown hint gpumpi_test_hint ('%s')", value);
    MPI_Info_get(used, "mpi_assert_no_any_tag", 63, value, &flag);
    if (flag) CHECK(!strcmp(value, "false"), "hint kept as '%s'", value);
    MPI_Info_free(&used);
    MPI_Info_set(info, "gpumpi_test_hint", "no");
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_set_info(d, info);
    MPI_Comm_get_info(d, &used);
    MPI_Info_get(used, "gpumpi_test_hint", 63, value, &flag);
    CHECK(!flag, "set_info kept the unknown hint gpumpi_test_hint ('%s')", value);
    MPI_Info_get(used, "mpi_assert_no_any_tag", 63, value, &flag);
    if (flag) CHECK(!strcmp(value, "true"), "hint after set_info '%s'", value);
    MPI_Info_free(&used);
    MPI_Info_free(&info);

    /* idup: the attributes go along, and the communicator works after Wait */
    MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(d, key, &payload);
    MPI_Request req;
    copies = 0;
    MPI_Comm_idup(d, &e, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(req == MPI_REQUEST_NULL, "Wait frees the idup request");
    void *v = NULL;
    MPI_Comm_get_attr(e, key, &v, &flag);
    CHECK(flag && v == &payload && copies == 1, "idup copied the attribute (%d copies)", copies);
    int result = -1;
    MPI_Comm_compare(d, e, &result);
    CHECK(result == MPI_CONGRUENT, "idup is congruent: %d", result);
    sum = 0;
    int one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, e);
    CHECK(sum == size, "allreduce on the idup: %d", sum);
    /* messages on d and e stay apart */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, a = -1, b = -1;
    MPI_Request r2[4];
    MPI_Irecv(&a, 1, MPI_INT, left, 0, d, &r2[0]);
    MPI_Irecv(&b, 1, MPI_INT, left, 0, e, &r2[1]);
    int va = 100 + rank, vb = 200 + rank;
    MPI_Isend(&vb, 1, MPI_INT, right, 0, e, &r2[2]);
    MPI_Isend(&va, 1, MPI_INT, right, 0, d, &r2[3]);
    MPI_Waitall(4, r2, MPI_STATUSES_IGNORE);
    CHECK(a == 100 + left && b == 200 + left, "contexts apart: %d %d", a, b);
    MPI_Comm_free(&e);
    MPI_Comm_free(&d);
    MPI_Comm_free_keyval(&key);

    /* split_type shared: every rank of a node; test_inter */
    MPI_Comm shm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
    int ss = 0, sr = -1, inter = 1;
    MPI_Comm_size(shm, &ss);
    MPI_Comm_rank(shm, &sr);
    CHECK(ss >= 1 && ss <= size && sr >= 0 && sr < ss, "split_type: rank %d of %d", sr, ss);
    MPI_Comm_test_inter(shm, &inter);
    CHECK(!inter, "an intracommunicator");
    MPI_Comm_free(&shm);
    MPI_Comm none;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &none);
    CHECK(none == MPI_COMM_NULL, "split_type MPI_UNDEFINED gives MPI_COMM_NULL");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    info_objects();
    comm_info();
    return mt_finish();
}
