/* Broadcasts and reductions of a few bytes over MPI_COMM_WORLD and a dup
 * of it (gpumpi's shared-memory path, where up to a few calls are in
 * flight at once): many calls back to back with the root moving and the
 * ranks delayed differently, so a rank racing ahead into a later call's
 * slot would corrupt a value; basic types and a derived one (broadcast),
 * in place at the root; float sums bitwise the same in every repetition; and neither call
 * made to wait for ranks it does not need: a broadcast's root, and a
 * reduction's non-root, go on to a point-to-point exchange that the other
 * side finishes before it enters the collective (as under MPICH, whose
 * root and leaves send eagerly). Prints " No Errors" when every check passed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpitest.h"

enum { CALLS = 40 };

static unsigned char byte_of(int call, int i) { return (unsigned char)(call * 37 + i * 11 + 5); }

/* a rank-dependent delay, different in each call */
static void jitter(int call)
{
    volatile double x = 0;
    if ((rank * 7 + call) % 5 == 0)
        for (int i = 0; i < 2000 * (1 + (rank + call) % 4); i++) x += i;
}

static void broadcasts(MPI_Comm comm)
{
    for (int call = 0; call < CALLS; call++) {
        int root = (call * 7) % size, len = 1 + call % 64;
        unsigned char buf[64];
        for (int i = 0; i < 64; i++) buf[i] = rank == root ? byte_of(call, i) : 0xEE;
        jitter(call);
        MPI_Bcast(buf, len, MPI_BYTE, root, comm);
        int bad = 0;
        for (int i = 0; i < 64; i++) bad += buf[i] != (i < len ? byte_of(call, i) : (rank == root ? byte_of(call, i) : 0xEE));
        CHECK(!bad, "bcast call %d (root %d, %d bytes): %d bytes wrong, first %u", call, root, len, bad, buf[0]);
        double d = rank == root ? call + 0.5 : -1.0;
        MPI_Bcast(&d, 1, MPI_DOUBLE, root, comm);
        CHECK(d == call + 0.5, "bcast double call %d: %g", call, d);
    }
    /* a derived type: every other int of 8 */
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int v[8];
    for (int i = 0; i < 8; i++) v[i] = rank == size - 1 ? 100 + i : -1;
    MPI_Bcast(v, 1, every_other, size - 1, comm);
    for (int i = 0; i < 8; i++) CHECK(v[i] == (i % 2 == 0 || rank == size - 1 ? 100 + i : -1), "vector bcast v[%d] = %d", i, v[i]);
    MPI_Type_free(&every_other);
}

static void reductions(MPI_Comm comm)
{
    long long n = size;
    for (int call = 0; call < CALLS; call++) {
        int root = (call * 5 + 1) % size, count = 1 + call % 8;
        int in[8], out[8];
        for (int i = 0; i < 8; i++) {
            in[i] = (rank % 1000) * (i + 1) + call;
            out[i] = -7;
        }
        jitter(call);
        if (call % 3 == 2 && rank == root) {
            memcpy(out, in, sizeof in);
            MPI_Reduce(MPI_IN_PLACE, out, count, MPI_INT, MPI_SUM, root, comm);
        } else {
            MPI_Reduce(in, out, count, MPI_INT, MPI_SUM, root, comm);
        }
        long long cycles = n / 1000, rest = n % 1000, base = cycles * 499500 + rest * (rest - 1) / 2;
        if (rank == root) {
            for (int i = 0; i < count; i++)
                CHECK(out[i] == (int)(base * (i + 1) + (long long)call * n), "int sum call %d root %d [%d]: %d want %lld",
                      call, root, i, out[i], base * (i + 1) + (long long)call * n);
        } else {
            CHECK(out[0] == -7, "reduce wrote a non-root's buffer (call %d)", call);
        }
        double x = rank == (call % size) ? 1e9 + call : (double)(rank % 97), mx;
        MPI_Reduce(&x, &mx, 1, MPI_DOUBLE, MPI_MAX, root, comm);
        if (rank == root) CHECK(mx == 1e9 + call, "double max call %d: %g", call, mx);
        long bits = 1L << (rank % 40), bx;
        MPI_Reduce(&bits, &bx, 1, MPI_LONG, MPI_BXOR, 0, comm);
        if (rank == 0) {
            long want = 0;
            for (int r = 0; r < (size < 40 ? size : 40); r++)
                if (((size - 1 - r) / 40 + 1) % 2) want ^= 1L << r;
            CHECK(bx == want, "long bxor call %d: %lx want %lx", call, bx, want);
        }
    }
    /* to the last rank, alone in its node of 32 when size is one more than a multiple of 32 */
    for (int call = 0; call < 3; call++) {
        int one = 1 + call, tot = -1;
        MPI_Reduce(&one, &tot, 1, MPI_INT, MPI_SUM, size - 1, comm);
        if (rank == size - 1) CHECK(tot == size * (1 + call), "sum to the last rank: %d", tot);
    }
    /* two doubles (predefined operations take no derived types) */
    double p[2] = {1.0, (double)rank}, ps[2] = {0, 0};
    MPI_Reduce(p, ps, 2, MPI_DOUBLE, MPI_SUM, size / 2, comm);
    if (rank == size / 2) CHECK(ps[0] == (double)size && ps[1] == (double)n * (n - 1) / 2, "pair sum %g %g", ps[0], ps[1]);
}

static void reproducible(void)
{
    float in[4], first[4], out[4];
    for (int i = 0; i < 4; i++) in[i] = mt_fvalue(rank, i);
    for (int rep = 0; rep < 8; rep++) {
        jitter(rep * 3 + 1);
        MPI_Reduce(in, out, 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            if (rep == 0) memcpy(first, out, sizeof out);
            CHECK(!memcmp(first, out, sizeof out), "float sum differs in repetition %d", rep);
        }
    }
}

/* the root of a broadcast and a non-root of a reduction leave without
 * waiting for the rank that has not called yet */
static void not_synchronising(void)
{
    if (size < 2) return;
    int last = size - 1, token = 0, x = 0;
    if (rank == 0) {
        x = 42;
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
        token = 7;
        MPI_Send(&token, 1, MPI_INT, last, 5, MPI_COMM_WORLD);
    } else if (rank == last) {
        MPI_Recv(&token, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    CHECK(x == 42 && (rank == 0 || rank != last || token == 7), "bcast before the exchange: x %d token %d", x, token);
    int one = 1, sum = 0;
    if (rank == 1) {
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        token = 9;
        MPI_Send(&token, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&token, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        CHECK(token == 9 && sum == size, "reduce after the exchange: token %d sum %d", token, sum);
    } else {
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    broadcasts(MPI_COMM_WORLD);
    reductions(dup);
    broadcasts(dup);
    reductions(MPI_COMM_WORLD);
    reproducible();
    not_synchronising();
    /* interleaved with the calls that synchronise */
    for (int call = 0; call < 10; call++) {
        int a = rank, s = 0, b = rank == call % size ? call : -1;
        MPI_Allreduce(&a, &s, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Bcast(&b, 1, MPI_INT, call % size, dup);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(s == size - 1 && b == call, "interleaved call %d: max %d bcast %d", call, s, b);
    }
    MPI_Comm_free(&dup);
    return mt_finish();
}
