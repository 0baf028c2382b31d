/* --stats: what the ranks did, summarised at exit like a small mpiP: for
 * each counter its minimum, mean and maximum over the ranks (with the rank
 * that had it), then the ranks that waited longest. */
#include <stdio.h>
#include <stdlib.h>

#include "watchdog.h"

static double field(const gp_rank_stats *s, int k)
{
    switch (k) {
    case 0: return (double)s->sent;
    case 1: return (double)s->recvd;
    case 2: return (double)s->bytes_sent;
    case 3: return (double)s->bytes_recvd;
    case 4: return (double)s->calls;
    case 5: return 1e-9 * (double)s->wait_ns;
    case 6: return (double)s->regroups;
    case 7: return (double)s->regroup_misses;
    case 8: return (double)s->regroup_cut;
    default: return 1e-9 * (double)s->regroup_ns;
    }
}

void gp_stats_report(const gp_rank_stats *st, int n)
{
    static const char *const names[] = {"messages sent", "messages received", "bytes sent", "bytes received",
                                        "blocking MPI calls", "seconds in blocking MPI",
                                        "warp regroups", "regroups timed out", "regroups cut short",
                                        "seconds regrouping"};
    fprintf(stderr, "gpumpi stats: %d ranks (messages include those of collectives; barriers and small\n"
                    "gpumpi stats: allreduces on MPI_COMM_WORLD go through shared memory, not messages)\n", n);
    fprintf(stderr, "gpumpi stats: %-24s %14s %14s %14s %8s\n", "", "min", "mean", "max", "max at");
    for (int k = 0; k < 10; k++) {
        double lo = field(&st[0], k), hi = lo, sum = 0;
        int at = 0;
        for (int r = 0; r < n; r++) {
            double v = field(&st[r], k);
            sum += v;
            if (v < lo) lo = v;
            if (v > hi) {
                hi = v;
                at = r;
            }
        }
        const char *fmt = k == 5 || k == 9 ? "gpumpi stats: %-24s %14.6f %14.6f %14.6f %8d\n" : "gpumpi stats: %-24s %14.0f %14.1f %14.0f %8d\n";
        fprintf(stderr, fmt, names[k], lo, sum / n, hi, at);
    }
    /* the five ranks that waited longest */
    int top[5], ntop = 0;
    for (int r = 0; r < n; r++) {
        int i;
        if (ntop < 5) {
            i = ntop++;
        } else {
            if (st[r].wait_ns <= st[top[4]].wait_ns) continue;
            i = 4;
        }
        top[i] = r;
        for (; i > 0 && st[top[i]].wait_ns > st[top[i - 1]].wait_ns; i--) {
            int t = top[i];
            top[i] = top[i - 1];
            top[i - 1] = t;
        }
    }
    fprintf(stderr, "gpumpi stats: longest waits:");
    for (int i = 0; i < ntop; i++)
        fprintf(stderr, " rank %d %.6f s (%llu sent, %llu received)%s", top[i], 1e-9 * (double)st[top[i]].wait_ns,
                (unsigned long long)st[top[i]].sent, (unsigned long long)st[top[i]].recvd, i + 1 < ntop ? ";" : "\n");
    if (n <= 16)
        for (int r = 0; r < n; r++)
            fprintf(stderr, "gpumpi stats: rank %d: sent %llu (%llu bytes), received %llu (%llu bytes), %llu blocking calls, %.6f s in them\n", r,
                    (unsigned long long)st[r].sent, (unsigned long long)st[r].bytes_sent,
                    (unsigned long long)st[r].recvd, (unsigned long long)st[r].bytes_recvd,
                    (unsigned long long)st[r].calls, 1e-9 * (double)st[r].wait_ns);
}
