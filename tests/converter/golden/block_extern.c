/* A global declared inside the function that uses it, defined after it. */
#include <stdio.h>

static int bump(void)
{
    extern int counter, limit;
    return ++counter < limit;
}

int counter;
int limit = 3;

int main(void)
{
    extern int counter;
    while (bump())
        ;
    printf("counter %d\n", counter);
    return counter != 3;
}
