/* C that converts only when the converter looks inside macros (issue 26,
 * found in MPI benchmark suites): implicit conversions C++ rejects, written
 * in statement macros' bodies (`do { ... } while (0)`) and in their
 * arguments, a 0 for a pointer member in an initializer a macro writes, an
 * int passed to an enum parameter through a function-like macro, stringized
 * and pasted arguments beside them; and ++/-- on enums (C++ has no such
 * operators). Each value is checked; prints " No Errors" when every check
 * passed on every rank. Any number of ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

enum color { RED, GREEN, BLUE };
typedef enum { LOW, MID, HIGH } level;
struct opt {
    const char *name;
    int *flag;
};
struct pair {
    enum color c;
    level l;
};

#define GROW(p, n) do { p = realloc(p, (n) * sizeof *(p)); } while (0)
#define CHECK_NULL(var) do { if (NULL == var) { printf("rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
#define FORMAT(dst_, cap_, fmt_, ...) do { char small_[8]; snprintf(cap_ ? dst_ : NULL, cap_ ? cap_ : 0, fmt_, __VA_ARGS__); snprintf(small_, sizeof small_, "%s", #dst_); } while (0)
#define OPT(n) { n, 0 }
#define TAKE(x) pick(x)
#define NAMED(tag, v) int tag##_value = (v)
#define ALLOC(n) malloc(n)
#define LOGF(fmt, ...) snprintf(line, sizeof line, fmt, ##__VA_ARGS__)

static int pick(enum color c) { return (int)c * 10; }

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    char line[64];

    /* void * -> double *, in a macro's body and as its argument */
    double *d = ALLOC(4 * sizeof(double));
    CHECK_NULL(d);
    for (int i = 0; i < 4; i++) d[i] = rank + i;
    GROW(d, 16);
    CHECK_NULL(d);
    d[15] = 1.5;
    CHECK(d[3] == rank + 3 && d[15] == 1.5, "GROW: d[3] %g d[15] %g", d[3], d[15]);
    free(d);

    /* a conditional's NULL arm as a char * argument, with __VA_ARGS__ and #x */
    char buf[32];
    int cap = (int)sizeof buf;
    FORMAT(buf, cap, "[%d:%s]", rank, "x");
    char want[32];
    snprintf(want, sizeof want, "[%d:x]", rank);
    CHECK(strcmp(buf, want) == 0, "FORMAT: '%s', expected '%s'", buf, want);

    /* a 0 for a pointer member in initializers a macro writes */
    struct opt opts[] = {OPT("alpha"), OPT("beta")};
    CHECK(opts[1].flag == NULL && strcmp(opts[1].name, "beta") == 0, "OPT: '%s' %p", opts[1].name, (void *)opts[1].flag);

    /* an int to an enum parameter through a function-like macro */
    int k = rank % 3;
    CHECK(TAKE(k) == 10 * k, "TAKE(%d) = %d", k, TAKE(k));

    /* pasted names, and GNU's , ## __VA_ARGS__ with and without arguments */
    NAMED(first, rank + 7);
    CHECK(first_value == rank + 7, "NAMED: %d", first_value);
    LOGF("plain");
    CHECK(strcmp(line, "plain") == 0, "LOGF(): '%s'", line);
    LOGF("r%d", rank);
    snprintf(want, sizeof want, "r%d", rank);
    CHECK(strcmp(line, want) == 0, "LOGF(r): '%s'", line);

    /* ++ and -- on enums: names, typedefs, members, elements; old and new values */
    enum color c = RED;
    level l;
    int n = 0;
    struct pair p = {RED, HIGH}, *pp = &p;
    enum color arr[3] = {RED, RED, RED};
    c++;
    ++c;
    CHECK(c == BLUE, "c++ ++c: %d", (int)c);
    enum color old = c--, now = --c;
    CHECK(old == BLUE && now == RED && c == RED, "c-- --c: old %d now %d c %d", (int)old, (int)now, (int)c);
    for (l = LOW; l <= HIGH; l++) n++;
    CHECK(n == 3 && l == HIGH + 1, "for over a typedef'd enum: %d steps, ends at %d", n, (int)l);
    p.c++;
    pp->l--;
    arr[k]++;
    CHECK(p.c == GREEN && pp->l == MID && arr[k] == GREEN, "members and elements: %d %d %d", (int)p.c, (int)pp->l,
          (int)arr[k]);

    mt_finish();
    return 0;
}
