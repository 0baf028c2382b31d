/* goto and switch may jump past initialized declarations in C. */
#include <stdlib.h>

int work(int n)
{
    int status = 0;
    if (n < 0) goto fail;
    double *buf = malloc(n * sizeof *buf);
    int count = n * 2;
    for (int i = 0; i < n; i++) buf[i] = i;
    status = count;
    free(buf);
fail:
    return status;
}

int pick(int k)
{
    switch (k) {
    case 0:;
        int doubled = k * 2;
        return doubled;
    default:
        return -1;
    }
}

int main(void) { return work(3) + pick(0) + pick(5) == 5 ? 0 : 1; }
