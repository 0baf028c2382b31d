/* complex.h with MPI: double and float complex values sent around a ring
 * and reduced with MPI_SUM and MPI_PROD (MPI_C_DOUBLE_COMPLEX,
 * MPI_C_FLOAT_COMPLEX, MPI_C_COMPLEX), the values chosen so that every sum
 * and product is exact in any order; plus complex arithmetic on every rank. */
#include <complex.h>
#include <mpi.h>
#include <stdio.h>
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    /* ring: each rank sends 3 values made from its rank to the next */
    double complex out[3], in[3];
    float complex outf[2], inf[2];
    for (int i = 0; i < 3; i++) out[i] = (rank + i) + (2.0 * rank - i) * I;
    for (int i = 0; i < 2; i++) outf[i] = CMPLXF(rank * 0.5f, -(float)i);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(out, 3, MPI_C_DOUBLE_COMPLEX, next, 1, in, 3, MPI_C_DOUBLE_COMPLEX, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(outf, 2, MPI_C_FLOAT_COMPLEX, next, 2, inf, 2, MPI_C_FLOAT_COMPLEX, prev, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; i++)
        CHECK(in[i] == (prev + i) + (2.0 * prev - i) * I, "ring double complex [%d]: %g%+gi from %d", i, creal(in[i]),
              cimag(in[i]), prev);
    for (int i = 0; i < 2; i++)
        CHECK(crealf(inf[i]) == prev * 0.5f && cimagf(inf[i]) == -(float)i, "ring float complex [%d]: %g%+gi", i,
              crealf(inf[i]), cimagf(inf[i]));

    /* sums: rank r gives (r + 1) + (2r - 1) i, then 1 - r i */
    double complex v[2] = {(rank + 1) + (2.0 * rank - 1) * I, 1 - rank * I}, sum[2];
    MPI_Allreduce(v, sum, 2, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    double n = size;
    double complex want0 = n * (n + 1) / 2 + (n * (n - 1) - n) * I, want1 = n - n * (n - 1) / 2 * I;
    CHECK(sum[0] == want0 && sum[1] == want1, "double complex sum: %g%+gi %g%+gi, want %g%+gi %g%+gi",
          creal(sum[0]), cimag(sum[0]), creal(sum[1]), cimag(sum[1]), creal(want0), cimag(want0), creal(want1),
          cimag(want1));
    float complex vf = (float)(rank % 5) - 2.0f * I, sumf = 0;
    MPI_Reduce(&vf, &sumf, 1, MPI_C_COMPLEX, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        float re = 0;
        for (int r = 0; r < size; r++) re += (float)(r % 5);
        CHECK(crealf(sumf) == re && cimagf(sumf) == -2.0f * size, "float complex sum: %g%+gi", crealf(sumf),
              cimagf(sumf));
    }

    /* products: even ranks give i, odd ranks 1, so the product is i^(even ranks) */
    double complex p = rank % 2 ? 1.0 : I, prod;
    MPI_Allreduce(&p, &prod, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    int k = (size + 1) / 2;
    double complex want = (k % 4 == 0) ? 1 : (k % 4 == 1) ? I : (k % 4 == 2) ? -1 : -I;
    CHECK(prod == want, "double complex prod: %g%+gi, want %g%+gi", creal(prod), cimag(prod), creal(want),
          cimag(want));
    /* rank 0 gives 1 + i, the others 1: the product is 1 + i, also in place */
    float complex pf = rank == 0 ? 1.0f + 1.0f * I : 1.0f;
    MPI_Allreduce(MPI_IN_PLACE, &pf, 1, MPI_C_FLOAT_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    CHECK(pf == 1.0f + 1.0f * I, "float complex prod in place: %g%+gi", crealf(pf), cimagf(pf));

    /* arithmetic on every rank */
    double complex z = CMPLX(rank + 1.0, -1.0);
    double complex q = z * conj(z);
    CHECK(cimag(q) == 0 && creal(q) == (rank + 1.0) * (rank + 1.0) + 1, "z * conj(z) = %g%+gi", creal(q), cimag(q));
    double complex e = cexp(I * 3.14159265358979323846 / 2);
    CHECK(cabs(e - I) < 1e-15, "cexp(i pi/2) = %g%+gi", creal(e), cimag(e));
    double complex s = csqrt(-4.0 * (rank + 1) * (rank + 1));
    CHECK(creal(s) == 0 && cimag(s) == 2.0 * (rank + 1), "csqrt = %g%+gi", creal(s), cimag(s));
    double re = z; /* the real part, as C converts */
    CHECK(re == rank + 1.0, "complex to real: %g", re);
    return mt_finish();
}
