/* The C library's hidden state is each rank's own: errno, strtok's
 * position, rand's and drand48's generators, getopt's optind/optarg (and
 * its permutation of argv). Every rank drives its own sequence with a
 * barrier between steps, so on gpumpi all ranks' calls interleave, and
 * checks each result against what glibc gives for that rank's inputs
 * (reference models of glibc's generators below; under MPICH they check
 * glibc itself). */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mpitest.h"

/* glibc's rand(): TYPE_3, r[i] = r[i-31] + r[i-3], seeded by Park-Miller */
static int32_t ref_tbl[31];
static int ref_f, ref_r;
static int ref_rand(void)
{
    uint32_t v = (uint32_t)ref_tbl[ref_f] + (uint32_t)ref_tbl[ref_r];
    ref_tbl[ref_f] = (int32_t)v;
    ref_f = (ref_f + 1) % 31;
    ref_r = (ref_r + 1) % 31;
    return (int)(v >> 1);
}
static void ref_srand(unsigned seed)
{
    int32_t w = (int32_t)(seed ? seed : 1);
    ref_tbl[0] = w;
    for (int i = 1; i < 31; i++) {
        long hi = w / 127773, lo = w % 127773;
        long t = 16807 * lo - 2836 * hi;
        if (t < 0) t += 2147483647;
        ref_tbl[i] = w = (int32_t)t;
    }
    ref_f = 3;
    ref_r = 0;
    for (int i = 0; i < 310; i++) ref_rand();
}

/* drand48: X' = 0x5DEECE66D X + 11 mod 2^48 */
static uint64_t ref_x48;
static long ref_lrand48(void)
{
    ref_x48 = (0x5deece66dull * ref_x48 + 11) & 0xffffffffffffull;
    return (long)(ref_x48 >> 17);
}

static void step(void) { MPI_Barrier(MPI_COMM_WORLD); }

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int i;

    /* rand before any srand is srand(1): glibc's well-known first values */
    static const int first[3] = {1804289383, 846930886, 1681692777};
    for (i = 0; i < 3; i++) {
        int v = rand();
        CHECK(v == first[i], "rand() #%d without srand: %d, expected %d", i, v, first[i]);
        step();
    }

    /* errno: each rank sets its own value and reads it back after the
     * others set theirs; a failing strtol sets ERANGE on this rank only */
    errno = 1000 + rank;
    step();
    CHECK(errno == 1000 + rank, "errno %d, expected %d", errno, 1000 + rank);
    step();
    if (rank % 2) {
        errno = 0;
        long big = strtol("123456789012345678901234567890", NULL, 10);
        CHECK(big == LONG_MAX && errno == ERANGE, "strtol overflow: %ld errno %d", big, errno);
    } else {
        errno = 0;
    }
    step();
    CHECK(errno == (rank % 2 ? ERANGE : 0), "errno after the others' strtol: %d", errno);

    /* strtok: a rank-specific string, one token per step */
    char text[128], want[8][16];
    snprintf(text, sizeof text, ",r%da;;r%db,,c%d;last%d;", rank, rank, rank, rank);
    snprintf(want[0], 16, "r%da", rank);
    snprintf(want[1], 16, "r%db", rank);
    snprintf(want[2], 16, "c%d", rank);
    snprintf(want[3], 16, "last%d", rank);
    char *tok = strtok(text, ",;");
    for (i = 0; i < 4; i++) {
        CHECK(tok && strcmp(tok, want[i]) == 0, "strtok token %d: \"%s\", expected \"%s\"", i, tok ? tok : "(null)",
              want[i]);
        step();
        tok = strtok(NULL, ",;");
    }
    CHECK(tok == NULL, "strtok after the last token: \"%s\"", tok);

    /* rand: seeded by rank, drawn step by step */
    srand((unsigned)rank * 7919u + 3u);
    ref_srand((unsigned)rank * 7919u + 3u);
    for (i = 0; i < 6; i++) {
        int v = rand(), w = ref_rand();
        CHECK(v == w, "rand() #%d after srand(%u): %d, expected %d", i, rank * 7919u + 3u, v, w);
        step();
    }
    unsigned seed = (unsigned)rank;
    unsigned rseed = (unsigned)rank;
    for (i = 0; i < 3; i++) {
        int v = rand_r(&seed);
        /* glibc's rand_r: three LCG steps, 11 + 10 + 10 bits */
        unsigned next = rseed, w;
        next = next * 1103515245u + 12345u;
        w = (next / 65536) % 2048;
        next = next * 1103515245u + 12345u;
        w = (w << 10) ^ ((next / 65536) % 1024);
        next = next * 1103515245u + 12345u;
        w = (w << 10) ^ ((next / 65536) % 1024);
        rseed = next;
        CHECK(v == (int)w && seed == rseed, "rand_r #%d from seed %d: %d, expected %u", i, rank, v, w);
        step();
    }

    /* drand48 family */
    srand48(rank + 1);
    ref_x48 = ((uint64_t)(uint32_t)(rank + 1) << 16) | 0x330e;
    for (i = 0; i < 4; i++) {
        long v = lrand48(), w = ref_lrand48();
        CHECK(v == w, "lrand48 #%d after srand48(%d): %ld, expected %ld", i, rank + 1, v, w);
        step();
    }

    /* getopt: options after an operand (argv gets permuted), an option
     * argument that is the rank, a cluster, "--" */
    char r_arg[16], *av[10];
    snprintf(r_arg, sizeof r_arg, "%d", rank);
    av[0] = (char *)"prog";
    av[1] = (char *)"file1";
    av[2] = (char *)"-n";
    av[3] = r_arg;
    av[4] = (char *)"-xv";
    av[5] = (char *)"file2";
    av[6] = (char *)"--";
    av[7] = (char *)"-z";
    av[8] = NULL;
    int ac = 8;
    const int want_opt[] = {'n', 'x', 'v', -1};
    opterr = 0;
    for (i = 0; i < 4; i++) {
        int c = getopt(ac, av, "n:xv");
        CHECK(c == want_opt[i], "getopt #%d: %d, expected %d", i, c, want_opt[i]);
        if (c == 'n') CHECK(optarg && atoi(optarg) == rank, "-n's argument: %s, expected %d", optarg, rank);
        step();
    }
    CHECK(optind == 5, "optind after getopt: %d, expected 5", optind);
    static const char *perm[] = {"prog", "-n", NULL, "-xv", "--", "file1", "file2", "-z"};
    for (i = 0; i < 8; i++) {
        const char *w = i == 2 ? r_arg : perm[i];
        CHECK(strcmp(av[i], w) == 0, "argv[%d] after getopt: \"%s\", expected \"%s\"", i, av[i], w);
    }
    /* starting over: optind = 0 reinitializes (GNU) */
    optind = 0;
    step();
    char *av2[] = {(char *)"prog", (char *)"-q", NULL};
    int c = getopt(2, av2, "q");
    CHECK(c == 'q' && optind == 2, "getopt after optind = 0: %d, optind %d", c, optind);
    return mt_finish();
}
