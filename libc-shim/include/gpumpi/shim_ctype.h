/* ctype.h on the device (ctype.cu): the "C" locale, as glibc's there. */
#ifndef GPUMPI_SHIM_CTYPE_H
#define GPUMPI_SHIM_CTYPE_H

#include "gpumpi/platform.h"

GPUMPI_FN int gp_isalnum(int c);
GPUMPI_FN int gp_isalpha(int c);
GPUMPI_FN int gp_isblank(int c);
GPUMPI_FN int gp_iscntrl(int c);
GPUMPI_FN int gp_isdigit(int c);
GPUMPI_FN int gp_isgraph(int c);
GPUMPI_FN int gp_islower(int c);
GPUMPI_FN int gp_isprint(int c);
GPUMPI_FN int gp_ispunct(int c);
GPUMPI_FN int gp_isspace(int c);
GPUMPI_FN int gp_isupper(int c);
GPUMPI_FN int gp_isxdigit(int c);
GPUMPI_FN int gp_isascii(int c);
GPUMPI_FN int gp_toascii(int c);
GPUMPI_FN int gp_tolower(int c);
GPUMPI_FN int gp_toupper(int c);

#endif
