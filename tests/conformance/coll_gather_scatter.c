/* Gather, Scatter, Gatherv, Scatterv, Allgather, Allgatherv: every root (a
 * sample past 64 ranks), small and large blocks, in place, uneven counts
 * with gaps between the blocks and zero counts, MPI_COMM_SELF. Prints
 * " No Errors" when every check passed on every rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

static int nroots(void) { return size <= 64 ? size : 16; }
static int root_at(int i) { return size <= 64 ? i : (int)((long)i * (size - 1) / 15); }
/* block sizes in ints: small, and past the eager size (kept small on big runs) */
static int nblocks(void) { return size <= 64 ? 3 : 2; }
static int block_at(int i) { return i == 0 ? 1 : i == 1 ? 5 : 300; }

static int value(int r, int i) { return r * 1000 + i; }

static void gather_scatter(void)
{
    for (int bi = 0; bi < nblocks(); bi++) {
        int b = block_at(bi);
        int *mine = malloc(sizeof(int) * b), *all = malloc(sizeof(int) * b * size);
        for (int ri = 0; ri < nroots(); ri++) {
            int root = root_at(ri);
            for (int i = 0; i < b; i++) mine[i] = value(rank, i);
            for (int i = 0; i < b * size; i++) all[i] = -1;
            MPI_Gather(mine, b, MPI_INT, all, b, MPI_INT, root, MPI_COMM_WORLD);
            int ok = 1;
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < b; i++) ok &= all[r * b + i] == value(r, i);
            CHECK(ok, "gather root %d block %d", root, b);
            /* in place: the root's block is already in place */
            if (rank == root) {
                for (int i = 0; i < b * size; i++) all[i] = -1;
                for (int i = 0; i < b; i++) all[root * b + i] = value(root, i) + 7;
                MPI_Gather(MPI_IN_PLACE, b, MPI_INT, all, b, MPI_INT, root, MPI_COMM_WORLD);
                ok = 1;
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < b; i++) ok &= all[r * b + i] == value(r, i) + (r == root ? 7 : 0);
                CHECK(ok, "gather in place root %d block %d", root, b);
            } else {
                MPI_Gather(mine, b, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD);
            }
            /* scatter the root's table: block r to rank r */
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < b; i++) all[r * b + i] = value(r, i) + root;
            for (int i = 0; i < b; i++) mine[i] = -1;
            MPI_Scatter(all, b, MPI_INT, mine, b, MPI_INT, root, MPI_COMM_WORLD);
            ok = 1;
            for (int i = 0; i < b; i++) ok &= mine[i] == value(rank, i) + root;
            CHECK(ok, "scatter root %d block %d", root, b);
            if (rank == root) {
                MPI_Scatter(all, b, MPI_INT, MPI_IN_PLACE, b, MPI_INT, root, MPI_COMM_WORLD);
                ok = 1;
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < b; i++) ok &= all[r * b + i] == value(r, i) + root;
                CHECK(ok, "scatter in place leaves the root's table");
            } else {
                for (int i = 0; i < b; i++) mine[i] = -1;
                MPI_Scatter(NULL, 0, MPI_INT, mine, b, MPI_INT, root, MPI_COMM_WORLD);
                ok = 1;
                for (int i = 0; i < b; i++) ok &= mine[i] == value(rank, i) + root;
                CHECK(ok, "scatter (root in place) root %d block %d", root, b);
            }
        }
        free(mine);
        free(all);
    }
    /* doubles, and chars */
    double d = rank + 0.5, *ds = malloc(sizeof(double) * size);
    MPI_Gather(&d, 1, MPI_DOUBLE, ds, 1, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
    if (rank == size - 1) {
        int ok = 1;
        for (int r = 0; r < size; r++) ok &= ds[r] == r + 0.5;
        CHECK(ok, "gather doubles");
    }
    free(ds);
    /* the root's buffer on its stack, which only the root reaches (on the
     * GPU a world gather or scatter then goes through the runtime's own
     * memory; a heap buffer goes straight), with parts of one int */
    if (size <= 256) {
        int on_stack[256], v = rank * 3 + 1;
        MPI_Gather(&v, 1, MPI_INT, on_stack, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            int ok = 1;
            for (int r = 0; r < size; r++) ok &= on_stack[r] == r * 3 + 1;
            CHECK(ok, "gather into the root's stack");
            for (int r = 0; r < size; r++) on_stack[r] = r * 5 + 2;
        }
        MPI_Scatter(on_stack, 1, MPI_INT, &v, 1, MPI_INT, 0, MPI_COMM_WORLD);
        CHECK(v == rank * 5 + 2, "scatter from the root's stack: got %d", v);
    }
    int one = rank, got = -1;
    MPI_Gather(&one, 1, MPI_INT, &got, 1, MPI_INT, 0, MPI_COMM_SELF);
    CHECK(got == rank, "gather on MPI_COMM_SELF");
    got = -1;
    MPI_Scatter(&one, 1, MPI_INT, &got, 1, MPI_INT, 0, MPI_COMM_SELF);
    CHECK(got == rank, "scatter on MPI_COMM_SELF");
}

/* rank r's count: uneven, some zero; displacements leave gaps */
static int vcount(int r, int big) { return r % 4 == 3 ? 0 : (big ? 200 + r % 5 : 1 + r % 3); }

