/* The user's headers are converted with the file that includes them. */
#include <stdio.h>
#include "inc/api.h"

int total = 0;

int accumulate(int v)
{
    total += scaled(v);
    return total;
}

int main(void)
{
    printf("%d\n", accumulate(2));
    return total != 6;
}
