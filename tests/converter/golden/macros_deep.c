/* Casts hidden five macros deep (a level is expanded a round, until none
 * is left: three rounds were not enough for MPICH's coll/allred), and
 * _Complex with no <complex.h> (its classes are then included). */
#include <stdio.h>

#define L1(x) do { char name[4] = {0}; printf("%s%d\n", name, (int)(x)); } while (0)
#define L2(x) { L1(x); }
#define L3(t, x) { t v = (t)(x); L2(v); }
#define L4(t) { L3(t, 1); }
#define L5 { L4(int); L4(long); }

int main(void)
{
    double _Complex z = 2.0;
    L5;
    z = z * z;
    (void)z;
    return 0;
}
