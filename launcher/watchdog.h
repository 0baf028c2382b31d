/* The deadlock watchdog and --stats on the host side. */
#ifndef GPUMPI_WATCHDOG_H
#define GPUMPI_WATCHDOG_H

#include "gpumpi/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* recs: the ranks' block records as the host sees them; timeout (the
 * deadlock watchdog's) and time_limit (the whole job's) in seconds, 0: off. */
void gp_watchdog_init(gp_block_rec *recs, int nranks, double timeout, double time_limit);
/* Call often while the ranks run: looks at the records every so often and
 * ends the job (status 124) with a report when every live rank has been
 * blocked with nothing moving for the timeout, or when the job has run
 * for its time limit. */
void gp_watchdog_check(void);

/* Prints the --stats summary on stderr. */
void gp_stats_report(const gp_rank_stats *st, int nranks);

#ifdef __cplusplus
}
#endif

#endif
