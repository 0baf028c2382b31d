/* complex.h in a converted program: its output must equal the same program
 * built natively with gcc (e2e.threads.complex). */
#include <stdio.h>
#include <complex.h>

static double complex g = 1.0 + 2.0 * I;
float complex gf = 0.5f - 1.5f * I;

static double complex twice(double complex z) { return 2 * z; }
typedef long double complex ldc;

struct pair { double complex a; float _Complex b; int n; };

int main(void)
{
    double complex z = CMPLX(3.0, -4.0);
    double _Complex w = g * z;
    float complex f = gf * 2 + 1;
    _Complex double q = z / g;
    double r = z;          /* real part */
    int k = (int)w;
    double complex *p = &z;
    struct pair s = {z, f, 3};
    ldc L = 1.5L + 2.5L * I;
    z += 1;
    z *= I;
    r += g;
    double d2 = 10.0;
    d2 /= g;
    printf("w = %.17g %+.17g i\n", creal(w), cimag(w));
    printf("f = %.9g %+.9g i\n", crealf(f), cimagf(f));
    printf("q = %.17g %+.17g i\n", creal(q), cimag(q));
    printf("r = %.17g k = %d\n", r, k);
    printf("z = %.17g %+.17g i, *p re %.17g\n", creal(z), cimag(z), creal(*p));
    printf("s = %g %g %g %g %d\n", creal(s.a), cimag(s.a), crealf(s.b), cimagf(s.b), s.n);
    printf("L = %Lg %Lg\n", creall(L), cimagl(L));
    printf("d2 = %.17g\n", d2);
    printf("twice = %g %g\n", creal(twice(g)), cimag(twice(g)));
    printf("cabs %.17g carg %.17g\n", cabs(z), carg(z));
    double complex e = cexp(I * 3.14159265358979323846);
    printf("cexp(i pi) %.17g %.17g\n", creal(e), cimag(e));
    double complex c = cpow(g, 0.5);
    printf("cpow %.17g %.17g csqrt %.17g %.17g\n", creal(c), cimag(c), creal(csqrt(g)), cimag(csqrt(g)));
    printf("eq %d %d %d\n", z == z, z != g, g == 1.0 + 2.0 * I);
    printf("bool %d %d\n", (_Bool)(0.0 + 1.0 * I), !(0.0 * I));
    printf("sizes %zu %zu %zu\n", sizeof(double complex), sizeof(float complex), sizeof z);
    double complex arr[3] = {1, 2 * I, 3 + I};
    double complex sum = 0;
    for (int i = 0; i < 3; i++) sum += arr[i] * conj(arr[i]);
    printf("sum %g %g\n", creal(sum), cimag(sum));
    float complex mix = f + 1.0; /* double complex, narrowed */
    printf("mix %.9g %.9g\n", crealf(mix), cimagf(mix));
    printf("casin %.17g %.17g catanh %.17g %.17g\n", creal(casin(g)), cimag(casin(g)), creal(catanh(g)), cimag(catanh(g)));
    return 0;
}