static void gatherv_scatterv(void)
{
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    for (int big = 0; big < 2; big++) {
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = vcount(r, big);
            displs[r] = total + 2; /* a gap of 2 before each block, in reverse rank order below */
            total += counts[r] + 2;
        }
        /* reverse the layout: rank 0's block last */
        for (int r = 0; r < size; r++) displs[r] = total - displs[r] - counts[r];
        int *table = malloc(sizeof(int) * (total + 1)), *mine = malloc(sizeof(int) * (vcount(rank, big) + 1));
        for (int ri = 0; ri < nroots(); ri++) {
            int root = root_at(ri);
            int n = vcount(rank, big);
            for (int i = 0; i < n; i++) mine[i] = value(rank, i);
            for (int i = 0; i < total; i++) table[i] = -5;
            MPI_Gatherv(mine, n, MPI_INT, table, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
            if (rank == root) {
                int ok = 1, marked = 0;
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < counts[r]; i++) ok &= table[displs[r] + i] == value(r, i);
                for (int i = 0; i < total; i++) marked += table[i] == -5;
                int used = 0;
                for (int r = 0; r < size; r++) used += counts[r];
                CHECK(ok && marked == total - used, "gatherv root %d big %d", root, big);
            }
            /* in place at the root */
            if (rank == root) {
                for (int i = 0; i < total; i++) table[i] = -5;
                for (int i = 0; i < counts[root]; i++) table[displs[root] + i] = 99;
                MPI_Gatherv(MPI_IN_PLACE, 0, MPI_INT, table, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
                int ok = 1;
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < counts[r]; i++) ok &= table[displs[r] + i] == (r == root ? 99 : value(r, i));
                CHECK(ok, "gatherv in place root %d", root);
            } else {
                MPI_Gatherv(mine, n, MPI_INT, NULL, NULL, NULL, MPI_INT, root, MPI_COMM_WORLD);
            }
            /* scatterv back, with a different value */
            if (rank == root)
                for (int r = 0; r < size; r++)
                    for (int i = 0; i < counts[r]; i++) table[displs[r] + i] = value(r, i) * 2 + root;
            for (int i = 0; i < n; i++) mine[i] = -1;
            mine[n] = -9;
            MPI_Scatterv(table, counts, displs, MPI_INT, mine, n, MPI_INT, root, MPI_COMM_WORLD);
            int ok = mine[n] == -9;
            for (int i = 0; i < n; i++) ok &= mine[i] == value(rank, i) * 2 + root;
            CHECK(ok, "scatterv root %d big %d", root, big);
            if (rank == root)
                MPI_Scatterv(table, counts, displs, MPI_INT, MPI_IN_PLACE, 0, MPI_INT, root, MPI_COMM_WORLD);
            else
                MPI_Scatterv(NULL, NULL, NULL, MPI_INT, mine, n, MPI_INT, root, MPI_COMM_WORLD);
            ok = 1;
            for (int i = 0; i < n; i++) ok &= (rank == root ? table[displs[rank] + i] : mine[i]) == value(rank, i) * 2 + root;
            CHECK(ok, "scatterv in place root %d", root);
        }
        free(table);
        free(mine);
    }
    free(counts);
    free(displs);
}

static void allgather(void)
{
    for (int bi = 0; bi < nblocks(); bi++) {
        int b = block_at(bi);
        int *mine = malloc(sizeof(int) * b), *all = malloc(sizeof(int) * b * size);
        for (int i = 0; i < b; i++) mine[i] = value(rank, i);
        for (int i = 0; i < b * size; i++) all[i] = -1;
        MPI_Allgather(mine, b, MPI_INT, all, b, MPI_INT, MPI_COMM_WORLD);
        int ok = 1;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < b; i++) ok &= all[r * b + i] == value(r, i);
        CHECK(ok, "allgather block %d", b);
        for (int i = 0; i < b * size; i++) all[i] = i / b == rank ? value(rank, i % b) + 3 : -1;
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, b, MPI_INT, MPI_COMM_WORLD);
        ok = 1;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < b; i++) ok &= all[r * b + i] == value(r, i) + 3;
        CHECK(ok, "allgather in place block %d", b);
        free(mine);
        free(all);
    }
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    for (int big = 0; big < 2; big++) {
        int total = 0;
        for (int r = size - 1; r >= 0; r--) { /* blocks in reverse rank order, gaps of 1 */
            counts[r] = vcount(r, big && size <= 64);
            displs[r] = total + 1;
            total += counts[r] + 1;
        }
        int *all = malloc(sizeof(int) * total), *mine = malloc(sizeof(int) * (counts[rank] + 1));
        for (int i = 0; i < counts[rank]; i++) mine[i] = value(rank, i);
        for (int i = 0; i < total; i++) all[i] = -5;
        MPI_Allgatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
        int ok = 1, marked = 0;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++) ok &= all[displs[r] + i] == value(r, i);
        for (int i = 0; i < total; i++) marked += all[i] == -5;
        CHECK(ok && marked == size, "allgatherv big %d", big);
        for (int i = 0; i < total; i++) all[i] = -5;
        for (int i = 0; i < counts[rank]; i++) all[displs[rank] + i] = value(rank, i) + 1;
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
        ok = 1;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++) ok &= all[displs[r] + i] == value(r, i) + 1;
        CHECK(ok, "allgatherv in place big %d", big);
        free(all);
        free(mine);
    }
    free(counts);
    free(displs);
    int one = rank + 1, got = 0, c1 = 1, d0 = 0;
    MPI_Allgather(&one, 1, MPI_INT, &got, 1, MPI_INT, MPI_COMM_SELF);
    CHECK(got == rank + 1, "allgather on MPI_COMM_SELF");
    got = 0;
    MPI_Allgatherv(&one, 1, MPI_INT, &got, &c1, &d0, MPI_INT, MPI_COMM_SELF);
    CHECK(got == rank + 1, "allgatherv on MPI_COMM_SELF");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    gather_scatter();
    gatherv_scatterv();
    allgather();
    return mt_finish();
}
