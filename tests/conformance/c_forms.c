/* Legal C that gcc and MPICH accept and that stopped the converter (issue
 * 26, found in MPI benchmark suites): file-scope function pointers with
 * initializers (one, and an array of them), a K&R definition whose
 * parameters are declared as arrays, a static local whose size is a macro
 * #defined inside its function, C11's _Static_assert, _Alignas, _Alignof
 * and _Noreturn, and wchar_t with L'x'. Each value is checked; prints
 * " No Errors" when every check passed on every rank. Any number of ranks. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "mpitest.h"

static int square(int x) { return x * x; }
static int cube(int x) { return x * x * x; }
int (*g_fn)(int) = square;
static int (*g_table[2])(int) = {square, cube};

int knr_sum(mm, nn, k)
int mm[], nn[];
int k;
{
    return mm[k] + nn[k];
}

_Static_assert(sizeof(int) >= 2, "int holds at least 16 bits");
struct aligned {
    char tag;
    _Alignas(16) char payload[4];
};

static _Noreturn void give_up(const char *why)
{
    printf("rank %d: %s\n", rank, why);
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort();
}

static int tally(int add)
{
#define TALLY_SLOTS 5
    static int slots[TALLY_SLOTS];
    slots[add % TALLY_SLOTS] += add;
    return slots[add % TALLY_SLOTS] + TALLY_SLOTS;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int a[3] = {1, 2, 3}, b[3] = {10, 20, 30};

    CHECK(g_fn(rank + 1) == (rank + 1) * (rank + 1), "g_fn(%d) = %d", rank + 1, g_fn(rank + 1));
    CHECK(g_table[1](3) == 27 && g_table[0](4) == 16, "g_table: %d %d", g_table[1](3), g_table[0](4));
    g_fn = cube; /* each rank's own copy */
    CHECK(g_fn(2) == 8, "g_fn after assignment: %d", g_fn(2));

    CHECK(knr_sum(a, b, rank % 3) == a[rank % 3] + b[rank % 3], "knr_sum: %d", knr_sum(a, b, rank % 3));

    CHECK(tally(7) == 7 + 5 && tally(7) == 14 + 5, "tally: static int slots[TALLY_SLOTS] keeps its values");

    CHECK(_Alignof(struct aligned) == 16 && offsetof(struct aligned, payload) == 16,
          "_Alignas(16): alignment %d, offset %d", (int)_Alignof(struct aligned), (int)offsetof(struct aligned, payload));

    wchar_t w = L'x';
    CHECK(w == (wchar_t)'x' && sizeof(wchar_t) >= 2, "wchar_t: %d", (int)w);

    if (rank < 0) give_up("a negative rank");
    mt_finish();
    return 0;
}
