/* The other translation unit: no main, no MPI. */
static double term(int i) { return (double)i; }

double partial_sum(int rank, int size, int n)
{
    double s = 0;
    int i;
    for (i = rank + 1; i <= n; i += size) s += term(i);
    return s;
}
