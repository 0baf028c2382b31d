/* Fan-in: every rank but 0 sends MSGS small messages to rank 0, which
 * takes them with MPI_ANY_SOURCE (conformance's p2p_small does the same
 * at every rank count; this times it alone). Plain MPI C: builds with
 * gpumpicc and with mpicc.
 *
 *   fanin [MSGS [BYTES [REPS]]]
 *
 * Defaults: 2 messages of 8 bytes a rank, 3 measurements. Each
 * measurement starts with a barrier and ends when rank 0 has every
 * message; it prints the time and the rate at rank 0, and the time rank 0
 * spent in its first and last tenth of the receives (a flood that slows
 * the receiver shows there). Every message carries its sender and number,
 * checked in order per sender; a mismatch aborts, and "fanin verified:"
 * at the end says how many were checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what, int src, long got, long want)
{
    printf("fanin: FAILED: %s (from %d: got %ld, expected %ld)\n", what, src, got, want);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int msgs = argc > 1 ? atoi(argv[1]) : 2, bytes = argc > 2 ? atoi(argv[2]) : 8, reps = argc > 3 ? atoi(argv[3]) : 3;
    if (bytes < 8) bytes = 8;
    char *buf = malloc((size_t)bytes);
    int *next = rank == 0 ? calloc((size_t)size, sizeof(int)) : NULL;
    memset(buf, 0, (size_t)bytes);
    for (int rep = 0; rep < reps; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (rank != 0) {
            for (int k = 0; k < msgs; k++) {
                int hdr[2] = {rank, rep * msgs + k};
                memcpy(buf, hdr, sizeof hdr);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
            }
        } else {
            long total = (long)(size - 1) * msgs, tenth = total / 10 > 0 ? total / 10 : 1;
            double t_first = 0, t_mark = t0;
            for (long i = 0; i < total; i++) {
                MPI_Status st;
                int n = -1, hdr[2];
                MPI_Recv(buf, bytes, MPI_BYTE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_BYTE, &n);
                memcpy(hdr, buf, sizeof hdr);
                int s = st.MPI_SOURCE;
                if (s <= 0 || s >= size || hdr[0] != s) fail("sender", s, hdr[0], s);
                if (n != bytes) fail("byte count", s, n, bytes);
                if (hdr[1] != rep * msgs + next[s]) fail("order", s, hdr[1], rep * msgs + next[s]);
                next[s]++;
                if (i + 1 == tenth) t_first = MPI_Wtime() - t0;
                if (i + 1 == total - tenth) t_mark = MPI_Wtime();
            }
            double t = MPI_Wtime() - t0;
            for (int r = 1; r < size; r++) {
                if (next[r] != msgs) fail("message count", r, next[r], msgs);
                next[r] = 0;
            }
            printf("fanin ranks=%d msgs=%d bytes=%d rep=%d s=%.6f msgs_per_s=%.0f first_tenth_s=%.6f "
                   "last_tenth_s=%.6f\n",
                   size, msgs, bytes, rep, t, (double)total / t, t_first, MPI_Wtime() - t_mark);
            fflush(stdout);
        }
    }
    if (rank == 0)
        printf("fanin verified: %ld messages from %d ranks, each sender's in order with its size\n",
               (long)(size - 1) * msgs * reps, size - 1);
    MPI_Barrier(MPI_COMM_WORLD);
    free(buf);
    free(next);
    MPI_Finalize();
    return 0;
}
