/* signal.h: handlers accepted, never called (shim_signal.h). */
#include "gpumpi/shim_signal.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"
#include "libc_state.h"

#define GP_EINVAL 22
#define GP_NSIG 65

GPUMPI_FN static int gp_bad_signal(int sig)
{
    if (sig > 0 && sig < GP_NSIG) return 0;
    *gp_errno_location() = GP_EINVAL;
    return 1;
}

GPUMPI_FN gp_sighandler_t gp_signal(int sig, gp_sighandler_t handler)
{
    (void)handler;
    if (gp_bad_signal(sig)) return SIG_ERR;
    return SIG_DFL;
}

GPUMPI_FN int gp_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    (void)act;
    if (gp_bad_signal(sig)) return -1;
    if (old) {
        gp_memset(old, 0, sizeof *old);
        old->sa_handler = SIG_DFL;
    }
    return 0;
}

GPUMPI_FN int gp_sigemptyset(sigset_t *set)
{
    gp_memset(set, 0, sizeof *set);
    return 0;
}

GPUMPI_FN int gp_sigfillset(sigset_t *set)
{
    gp_memset(set, 0xff, sizeof *set);
    return 0;
}

/* sigset_t is glibc's array of unsigned long bits, signal n at bit n-1 */
GPUMPI_FN int gp_sigaddset(sigset_t *set, int sig)
{
    if (gp_bad_signal(sig)) return -1;
    unsigned long *w = (unsigned long *)set;
    w[(sig - 1) / (8 * sizeof(unsigned long))] |= 1ul << ((sig - 1) % (8 * sizeof(unsigned long)));
    return 0;
}

GPUMPI_FN int gp_sigdelset(sigset_t *set, int sig)
{
    if (gp_bad_signal(sig)) return -1;
    unsigned long *w = (unsigned long *)set;
    w[(sig - 1) / (8 * sizeof(unsigned long))] &= ~(1ul << ((sig - 1) % (8 * sizeof(unsigned long))));
    return 0;
}

GPUMPI_FN int gp_sigismember(const sigset_t *set, int sig)
{
    if (gp_bad_signal(sig)) return -1;
    const unsigned long *w = (const unsigned long *)set;
    return (int)((w[(sig - 1) / (8 * sizeof(unsigned long))] >> ((sig - 1) % (8 * sizeof(unsigned long)))) & 1);
}

/* No handler runs; signals whose default action is to ignore them
 * (SIGCHLD, SIGURG, SIGWINCH, SIGCONT) do nothing, the rest end the job. */
GPUMPI_FN int gp_raise(int sig)
{
    if (gp_bad_signal(sig)) return -1;
    if (sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT) return 0;
    gp_abort();
    return 0;
}
