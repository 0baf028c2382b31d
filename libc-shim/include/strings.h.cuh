/* <strings.h> for converted code. index/rindex/ffs are function-like so a
 * variable called index keeps its name. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_STRINGS_H_CUH
#define GPUMPI_STRINGS_H_CUH
#define strcasecmp gp_strcasecmp
#define strncasecmp gp_strncasecmp
#define bzero gp_bzero
#define bcopy gp_bcopy
#define bcmp gp_bcmp
#define index(s, c) gp_index(s, c)
#define rindex(s, c) gp_rindex(s, c)
#define ffs(x) gp_ffs(x)
#define ffsl(x) gp_ffsl(x)
#define ffsll(x) gp_ffsll(x)
#endif
