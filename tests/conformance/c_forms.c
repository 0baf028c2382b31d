/* Legal C that gcc and MPICH accept and that stopped the converter (issue
 * 26, found in MPI benchmark suites): file-scope function pointers with
 * initializers (one, and an array of them), a K&R definition whose
 * parameters are declared as arrays, a static local whose size is a macro
 * #defined inside its function, C11's _Static_assert, _Alignas, _Alignof
 * and _Noreturn, wchar_t with L'x', math on integer arguments (sqrt(int),
 * log2(size_t), fmod(double, uint64_t): on the GPU these reached host-only
 * overloads), <malloc.h> and <memory.h> for what <stdlib.h> and <string.h>
 * declare, MPI_Alloc_mem / MPI_Free_mem, and access() (through the
 * launcher on gpumpi; the threads backend used glibc's silently, the GPU
 * build failed), argv's strings written by each rank, and optarg as a
 * member and a parameter name and declared `extern` inside a function.
 * Each value is checked; prints " No Errors" when every check passed on
 * every rank. Any number of ranks. */
#include <mpi.h>
#include <malloc.h>
#include <math.h>
#include <memory.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
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

/* names the C library also uses: a member and a parameter called optarg */
struct option_seen {
    int optarg;
};
static int seen(const struct option_seen *s, int optarg) { return s->optarg + optarg; }

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

    size_t words = 64;
    int sixteen = 16;
    uint64_t three = 3;
    short two = 2;
    /* within an ulp or two: the GPU's log2 and pow are not correctly rounded */
    CHECK(fabs(log2(words) - 6.0) < 1e-12 && sqrt(sixteen) == 4.0 && fmod(7.5, three) == 1.5 &&
              fabs(pow(2, 10) - 1024.0) < 1e-9,
          "math on integers: %.17g %g %g %.17g", log2(words), sqrt(sixteen), fmod(7.5, three), pow(2, 10));
    CHECK(fabs(-sixteen) == 16.0 && floor(sixteen) == 16.0 && ceil(three) == 3.0 && fabs(exp2(two) - 4.0) < 1e-12 &&
              fabs(cbrt(8) - 2.0) < 1e-12 && lround(sixteen) == 16 && ilogb(sixteen) == 4,
          "math on integers: fabs %g floor %g ceil %g exp2 %g cbrt %g lround %ld ilogb %d", fabs(-sixteen),
          floor(sixteen), ceil(three), exp2(two), cbrt(8), lround(sixteen), ilogb(sixteen));

    double *mem = NULL;
    int rc = MPI_Alloc_mem(4 * sizeof(double), MPI_INFO_NULL, &mem);
    CHECK(rc == MPI_SUCCESS && mem != NULL, "MPI_Alloc_mem: rc %d", rc);
    if (mem) {
        memset(mem, 0, 4 * sizeof(double));
        mem[3] = rank;
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        MPI_Sendrecv(mem + 3, 1, MPI_DOUBLE, right, 5, mem, 1, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(mem[0] == left, "a message into MPI_Alloc_mem's memory: %g, expected %d", mem[0], left);
        CHECK(MPI_Free_mem(mem) == MPI_SUCCESS, "MPI_Free_mem");
    }
    int *plain = memalign(16, 8 * sizeof(int)); /* <malloc.h> */
    CHECK(plain != NULL && ((uintptr_t)plain & 15) == 0, "memalign: %p", (void *)plain);
    free(plain);

    CHECK(access(".", F_OK) == 0, "access(\".\", F_OK) failed");
    errno = 0;
    int missing = access("/gpumpi-no-such-file", R_OK);
    CHECK(missing == -1 && errno == ENOENT, "access of a missing file: %d, errno %d", missing, errno);

    /* the C library's getopt state, declared inside a function as old code does */
    {
        extern char *optarg;
        extern int optind;
        struct option_seen os = {rank};
        CHECK(optarg == NULL && optind == 1 && seen(&os, 2) == rank + 2, "optarg %p, optind %d, seen %d",
              (void *)optarg, optind, seen(&os, 2));
    }

    /* C lets a program write into argv's strings: each rank has its own */
    char mine = (char)('A' + rank % 26);
    argv[0][0] = mine;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(argv[0][0] == mine, "argv[0] is shared between ranks: '%c', this rank wrote '%c'", argv[0][0], mine);

    if (rank < 0) give_up("a negative rank");
    mt_finish();
    return 0;
}
