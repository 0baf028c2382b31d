/* An all-pairs exchange written the plain way: every rank posts MPI_Irecv
 * from every rank, then MPI_Isend to every rank, then one MPI_Waitall, so
 * each rank holds thousands of posted receives and, as the sends land,
 * thousands of unexpected messages. Plain MPI C: builds with gpumpicc and
 * with mpicc.
 *
 *   allpairs [BYTES [REPS]]        defaults 8 bytes, 3
 *
 * Each measurement is one whole exchange after a barrier, timed on every
 * rank; the figure is the slowest rank's time (MPI_Reduce MAX), best and
 * median of REPS: `allpairs ranks= bytes= s_best= s_med=`. Every
 * message carries its sender, receiver and repetition, checked on arrival. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench_util.h"

static long long word(int from, int to, int rep) { return ((long long)from << 32) ^ ((long long)to << 4) ^ rep; }

int main(int argc, char **argv)
{
    int me, n, rep, p;
    bench_init(&argc, &argv, &me, &n);
    int bytes = argc > 1 ? atoi(argv[1]) : 8, reps = argc > 2 ? atoi(argv[2]) : 3;
    if (bytes < 8 || bytes % 8 || reps < 1 || reps > BENCH_MAX_REPS) {
        if (me == 0) printf("allpairs: needs BYTES a multiple of 8 (at least 8), 1 <= REPS <= %d\n", BENCH_MAX_REPS);
        MPI_Finalize();
        return 1;
    }
    int words = bytes / 8;
    long long *out = malloc((size_t)n * bytes), *in = malloc((size_t)n * bytes);
    MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * (size_t)n);
    MPI_Status *st = malloc(sizeof(MPI_Status) * 2 * (size_t)n); /* not MPI_STATUSES_IGNORE: GCC misreads MPICH's */
    if (!out || !in || !req || !st) {
        printf("allpairs: rank %d: no memory for %d ranks' messages\n", me, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double t[BENCH_MAX_REPS];
    long bad = 0;
    for (rep = 0; rep < reps; rep++) {
        for (p = 0; p < n; p++)
            for (int w = 0; w < words; w++) {
                out[(size_t)p * words + w] = word(me, p, rep) + w;
                in[(size_t)p * words + w] = -1;
            }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (p = 0; p < n; p++) MPI_Irecv(in + (size_t)p * words, bytes, MPI_BYTE, p, 7, MPI_COMM_WORLD, &req[p]);
        for (p = 0; p < n; p++) MPI_Isend(out + (size_t)p * words, bytes, MPI_BYTE, p, 7, MPI_COMM_WORLD, &req[n + p]);
        MPI_Waitall(2 * n, req, st);
        double mine = MPI_Wtime() - t0;
        MPI_Reduce(&mine, &t[rep], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        for (p = 0; p < n; p++)
            for (int w = 0; w < words; w++) bad += in[(size_t)p * words + w] != word(p, me, rep) + w;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) {
        double best = t[0];
        for (rep = 1; rep < reps; rep++)
            if (t[rep] < best) best = t[rep];
        sort_doubles(t, reps);
        printf("allpairs ranks=%d bytes=%d s_best=%.6f s_med=%.6f\n", n, bytes, best, t[reps / 2]);
        printf("allpairs %s: %ld wrong words\n", bad ? "FAILED" : "verified", bad);
    }
    free(out);
    free(in);
    free(req);
    free(st);
    MPI_Finalize();
    return bad != 0;
}
