/* ctype.h in the "C" locale: ASCII classes, nothing above 127 (glibc's
 * tables for that locale say the same; EOF, -1, is in no class). */
#include "gpumpi/shim_ctype.h"

GPUMPI_FN int gp_isdigit(int c) { return c >= '0' && c <= '9'; }
GPUMPI_FN int gp_islower(int c) { return c >= 'a' && c <= 'z'; }
GPUMPI_FN int gp_isupper(int c) { return c >= 'A' && c <= 'Z'; }
GPUMPI_FN int gp_isalpha(int c) { return gp_islower(c) || gp_isupper(c); }
GPUMPI_FN int gp_isalnum(int c) { return gp_isalpha(c) || gp_isdigit(c); }
GPUMPI_FN int gp_isblank(int c) { return c == ' ' || c == '\t'; }
GPUMPI_FN int gp_iscntrl(int c) { return (c >= 0 && c < 32) || c == 127; }
GPUMPI_FN int gp_isgraph(int c) { return c > 32 && c < 127; }
GPUMPI_FN int gp_isprint(int c) { return c >= 32 && c < 127; }
GPUMPI_FN int gp_ispunct(int c) { return gp_isgraph(c) && !gp_isalnum(c); }
GPUMPI_FN int gp_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
GPUMPI_FN int gp_isxdigit(int c) { return gp_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
GPUMPI_FN int gp_isascii(int c) { return (c & ~0x7f) == 0; }
GPUMPI_FN int gp_toascii(int c) { return c & 0x7f; }
GPUMPI_FN int gp_tolower(int c) { return gp_isupper(c) ? c + 32 : c; }
GPUMPI_FN int gp_toupper(int c) { return gp_islower(c) ? c - 32 : c; }
