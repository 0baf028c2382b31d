/* montecarlo: pi from random points in the unit square, counted per rank
 * and summed with MPI_Reduce.
 *   montecarlo [SAMPLES [SEED]]     defaults: 10000000 1
 * Verified: the estimate lies within 5 standard deviations of pi. The
 * result (the number of hits) is exactly the same at every rank count. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <mpi.h>
#include "sampler.h"

int main(int argc, char **argv)
{
    int rank, p, pass = 0;
    long long samples, first, n, hits, total;
    unsigned long long seed;
    double t0, t, tmax;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    samples = argc > 1 ? atoll(argv[1]) : 10000000;
    seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (samples < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: montecarlo [SAMPLES [SEED]]\n");
        MPI_Finalize();
        return 2;
    }
    first = samples / p * rank + (rank < samples % p ? rank : samples % p);
    n = samples / p + (rank < samples % p);

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    hits = count_hits(seed, first, n);
    MPI_Reduce(&hits, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        const double pi = 3.14159265358979323846, q = pi / 4;
        double est = 4.0 * total / samples, sigma = 4.0 * sqrt(q * (1 - q) / samples);
        pass = fabs(est - pi) <= 5 * sigma;
        printf("montecarlo: %lld samples, seed %llu, %d ranks\n", samples, seed, p);
        printf("montecarlo: pi ~ %.10f, error %.3e (%.2f sigma)\n", est, est - pi, fabs(est - pi) / sigma);
        printf("montecarlo: time %.6f s, %.3f Msamples/s\n", tmax, tmax > 0 ? samples / tmax / 1e6 : 0.0);
        printf("VERIFY %s result=%lld pi=%.10f\n", pass ? "PASS" : "FAIL", total, est);
    }
    MPI_Bcast(&pass, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return pass ? 0 : 1;
}
