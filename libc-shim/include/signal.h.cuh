/* <signal.h> for converted code. Handlers are accepted and never called
 * (a GPU thread gets no signals); see gpumpi/shim_signal.h. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_SIGNAL_H_CUH
#define GPUMPI_SIGNAL_H_CUH
#define signal gp_signal
#define sigaction(sig, act, old) gp_sigaction(sig, act, old)
#define sigemptyset gp_sigemptyset
#define sigfillset gp_sigfillset
#define sigaddset gp_sigaddset
#define sigdelset gp_sigdelset
#define sigismember gp_sigismember
#define raise gp_raise
#endif
