/* The rooted collectives' call count wraps at 2^32 (gp_rank_chip): the
 * uses a call leaves in its slot must be the uses the call that takes the
 * slot next waits for, on both sides of the wrap, or every rank hangs
 * after 4 G broadcasts, reductions, gathers and scatters. */
#include <stdio.h>
#include "shm_rooted.h"

int main(void)
{
    int failures = 0, cases = 0;
    for (uint64_t start = 0; start < 2; start++) {
        uint32_t k = start ? 0xffffffffu - 3 * GP_ROOTED_SLOTS : 0;
        for (int i = 0; i < 8 * GP_ROOTED_SLOTS; i++, k++) { /* k wraps as the rank's counter does */
            uint32_t next = k + GP_ROOTED_SLOTS;            /* the next call through k's slot */
            cases++;
            if (next % GP_ROOTED_SLOTS != k % GP_ROOTED_SLOTS || gp_rooted_freed(k) != gp_rooted_use(next) ||
                gp_rooted_use(next) == gp_rooted_use(k)) {
                if (failures++ < 10)
                    printf("FAIL: call %u leaves uses %u, call %u waits for %u\n", k, gp_rooted_freed(k), next,
                           gp_rooted_use(next));
            }
        }
    }
    printf("rooted wrap: %d cases, %d failures\n", cases, failures);
    return failures != 0;
}
