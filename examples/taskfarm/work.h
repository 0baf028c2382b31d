/* The work of one task: total Collatz steps over a range of numbers (an
 * uneven cost per task, which is what a task farm is for). */
#ifndef TASKFARM_WORK_H
#define TASKFARM_WORK_H

long long task_run(long long task, long long size);

#endif
