/* Conversions C does implicitly and C++ rejects without a cast. */
#include <stdlib.h>

enum color { RED, GREEN };
enum shape { SQUARE, CIRCLE };
struct node { int v; };

int main(void)
{
    int *a = malloc(4 * sizeof *a);            /* void* -> int* */
    struct node *n = calloc(1, sizeof *n);     /* void* -> struct node* */
    char *bytes = (void *)0;                   /* null through void* */
    int *none = 0;                             /* a literal 0 needs nothing */
    enum color c = 1;                          /* int -> enum */
    enum shape s = c;                          /* enum -> another enum */
    long addr = (long)a;
    int *back = addr;                          /* integer -> pointer */
    const int *ro = a;                         /* adding const needs nothing */
    int *rw = ro;                              /* dropping const */
    signed char small[2] = {200, 1};           /* narrowing inside braces */
    unsigned *u = a;                           /* int* -> unsigned* */
    void *any = a;                             /* T* -> void* needs nothing */
    free(any);
    free(n);
    return (int)(c + s) + (bytes == 0) + (none == 0) + (back == rw) + small[1] + (u != 0);
}
