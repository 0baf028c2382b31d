/* Static locals move to file scope, renamed function__name: initializers
 * that need casts or take other statics' addresses, designated initializers,
 * two statics of one name in one function, __thread, and a static array
 * sized by an enumerator of the function's own enum. */
#include <stdio.h>

enum mode { OFF, ON };
struct cfg { int level; const char *tag; };

static int count(int reset)
{
    static enum mode state = 1;            /* int to enum: a cast in C++ */
    static int calls, *last = &calls;      /* the address of another static */
    static char *none = (void *)0;
    static struct cfg c = { .tag = "t", .level = 3 };
    static __thread int per_thread = 5;
    if (reset) {
        static int calls = 100;            /* a second 'calls', in an inner block */
        return calls++;
    }
    per_thread++;
    *last += state == ON;
    return calls + c.level + (none == 0) + per_thread;
}

static int tally(int i)
{
    enum { K = 120 };
    static int got[2 * K];
    got[i] += i;
    return got[i] + K;
}

int main(void)
{
    int a = count(0), b = count(0), r = count(1), s = count(1);
    printf("static locals %d %d %d %d\n", a, b, r, s);
    return !(a == 11 && b == 13 && r == 100 && s == 101 && tally(239) + tally(239) == 240 + 239 * 3);
}

/* a static local named in a macro argument is renamed where it is written */
#define TWICE(x) ((x) + (x))
int twice_calls(void)
{
    static int n = 4;
    return TWICE(n);
}
