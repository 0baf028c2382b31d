/* restrict, compound literals and variable-length arrays. */
#include <stdio.h>

struct point { int x, y; };

static int sum(int n, const double *restrict a, double *restrict out)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    *out = s;
    return n;
}

static int norm1(struct point p) { return (p.x < 0 ? -p.x : p.x) + (p.y < 0 ? -p.y : p.y); }

int main(int argc, char **argv)
{
    int n = argc + 3;
    double v[n];
    for (int i = 0; i < n; i++) v[i] = i;
    double s;
    sum(n, v, &s);
    int d = norm1((struct point){-2, 5});
    printf("%g %d\n", s, d);
    return !(s == 6 && d == 7);
}
