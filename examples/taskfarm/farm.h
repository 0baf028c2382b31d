/* The master and worker sides of the farm. */
#ifndef TASKFARM_FARM_H
#define TASKFARM_FARM_H

enum { TAG_WORK = 1, TAG_STOP = 2, TAG_RESULT = 3 };

struct farm_result {
    long long total;      /* sum of all task results (master) */
    long long received;   /* results received (master) */
    long long errors;     /* duplicates, unknown tasks, wrong tags (master) */
    long long first, last; /* the results of tasks 0 and ntasks - 1, as received */
};

/* Rank 0: hands out tasks 0..ntasks-1 to whoever reports, until all are
 * done, then stops every worker. One rank alone does the tasks itself. */
void farm_master(long long ntasks, long long size, struct farm_result *res);
/* Every other rank: asks for work, does it, reports, until stopped.
 * Returns the number of tasks done; *sum gets their total. */
long long farm_worker(long long size, long long *sum);

#endif
