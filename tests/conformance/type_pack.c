/* MPI_Pack, MPI_Unpack and MPI_Pack_size, checked by themselves: prints
 * "No Errors" when every check passed on every rank (MPICH's test
 * convention), else one line per failed check. Round trips of mixed
 * items through one buffer, positions, packed messages sent as
 * MPI_PACKED and received as typed data and back. Runs with any number of
 * ranks >= 1. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

static int left, right;

struct item {
    char tag;
    double v[2];
    short s;
};

enum { NV = 40, NI = 5, BUF = 4096 };
static double grid[NV * 3];
static struct item items[NI], items_out[NI];
static char packbuf[BUF], recvbuf[BUF];

static MPI_Datatype column, item_type;

static void make_types(void)
{
    MPI_Type_vector(NV, 1, 3, MPI_DOUBLE, &column); /* every third double */
    MPI_Type_commit(&column);
    int bl[3] = {1, 2, 1};
    MPI_Aint d[3] = {offsetof(struct item, tag), offsetof(struct item, v), offsetof(struct item, s)};
    MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT};
    MPI_Type_create_struct(3, bl, d, ty, &item_type);
    MPI_Type_commit(&item_type);
}

static void fill(int r)
{
    for (int i = 0; i < NV * 3; i++) grid[i] = r * 1000 + i * 0.5;
    memset(items, 0, sizeof items);
    for (int i = 0; i < NI; i++) {
        items[i].tag = (char)('A' + r % 26);
        items[i].v[0] = r + i;
        items[i].v[1] = -r - i * 0.25;
        items[i].s = (short)(r * 7 + i);
    }
}

/* Packs: an int, the column, the items, two chars; returns the position. */
static int pack_all(char *buf, int cap)
{
    int pos = 0, n = rank * 3 + 1;
    char cc[2] = {'x', 'y'};
    MPI_Pack(&n, 1, MPI_INT, buf, cap, &pos, MPI_COMM_WORLD);
    int p1 = pos;
    MPI_Pack(grid, 1, column, buf, cap, &pos, MPI_COMM_WORLD);
    CHECK(pos - p1 == NV * (int)sizeof(double), "MPI_Pack: the column moves the position by its size");
    MPI_Pack(items, NI, item_type, buf, cap, &pos, MPI_COMM_WORLD);
    int p2 = pos;
    MPI_Pack(cc, 0, MPI_CHAR, buf, cap, &pos, MPI_COMM_WORLD);
    CHECK(pos == p2, "MPI_Pack: count 0 leaves the position");
    MPI_Pack(cc, 2, MPI_CHAR, buf, cap, &pos, MPI_COMM_WORLD);
    return pos;
}

/* Unpacks what pack_all packed (by rank r) and checks it. */
static void unpack_check(const char *what, const char *buf, int len, int r)
{
    char msg[160];
    int pos = 0, n = -1;
    double col[NV];
    char cc[2] = {0, 0};
    MPI_Unpack(buf, len, &pos, &n, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < NV * 3; i++) grid[i] = -1;
    MPI_Unpack(buf, len, &pos, grid, 1, column, MPI_COMM_WORLD);
    memset(items_out, 0x77, sizeof items_out);
    MPI_Unpack(buf, len, &pos, items_out, NI, item_type, MPI_COMM_WORLD);
    MPI_Unpack(buf, len, &pos, cc, 2, MPI_CHAR, MPI_COMM_WORLD);
    snprintf(msg, sizeof msg, "%s: position %d after unpacking, packed %d", what, pos, len);
    CHECK(pos == len, "%s", msg);
    CHECK(n == r * 3 + 1, "unpacked int");
    int bad = 0;
    for (int i = 0; i < NV * 3; i++) bad += grid[i] != (i % 3 == 0 ? r * 1000 + i * 0.5 : -1);
    snprintf(msg, sizeof msg, "%s: column wrong at %d places", what, bad);
    CHECK(bad == 0, "%s", msg);
    bad = 0;
    for (int i = 0; i < NI; i++) {
        bad += items_out[i].tag != 'A' + r % 26 || items_out[i].v[0] != r + i || items_out[i].v[1] != -r - i * 0.25 ||
               items_out[i].s != r * 7 + i;
        bad += ((unsigned char *)&items_out[i])[1] != 0x77; /* padding after tag untouched */
    }
    snprintf(msg, sizeof msg, "%s: items wrong at %d places", what, bad);
    CHECK(bad == 0, "%s", msg);
    CHECK(cc[0] == 'x' && cc[1] == 'y', "unpacked chars");
    (void)col;
}

