/* A global whose type and initializer are both macros (bool from
 * <stdbool.h>): its initializer is kept, and no "= {}" is added. */
#include <stdbool.h>
#define FLAGS_INIT {2, 0}
bool flags[2] = FLAGS_INIT;
bool unset[2];
int main(void) { return flags[0] + unset[1]; }
