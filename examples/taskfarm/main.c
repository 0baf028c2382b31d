/* taskfarm: rank 0 hands out tasks to the other ranks as they become free
 * (MPI_ANY_SOURCE, work and stop tags); the tasks cost unevenly.
 *   taskfarm [TASKS [SIZE]]     defaults: 1000 1000
 * Task t sums the Collatz step counts of t*SIZE+1 .. (t+1)*SIZE.
 * Verified: every task reported exactly once; the master's total equals
 * the workers' own totals (MPI_Reduce) and a recomputation of the first and
 * last tasks matches. The result (the total) is the same at every rank count. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include "farm.h"
#include "work.h"

int main(int argc, char **argv)
{
    int rank, p, pass = 0;
    long long ntasks, size, mine[2] = {0, 0}, theirs[2];
    struct farm_result res;
    double t0, t, tmax;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    ntasks = argc > 1 ? atoll(argv[1]) : 1000;
    size = argc > 2 ? atoll(argv[2]) : 1000;
    if (ntasks < 1 || size < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: taskfarm [TASKS [SIZE]]\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (rank == 0)
        farm_master(ntasks, size, &res);
    else
        mine[1] = farm_worker(size, &mine[0]);
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    /* what the workers say they did, beside what the master received */
    MPI_Reduce(mine, theirs, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        long long check_first, check_last;
        if (p > 1 && (theirs[0] != res.total || theirs[1] != res.received)) {
            printf("taskfarm: workers did %lld tasks totalling %lld; the master got %lld totalling %lld\n",
                   theirs[1], theirs[0], res.received, res.total);
            res.errors++;
        }
        /* a result must belong to its task: recompute both ends */
        check_first = task_run(0, size);
        check_last = task_run(ntasks - 1, size);
        if (check_first != res.first || check_last != res.last) {
            printf("taskfarm: tasks 0 and %lld gave %lld and %lld, recomputed %lld and %lld\n", ntasks - 1, res.first,
                   res.last, check_first, check_last);
            res.errors++;
        }
        pass = res.errors == 0 && res.received == ntasks;
        printf("taskfarm: %lld tasks of %lld numbers, %d ranks (%d workers)\n", ntasks, size, p, p > 1 ? p - 1 : 0);
        printf("taskfarm: time %.6f s, %.1f tasks/s\n", tmax, tmax > 0 ? ntasks / tmax : 0.0);
        printf("VERIFY %s result=%lld tasks=%lld errors=%lld\n", pass ? "PASS" : "FAIL", res.total, res.received,
               res.errors);
    }
    MPI_Bcast(&pass, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return pass ? 0 : 1;
}
