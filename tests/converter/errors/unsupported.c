#include <setjmp.h>
#include <pthread.h>
#include <unistd.h>

static jmp_buf env;
static void *work(void *arg) { return arg; }

int main(void)
{
    pthread_t t;
    if (setjmp(env)) return 1;
    pthread_create(&t, 0, work, 0);
    if (fork() == 0) return 2;
    __asm__("nop");
    return 0;
}
