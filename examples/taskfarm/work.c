#include "work.h"

static long long collatz_steps(unsigned long long x)
{
    long long steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

long long task_run(long long task, long long size)
{
    long long i, sum = 0;
    for (i = 1; i <= size; i++)
        sum += collatz_steps((unsigned long long)(task * size + i));
    return sum;
}
