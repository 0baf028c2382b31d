/* Function forms the converter must mark __device__. */
#include <stdio.h>
#include <stdarg.h>
#include "local.h"

static int twice(int x) { return 2 * x; }
inline static double halve(double x) { return x / 2; }
int first(void), second(int);
extern int prototype_only(const char *);

int first(void) { return 1; }
int second(int a) { return a + LOCAL_OFFSET; }

int sum_all(int n, ...)
{
    va_list ap;
    int s = 0, i;
    va_start(ap, n);
    for (i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

int apply(int (*fn)(int), int v) { return fn(v); }

int main(void)
{
    int local_prototype(int);
    printf("%d %g %d\n", twice(first()), halve(3.0), apply(second, sum_all(3, 1, 2, 3)));
    return 0;
}
