/* The Fortran and C++ named datatypes usable from C: names, sizes,
 * MPI_COMBINER_NAMED, the reductions the standard defines on them
 * (integer, logical, real, complex, the MAXLOC/MINLOC pairs), and the
 * C <-> Fortran handle conversions (MPI_Fint, MPI_*_c2f / _f2c,
 * MPI_Status_c2f / f2c, and Fortran 2008's MPI_F08_status), and the
 * types of Fortran 90 kinds (MPI_Type_create_f90_integer/real/complex). Self-checking: rank 0 prints " No Errors". Any
 * number of ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static void check_named(MPI_Datatype t, const char *name, int size)
{
    char got[MPI_MAX_OBJECT_NAME];
    int len, s, ni, na, nd, comb;
    MPI_Type_get_name(t, got, &len);
    MPI_Type_size(t, &s);
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    CHECK(!strcmp(got, name) && s == size && comb == MPI_COMBINER_NAMED, "%s: name '%s', size %d, combiner %d", name,
          got, s, comb);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    check_named(MPI_CHARACTER, "MPI_CHARACTER", 1);
    check_named(MPI_LOGICAL, "MPI_LOGICAL", 4);
    check_named(MPI_INTEGER, "MPI_INTEGER", 4);
    check_named(MPI_REAL, "MPI_REAL", 4);
    check_named(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8);
    check_named(MPI_COMPLEX, "MPI_COMPLEX", 8);
    check_named(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16);
    check_named(MPI_2INTEGER, "MPI_2INTEGER", 8);
    check_named(MPI_2REAL, "MPI_2REAL", 8);
    check_named(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16);
    check_named(MPI_INTEGER1, "MPI_INTEGER1", 1);
    check_named(MPI_INTEGER2, "MPI_INTEGER2", 2);
    check_named(MPI_INTEGER4, "MPI_INTEGER4", 4);
    check_named(MPI_INTEGER8, "MPI_INTEGER8", 8);
    check_named(MPI_REAL4, "MPI_REAL4", 4);
    check_named(MPI_REAL8, "MPI_REAL8", 8);
    check_named(MPI_COMPLEX8, "MPI_COMPLEX8", 8);
    check_named(MPI_COMPLEX16, "MPI_COMPLEX16", 16);
    check_named(MPI_CXX_BOOL, "MPI_CXX_BOOL", 1);
    check_named(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8);
    check_named(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16);

    /* reductions over every rank: r = rank, n = size */
    int r = rank, n = size, isum = 0, land = 0, lor = 0, one = 1, odd = rank % 2;
    float fr = (float)rank, fmax = -1;
    double cz[2] = {1.0, (double)rank}, csum[2] = {0, 0};
    float pf[2] = {(float)(rank % 3), (float)rank}, pfmax[2] = {0, 0};
    double pd[2] = {(double)(rank % 3), (double)rank}, pdmin[2] = {0, 0};
    MPI_Allreduce(&r, &isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
    CHECK(isum == n * (n - 1) / 2, "MPI_INTEGER MPI_SUM: %d", isum);
    MPI_Allreduce(&one, &land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD);
    MPI_Allreduce(&odd, &lor, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD);
    CHECK(land && lor == (n > 1), "MPI_LOGICAL MPI_LAND %d, MPI_LOR %d", land, lor);
    MPI_Allreduce(&fr, &fmax, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD);
    CHECK(fmax == (float)(n - 1), "MPI_REAL MPI_MAX: %g", (double)fmax);
    MPI_Allreduce(cz, csum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    CHECK(csum[0] == n && csum[1] == n * (n - 1) / 2.0, "MPI_DOUBLE_COMPLEX MPI_SUM: %g %g", csum[0], csum[1]);
    /* the largest rank % 3, and the lowest rank that has it */
    int best = n >= 3 ? 2 : n - 1;
    MPI_Allreduce(pf, pfmax, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(pfmax[0] == best && pfmax[1] == best, "MPI_2REAL MPI_MAXLOC: %g at %g", (double)pfmax[0], (double)pfmax[1]);
    MPI_Allreduce(pd, pdmin, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(pdmin[0] == 0 && pdmin[1] == 0, "MPI_2DOUBLE_PRECISION MPI_MINLOC: %g at %g", pdmin[0], pdmin[1]);

    /* handles to Fortran and back */
    MPI_Comm dup;
    MPI_Group g;
    MPI_Info info;
    MPI_Status st, st2;
    MPI_Fint fst[sizeof(MPI_Status) / sizeof(MPI_Fint) + 8];
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_group(dup, &g);
    MPI_Info_create(&info);
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(dup)) == dup && MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD,
          "MPI_Comm_c2f/f2c");
    CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE, "MPI_Type_c2f/f2c");
    CHECK(MPI_Group_f2c(MPI_Group_c2f(g)) == g, "MPI_Group_c2f/f2c");
    CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM, "MPI_Op_c2f/f2c");
    CHECK(MPI_Info_f2c(MPI_Info_c2f(info)) == info, "MPI_Info_c2f/f2c");
    CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL, "MPI_Request_c2f/f2c");
    CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN, "MPI_Errhandler_c2f/f2c");
    CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL, "MPI_Message_c2f/f2c");
    MPI_Sendrecv(&r, 1, MPI_INT, rank, 5, &isum, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &st);
    MPI_Status_c2f(&st, fst);
    MPI_Status_f2c(fst, &st2);
    int count = -1;
    MPI_Get_count(&st2, MPI_INT, &count);
    CHECK(st2.MPI_SOURCE == rank && st2.MPI_TAG == 5 && count == 1, "MPI_Status_c2f/f2c: source %d tag %d count %d",
          st2.MPI_SOURCE, st2.MPI_TAG, count);
    /* Fortran 2008's status: its public fields, and back to C and to the
     * integer array (MPICH 4.0.2 has these calls in its Fortran library,
     * which mpicc does not link) */
