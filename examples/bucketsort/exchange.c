#include <stdio.h>
#include <stdlib.h>
#include "exchange.h"

void exchange_step(MPI_Comm comm, uint32_t **keys, int *n, const int *dest)
{
    int p, i, total = 0;
    int *scount, *sdispl, *rcount, *rdispl, *fill;
    uint32_t *sendbuf, *recvbuf;
    MPI_Comm_size(comm, &p);
    scount = calloc(p, sizeof(int));
    sdispl = malloc(p * sizeof(int));
    rcount = malloc(p * sizeof(int));
    rdispl = malloc(p * sizeof(int));
    fill = malloc(p * sizeof(int));
    for (i = 0; i < *n; i++)
        scount[dest[i]]++;
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm);
    for (i = 0; i < p; i++) {
        sdispl[i] = i ? sdispl[i - 1] + scount[i - 1] : 0;
        rdispl[i] = total;
        total += rcount[i];
        fill[i] = sdispl[i];
    }
    sendbuf = malloc((*n + 1) * sizeof(uint32_t));
    for (i = 0; i < *n; i++)
        sendbuf[fill[dest[i]]++] = (*keys)[i];
    recvbuf = malloc((total + 1) * sizeof(uint32_t));
    if (!sendbuf || !recvbuf) {
        fprintf(stderr, "bucketsort: out of memory for %d keys\n", total);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Alltoallv(sendbuf, scount, sdispl, MPI_UNSIGNED, recvbuf, rcount, rdispl, MPI_UNSIGNED, comm);
    free(*keys);
    free(sendbuf);
    *keys = recvbuf;
    *n = total;
    free(scount);
    free(sdispl);
    free(rcount);
    free(rdispl);
    free(fill);
}

void exchange_direct(uint32_t **keys, int *n)
{
    int p, i, *dest;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    dest = malloc((*n + 1) * sizeof(int));
    for (i = 0; i < *n; i++)
        dest[i] = bucket_of((*keys)[i], p);
    exchange_step(MPI_COMM_WORLD, keys, n, dest);
    free(dest);
}

void exchange_2level(uint32_t **keys, int *n, int *rows, int *cols)
{
    int p, rank, dims[2] = {0, 0}, row, col, i, *dest;
    MPI_Comm rowcomm, colcomm;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Dims_create(p, 2, dims);
    *rows = dims[0];
    *cols = dims[1];
    row = rank / dims[1];
    col = rank % dims[1];
    /* rank = row * cols + col; the row communicator is ranked by column,
     * the column communicator by row */
    MPI_Comm_split(MPI_COMM_WORLD, row, col, &rowcomm);
    MPI_Comm_split(MPI_COMM_WORLD, col, row, &colcomm);
    /* first along my row to the column of the key's owner ... */
    dest = malloc((*n + 1) * sizeof(int));
    for (i = 0; i < *n; i++)
        dest[i] = bucket_of((*keys)[i], p) % dims[1];
    exchange_step(rowcomm, keys, n, dest);
    free(dest);
    /* ... then along that column to the owner's row */
    dest = malloc((*n + 1) * sizeof(int));
    for (i = 0; i < *n; i++)
        dest[i] = bucket_of((*keys)[i], p) / dims[1];
    exchange_step(colcomm, keys, n, dest);
    free(dest);
    MPI_Comm_free(&rowcomm);
    MPI_Comm_free(&colcomm);
}
