/* bucketsort: sorts N random 32-bit keys spread over the ranks. Each rank
 * sends every key to the rank owning its slice of the key range
 * (MPI_Alltoall of the counts, MPI_Alltoallv of the keys) and sorts what it
 * receives.
 *   bucketsort [N [SEED [direct|2level|auto]]]     defaults: 1000000 1 auto
 * 2level exchanges over the rows, then the columns, of a 2-D process grid,
 * so no rank holds arrays of nprocs counts (auto: 2level above 1024 ranks).
 * Verified: every rank's keys in order and in its bucket, the boundaries
 * between ranks, the total count and two fingerprints of the key set; the
 * result (the fingerprint) is the same at every rank count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "keys.h"
#include "exchange.h"
#include "check.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int rank, p, n, two_level, rows = 0, cols = 0, pass;
    long long total, first, errors, nsorted, counts[2], gcounts[2];
    unsigned long long seed, fp_in[2], fp_out[2], g_in[2], g_out[2];
    const char *mode;
    uint32_t *keys;
    double t0, t, tmax;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    total = argc > 1 ? atoll(argv[1]) : 1000000;
    seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    mode = argc > 3 ? argv[3] : "auto";
    if (total < 0 || total / p > 1000000000 ||
        (strcmp(mode, "direct") && strcmp(mode, "2level") && strcmp(mode, "auto"))) {
        if (rank == 0)
            fprintf(stderr, "usage: bucketsort [N [SEED [direct|2level|auto]]]\n");
        MPI_Finalize();
        return 2;
    }
    two_level = !strcmp(mode, "2level") || (!strcmp(mode, "auto") && p > 1024);
    first = total / p * rank + (rank < total % p ? rank : total % p);
    n = (int)(total / p + (rank < total % p));
    keys = malloc((n + 1) * sizeof(uint32_t));
    keys_generate(seed, first, n, keys);
    keys_fingerprint(keys, n, &fp_in[0], &fp_in[1]);

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (two_level)
        exchange_2level(&keys, &n, &rows, &cols);
    else
        exchange_direct(&keys, &n);
    qsort(keys, n, sizeof(uint32_t), cmp_u32);
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    errors = check_sorted(keys, n);
    keys_fingerprint(keys, n, &fp_out[0], &fp_out[1]);
    MPI_Allreduce(fp_in, g_in, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(fp_out, g_out, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    counts[0] = errors;
    counts[1] = n;
    MPI_Allreduce(counts, gcounts, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    errors = gcounts[0];
    nsorted = gcounts[1];
    /* the largest bucket says how even the split was */
    {
        long long mine = n, most;
        MPI_Reduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("bucketsort: %lld keys, seed %llu, %d ranks, exchange %s", total, seed, p,
                   two_level ? "2level" : "direct");
            if (two_level)
                printf(" (%dx%d)", rows, cols);
            printf(", largest bucket %lld keys (mean %.1f)\n", most, (double)total / p);
        }
    }
    pass = errors == 0 && nsorted == total && g_in[0] == g_out[0] && g_in[1] == g_out[1];
    if (rank == 0) {
        if (nsorted != total)
            printf("bucketsort: %lld keys after the sort, %lld before\n", nsorted, total);
        if (g_in[0] != g_out[0] || g_in[1] != g_out[1])
            printf("bucketsort: the key set changed (fingerprints %llu %llu before, %llu %llu after)\n", g_in[0],
                   g_in[1], g_out[0], g_out[1]);
        printf("bucketsort: time %.6f s, %.3f Mkeys/s\n", tmax, tmax > 0 ? total / tmax / 1e6 : 0.0);
        printf("VERIFY %s result=%llu keys=%lld errors=%lld\n", pass ? "PASS" : "FAIL", g_out[1], nsorted, errors);
    }
    free(keys);
    MPI_Finalize();
    return pass ? 0 : 1;
}