#ifndef MPICH_VERSION
    MPI_F08_status f08;
    MPI_Status st3;
    MPI_Status_c2f08(&st, &f08);
    CHECK(f08.MPI_SOURCE == rank && f08.MPI_TAG == 5, "MPI_Status_c2f08: source %d tag %d", (int)f08.MPI_SOURCE,
          (int)f08.MPI_TAG);
    MPI_Status_f2f08(fst, &f08);
    MPI_Status_f082c(&f08, &st3);
    count = -1;
    MPI_Get_count(&st3, MPI_INT, &count);
    CHECK(st3.MPI_SOURCE == rank && st3.MPI_TAG == 5 && count == 1, "MPI_Status_f2f08/f082c: source %d tag %d count %d",
          st3.MPI_SOURCE, st3.MPI_TAG, count);
    MPI_Fint fst2[MPI_F_STATUS_SIZE];
    MPI_Status_f082f(&f08, fst2);
    CHECK(fst2[MPI_F_SOURCE] == rank && fst2[MPI_F_TAG] == 5, "MPI_Status_f082f: source %d tag %d",
          (int)fst2[MPI_F_SOURCE], (int)fst2[MPI_F_TAG]);
#endif
    /* Fortran 90 kinds: the smallest type with the range (and precision) asked */
    struct {
        int r;
        int size;
    } ints[] = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 4}, {9, 4}, {10, 8}, {18, 8}};
    for (int i = 0; i < 8; i++) {
        MPI_Datatype t;
        int sz = -1;
        MPI_Type_create_f90_integer(ints[i].r, &t);
        MPI_Type_size(t, &sz);
        CHECK(sz == ints[i].size, "MPI_Type_create_f90_integer(%d): %d bytes, want %d", ints[i].r, sz, ints[i].size);
    }
    struct {
        int p, r, size;
    } reals[] = {{6, MPI_UNDEFINED, 4}, {MPI_UNDEFINED, 37, 4}, {3, 20, 4}, {7, MPI_UNDEFINED, 8}, {6, 38, 8},
                 {15, 307, 8}};
    for (int i = 0; i < 6; i++) {
        MPI_Datatype t, c;
        int sz = -1, csz = -1;
        MPI_Type_create_f90_real(reals[i].p, reals[i].r, &t);
        MPI_Type_create_f90_complex(reals[i].p, reals[i].r, &c);
        MPI_Type_size(t, &sz);
        MPI_Type_size(c, &csz);
        CHECK(sz == reals[i].size && csz == 2 * reals[i].size,
              "MPI_Type_create_f90_real/complex(%d, %d): %d and %d bytes, want %d and %d", reals[i].p, reals[i].r, sz,
              csz, reals[i].size, 2 * reals[i].size);
    }
    {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        double x[2] = {1.5, 2.5}, y[2] = {0, 0};
        MPI_Type_create_f90_real(15, MPI_UNDEFINED, &t);
        MPI_Sendrecv(x, 2, t, rank, 6, y, 2, t, rank, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(y[0] == 1.5 && y[1] == 2.5, "a message of MPI_Type_create_f90_real(15): %g %g", y[0], y[1]);
    }
    MPI_Info_free(&info);
    MPI_Group_free(&g);
    MPI_Comm_free(&dup);
    return mt_finish();
}
