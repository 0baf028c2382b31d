/* C's complex types: written as the libc-shim's classes wherever they appear */
#include <complex.h>
#include <stdlib.h>

#define CT double complex
typedef long double complex ldc;
static double complex g = 1.0 + 2.0 * I;
float _Complex gf;
struct s { complex double a; const float complex b; };
int complex_count; /* no type: a variable that happens to contain "complex" */

double _Complex scale();
double _Complex scale(double complex z, double k) { return k * z; }

int main(void)
{
    CT z = CMPLX(1, -1);
    double complex *p = malloc(4 * sizeof(double complex));
    ldc l = (ldc)2;
    volatile float complex f = (float complex)z;
    p[0] = scale(z, 2.0) + (double complex)1 + sizeof(_Complex float);
    double r = z;
    double complex t = r > 0 ? z : 1.0; /* the real arm converted explicitly (C++ finds both ways) */
    r += creal(t) - 1;
    int ok = (int)(creal(l) + crealf(f) + r + creal(g) + crealf(gf) + complex_count) == 5 && creal(p[0]) == 11;
    free(p);
    return ok ? 0 : 1;
}
