/* A global used inside a macro body: the #define is rewritten. */
#define BUMP() counter++
int counter;
int main(void) { BUMP(); return counter; }
