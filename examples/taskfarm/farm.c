#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include "farm.h"
#include "work.h"

void farm_master(long long ntasks, long long size, struct farm_result *res)
{
    int p, stopped = 0;
    long long next = 0, msg[2], t;
    char *done = calloc(ntasks + 1, 1);
    MPI_Status st;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    res->total = res->received = res->errors = res->first = res->last = 0;
    if (p == 1) {
        for (t = 0; t < ntasks; t++) {
            long long r = task_run(t, size);
            res->total += r;
            if (t == 0)
                res->first = r;
            if (t == ntasks - 1)
                res->last = r;
        }
        res->received = ntasks;
        free(done);
        return;
    }
    /* every worker speaks first (task -1: no result yet); whoever reports
     * gets the next task, or the stop once none are left */
    while (stopped < p - 1) {
        MPI_Recv(msg, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG != TAG_RESULT) {
            fprintf(stderr, "taskfarm: master got tag %d from rank %d\n", st.MPI_TAG, st.MPI_SOURCE);
            res->errors++;
        }
        if (msg[0] >= 0) {
            if (msg[0] >= ntasks || done[msg[0]]) {
                fprintf(stderr, "taskfarm: task %lld reported twice or unknown (rank %d)\n", msg[0], st.MPI_SOURCE);
                res->errors++;
            } else {
                done[msg[0]] = 1;
                if (msg[0] == 0)
                    res->first = msg[1];
                if (msg[0] == ntasks - 1)
                    res->last = msg[1];
                res->total += msg[1];
                res->received++;
            }
        }
        if (next < ntasks) {
            MPI_Send(&next, 1, MPI_LONG_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
            next++;
        } else {
            MPI_Send(&next, 1, MPI_LONG_LONG, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
            stopped++;
        }
    }
    for (t = 0; t < ntasks; t++)
        if (!done[t]) {
            if (res->errors++ < 3)
                fprintf(stderr, "taskfarm: task %lld never reported\n", t);
        }
    free(done);
}

long long farm_worker(long long size, long long *sum)
{
    long long msg[2] = {-1, 0}, task, count = 0;
    MPI_Status st;
    *sum = 0;
    for (;;) {
        MPI_Send(msg, 2, MPI_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
        MPI_Recv(&task, 1, MPI_LONG_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_STOP)
            return count;
        msg[0] = task;
        msg[1] = task_run(task, size);
        *sum += msg[1];
        count++;
    }
}
