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
