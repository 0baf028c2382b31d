/* Point-to-point semantics the runtime must keep: wildcard receives see
 * queued messages and fill MPI_Status, messages from one sender do not
 * overtake each other, collective traffic never matches MPI_ANY_TAG, large
 * messages (rendezvous, heap staging) arrive intact, MPI_PROC_NULL is a
 * no-op. Prints "p2p_semantics: OK" on rank 0 when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG 5000

int main(int argc, char **argv)
{
    int rank, size, i, errors = 0, total;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* 1. every rank sends 3 tagged messages to rank 0, in order */
    if (rank != 0) {
        for (i = 0; i < 3; i++) {
            int v = rank * 100 + i;
            MPI_Send(&v, 1, MPI_INT, 0, 10 + i, MPI_COMM_WORLD);
        }
    } else {
        int *next = (int *)calloc((size_t)size, sizeof(int));
        for (i = 0; i < 3 * (size - 1); i++) {
            int v, count;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            if (count != 1 || st.MPI_SOURCE < 1 || st.MPI_SOURCE >= size) {
                errors++;
                continue;
            }
            /* non-overtaking: this sender's messages come in the order sent */
            if (v != st.MPI_SOURCE * 100 + next[st.MPI_SOURCE] || st.MPI_TAG != 10 + next[st.MPI_SOURCE]) errors++;
            next[st.MPI_SOURCE]++;
        }
        free(next);
    }

    /* 2. collective traffic must never match a wildcard receive: rank 0's
     *    broadcast reaches rank 1 before its tag-5 message does, yet rank 1's
     *    MPI_ANY_SOURCE/MPI_ANY_TAG receive, posted before its MPI_Bcast,
     *    must get the tag-5 message. */
    MPI_Barrier(MPI_COMM_WORLD);
    int token = 0, b = rank == 0 ? 77 : 0;
    if (size > 1 && rank == 0) {
        MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
        token = 55;
        MPI_Send(&token, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else if (size > 1 && rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (token != 55 || st.MPI_TAG != 5 || st.MPI_SOURCE != 0) errors++;
        MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (b != 77) errors++;
    MPI_Barrier(MPI_COMM_WORLD);

    /* 3. large messages around a ring: from the heap (shared memory) and
     *    from the stack (private to the sending thread on a GPU) */
    double *heap = (double *)malloc(BIG * sizeof(double));
    double *in = (double *)malloc(BIG * sizeof(double));
    double stackbuf[600];
    int next_rank = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (i = 0; i < BIG; i++) heap[i] = rank + i * 0.5;
    for (i = 0; i < 600; i++) stackbuf[i] = -rank - i;
    if (rank % 2 == 0) {
        MPI_Send(heap, BIG, MPI_DOUBLE, next_rank, 1, MPI_COMM_WORLD);
        MPI_Recv(in, BIG, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &st);
    } else {
        MPI_Recv(in, BIG, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &st);
        MPI_Send(heap, BIG, MPI_DOUBLE, next_rank, 1, MPI_COMM_WORLD);
    }
    for (i = 0; i < BIG; i++)
        if (in[i] != prev + i * 0.5) {
            errors++;
            break;
        }
    if (rank % 2 == 0) {
        MPI_Send(stackbuf, 600, MPI_DOUBLE, next_rank, 2, MPI_COMM_WORLD);
        MPI_Recv(in, 600, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &st);
    } else {
        MPI_Recv(in, 600, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &st);
        MPI_Send(stackbuf, 600, MPI_DOUBLE, next_rank, 2, MPI_COMM_WORLD);
    }
    for (i = 0; i < 600; i++)
        if (in[i] != -prev - i) {
            errors++;
            break;
        }
    free(heap);
    free(in);

    /* 4. MPI_PROC_NULL */
    MPI_Send(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    if (st.MPI_SOURCE != MPI_PROC_NULL) errors++;

    /* 5. reductions: sum, max and min on int and double, to a non-zero root */
    int isum, imax;
    double dsum, dmin, mine = rank + 0.25;
    int root = size - 1;
    MPI_Reduce(&rank, &isum, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    MPI_Reduce(&rank, &imax, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &dsum, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &dmin, 1, MPI_DOUBLE, MPI_MIN, root, MPI_COMM_WORLD);
    if (rank == root && (isum != size * (size - 1) / 2 || imax != size - 1 ||
                         dsum != size * (size - 1) / 2.0 + 0.25 * size || dmin != 0.25))
        errors++;

    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* every rank returns the verdict */
    if (rank == 0) printf(total ? "p2p_semantics: %d errors\n" : "p2p_semantics: OK\n", total);
    MPI_Finalize();
    return total != 0;
}
