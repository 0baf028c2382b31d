/* long double becomes gp_ldouble (a double on the GPU): in declarations,
 * macro bodies, casts, sizeof and prototypes; long double complex stays
 * the complex class */
#include <complex.h>
#define REAL long double
struct pair { long double v; int i; };
static const long double table[2] = {1.5L, 2.5L};
long double twice(long double x) { return 2 * x; }
double long odd_order(double long y) { return y; }
int main(void)
{
    REAL r = twice(table[1]);
    long double complex z = r;
    int n = (int)sizeof(long double) + (int)(long double)r;
    long size = sizeof(long); double d = 1.0; /* long and double apart stay */
    return n + (int)creall(z) + (int)size + (int)d;
}
