/* signal.h on the device (signal.cu). A GPU thread receives no signals:
 * handlers are accepted and recorded nowhere, and never called; raise()
 * of a signal whose default action ends the process ends the job like
 * abort(). */
#ifndef GPUMPI_SHIM_SIGNAL_H
#define GPUMPI_SHIM_SIGNAL_H

#include <signal.h>
#include "gpumpi/platform.h"

typedef void (*gp_sighandler_t)(int);
GPUMPI_FN gp_sighandler_t gp_signal(int sig, gp_sighandler_t handler);
GPUMPI_FN int gp_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
GPUMPI_FN int gp_sigemptyset(sigset_t *set);
GPUMPI_FN int gp_sigfillset(sigset_t *set);
GPUMPI_FN int gp_sigaddset(sigset_t *set, int sig);
GPUMPI_FN int gp_sigdelset(sigset_t *set, int sig);
GPUMPI_FN int gp_sigismember(const sigset_t *set, int sig);
GPUMPI_FN int gp_raise(int sig);

#endif
