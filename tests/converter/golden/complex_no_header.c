/* C's complex types without <complex.h> (the keyword is C's own): the
 * converted file includes the classes itself. */
int main(void)
{
    long double _Complex l = 1;
    double _Complex d = 2;
    float _Complex f = 3;
    return (int)(sizeof l + sizeof d + sizeof f) > 0 ? 0 : 1;
}
