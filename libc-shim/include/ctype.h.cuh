/* <ctype.h> for converted code: the "C" locale. */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_CTYPE_H_CUH
#define GPUMPI_CTYPE_H_CUH
#undef isalnum
#undef isalpha
#undef isblank
#undef iscntrl
#undef isdigit
#undef isgraph
#undef islower
#undef isprint
#undef ispunct
#undef isspace
#undef isupper
#undef isxdigit
#undef isascii
#undef toascii
#undef tolower
#undef toupper
#define isalnum gp_isalnum
#define isalpha gp_isalpha
#define isblank gp_isblank
#define iscntrl gp_iscntrl
#define isdigit gp_isdigit
#define isgraph gp_isgraph
#define islower gp_islower
#define isprint gp_isprint
#define ispunct gp_ispunct
#define isspace gp_isspace
#define isupper gp_isupper
#define isxdigit gp_isxdigit
#define isascii gp_isascii
#define toascii gp_toascii
#define tolower gp_tolower
#define toupper gp_toupper
#endif
