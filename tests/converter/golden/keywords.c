/* C identifiers that are C++ keywords, and sizeof of a character literal. */
#include <stdbool.h>
struct node { int new; struct node *this; };

int template(int class) { return class * 2; }
int main(void)
{
    struct node n = {1, 0};
    bool ok = true;
    int delete = template(n.new);
    if (0) return 1;
    
    return sizeof('a') + sizeof 'b' + delete + ok;
}

/* the file is C whatever compiles it */
#ifdef __cplusplus
#error "a C file must not see __cplusplus"
#endif
#if defined(__cplusplus) && __cplusplus >= 201103L
#error "nor this"
#endif
