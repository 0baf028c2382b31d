/* Prints what configure found and what the ring computed: the same lines
 * under gpumpi and MPICH when configure saw the same compiler abilities. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_STDINT_H
#include <stdint.h>
#endif
#ifdef HAVE_UNISTD_H
#include <unistd.h>
#endif
#ifdef HAVE_SYS_TIME_H
#include <sys/time.h>
#endif
#include "ringlib.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long token = ring_pass(MPI_COMM_WORLD, 100);
    double sq = sum_of_squares(MPI_COMM_WORLD);
#ifdef HAVE_STRDUP
    char *name = strdup("ring");
#else
    char *name = "ring (no strdup)";
#endif
    if (rank == 0) {
        printf("configure: C11 option '%s', sizeof(long) %d", CC_C11_OPTION, SIZEOF_LONG);
#ifdef HAVE_LONG_LONG
        printf(", long long");
#endif
#if defined(HAVE_STDINT_H) && defined(HAVE_UNISTD_H) && defined(HAVE_SYS_TIME_H)
        printf(", all 3 headers");
#endif
#if defined(HAVE_GETTIMEOFDAY) && defined(HAVE_SNPRINTF) && defined(HAVE_LIBM)
        printf(", gettimeofday snprintf libm");
#endif
        printf("\n");
        printf("%s: %d ranks, token %ld, sum of squares %.1f\n", name, size, token, sq);
    }
#ifdef HAVE_STRDUP
    free(name);
#endif
    MPI_Finalize();
    return 0;
}
