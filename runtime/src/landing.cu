/* The displacing sender's side of a landing (landing.h). */
#include "runtime.h"

GPUMPI_FN void gp_enqueue_on_landing(gp_msg *m, gp_inbox older)
{
    if ((older.head & 3) == GP_INBOX_LANDED) { /* keep the message that landed, older than m */
        m->landed = older;
        gp_fence_release();
        gp_store_relaxed64((uint64_t *)&m->next, GP_MSG_LANDED);
    } else { /* the receive's key: it wakes to find m first */
        gp_store_relaxed64((uint64_t *)&m->next, 0);
    }
}
