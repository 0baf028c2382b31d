/* getenv, time, gettimeofday, clock_gettime and clock on every rank.
 *   clocks_env HOST_TIME   (the host's time(NULL) just before the run) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include "../conformance/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    long host = argc > 1 ? atol(argv[1]) : 0;
    const char *v = getenv("GPUMPI_TEST_VALUE");
    CHECK(v && !strcmp(v, "alpha=beta gamma"), "getenv gave %s", v ? v : "NULL");
    CHECK(getenv("GPUMPI_TEST_UNSET_VARIABLE") == NULL, "an unset variable has a value");
    CHECK(getenv("GPUMPI_TEST") == NULL, "a prefix of a name matched");
    time_t t1, t0 = time(&t1);
    CHECK(t0 == t1, "time() and its argument differ");
    CHECK(!host || (t0 >= host - 1 && t0 <= host + 30), "time() %ld, the host said %ld", (long)t0, host);
    struct timeval tv;
    CHECK(gettimeofday(&tv, NULL) == 0, "gettimeofday failed");
    CHECK(tv.tv_sec >= t0 && tv.tv_sec <= t0 + 2 && tv.tv_usec >= 0 && tv.tv_usec < 1000000, "gettimeofday %ld.%06ld",
          (long)tv.tv_sec, (long)tv.tv_usec);
    struct timespec a, b, r;
    CHECK(clock_gettime(CLOCK_REALTIME, &r) == 0 && r.tv_sec >= t0 && r.tv_sec <= t0 + 2, "CLOCK_REALTIME");
    CHECK(clock_gettime(CLOCK_MONOTONIC, &a) == 0, "CLOCK_MONOTONIC");
    double w0 = MPI_Wtime();
    while (MPI_Wtime() - w0 < 0.05) {
    }
    CHECK(clock_gettime(CLOCK_MONOTONIC, &b) == 0, "CLOCK_MONOTONIC");
    double dt = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    CHECK(dt >= 0.045 && dt < 5.0, "CLOCK_MONOTONIC moved %f s in a 0.05 s wait", dt);
    CHECK(clock() >= 0, "clock() is negative");
    CHECK(difftime(t0 + 5, t0) == 5.0, "difftime");
    return mt_finish();
}
