/* K&R definitions and f() declarations become prototypes. */
#include <stdio.h>
int add();
double scale(x, factor)
    int x;
    double factor;
{
    return x * factor;
}
int add(a, b) int a, b; { return a + b; }
int none();
int none() { return 7; }
int main(void)
{
    printf("%d %g %d\n", add(2, 3), scale(4, 0.5), none());
    return 0;
}
