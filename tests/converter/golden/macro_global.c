/* A global used inside a macro body: the #define is rewritten. */
#define BUMP() counter++
int counter;
int main(void) { BUMP(); return counter; }

/* a global named in a macro's argument (assert(x) is one), even one the
 * macro expands twice, is rewritten where it is written, once */
#define DOUBLE_OF(x) ((x) + (x))
int doubled(void) { return DOUBLE_OF(counter); }