static void round_trip(void)
{
    int s1, s2, s3, s4;
    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s1);
    MPI_Pack_size(1, column, MPI_COMM_WORLD, &s2);
    MPI_Pack_size(NI, item_type, MPI_COMM_WORLD, &s3);
    MPI_Pack_size(2, MPI_CHAR, MPI_COMM_WORLD, &s4);
    CHECK(s2 >= NV * (int)sizeof(double) && s3 >= NI * (1 + 16 + 2), "MPI_Pack_size is at least the data size");
    fill(rank);
    int len = pack_all(packbuf, BUF);
    CHECK(len <= s1 + s2 + s3 + s4, "packed no more than MPI_Pack_size said");
    unpack_check("round trip", packbuf, len, rank);

    /* packed, sent as MPI_PACKED, received as MPI_PACKED, unpacked */
    fill(rank);
    len = pack_all(packbuf, BUF);
    MPI_Status st;
    MPI_Sendrecv(packbuf, len, MPI_PACKED, right, 1, recvbuf, BUF, MPI_PACKED, left, 1, MPI_COMM_WORLD, &st);
    int got;
    MPI_Get_count(&st, MPI_PACKED, &got);
    CHECK(got == len, "MPI_Get_count of MPI_PACKED is the packed bytes");
    unpack_check("sent packed", recvbuf, got, left);
}

/* packed data is received as the types it holds, and typed data as packed */
static void packed_vs_typed(void)
{
    char msg[160];
    fill(rank);
    int pos = 0;
    MPI_Pack(grid, 1, column, packbuf, BUF, &pos, MPI_COMM_WORLD);
    double col[NV];
    MPI_Sendrecv(packbuf, pos, MPI_PACKED, right, 2, col, NV, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < NV; i++) bad += col[i] != left * 1000 + 3 * i * 0.5;
    snprintf(msg, sizeof msg, "packed column received as doubles: %d wrong", bad);
    CHECK(bad == 0, "%s", msg);

    MPI_Sendrecv(grid, 1, column, right, 3, recvbuf, BUF, MPI_PACKED, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pos = 0;
    MPI_Unpack(recvbuf, BUF, &pos, col, NV, MPI_DOUBLE, MPI_COMM_WORLD);
    bad = 0;
    for (int i = 0; i < NV; i++) bad += col[i] != left * 1000 + 3 * i * 0.5;
    snprintf(msg, sizeof msg, "column received packed, unpacked as doubles: %d wrong", bad);
    CHECK(bad == 0, "%s", msg);
    CHECK(pos == NV * (int)sizeof(double), "position after unpacking the column");
}

/* unpacking in pieces, and into a type with a negative stride */
static void pieces(void)
{
    int v[12], out[12], pos = 0;
    for (int i = 0; i < 12; i++) v[i] = rank * 50 + i;
    MPI_Pack(v, 12, MPI_INT, packbuf, BUF, &pos, MPI_COMM_WORLD);
    MPI_Datatype rev;
    MPI_Type_vector(4, 1, -1, MPI_INT, &rev); /* 4 ints backwards from the origin */
    MPI_Type_commit(&rev);
    for (int i = 0; i < 12; i++) out[i] = -1;
    pos = 0;
    MPI_Unpack(packbuf, 48, &pos, out + 3, 1, rev, MPI_COMM_WORLD); /* out[3], out[2], out[1], out[0] */
    CHECK(pos == 16, "position after one backwards vector");
    MPI_Unpack(packbuf, 48, &pos, out + 4, 8, MPI_INT, MPI_COMM_WORLD);
    CHECK(pos == 48, "position after the rest");
    int ok = out[0] == v[3] && out[1] == v[2] && out[2] == v[1] && out[3] == v[0];
    for (int i = 4; i < 12; i++) ok &= out[i] == v[i];
    CHECK(ok, "unpacking in pieces, backwards then forwards");
    /* packing through the backwards type: element e (extent 16 bytes, lb
     * -12) holds v[3 + 4e - k], k = 0..3 */
    MPI_Aint lb, ext;
    MPI_Type_get_extent(rev, &lb, &ext);
    CHECK(lb == -12 && ext == 16, "backwards vector: lb -12, extent 16");
    pos = 0;
    MPI_Pack(v + 3, 3, rev, packbuf, BUF, &pos, MPI_COMM_WORLD);
    int got[12];
    pos = 0;
    MPI_Unpack(packbuf, BUF, &pos, got, 12, MPI_INT, MPI_COMM_WORLD);
    ok = 1;
    for (int e = 0; e < 3; e++)
        for (int k = 0; k < 4; k++) ok &= got[e * 4 + k] == v[3 + 4 * e - k];
    CHECK(ok, "packing a backwards vector");
    MPI_Type_free(&rev);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    make_types();
    round_trip();
    packed_vs_typed();
    pieces();
    MPI_Type_free(&column);
    MPI_Type_free(&item_type);
    return mt_finish();
}
