/* What configure compiles with CC=gpumpicc: AC_PROG_CC's check that the
 * compiler is C11 (the converted code is C++: __STDC_VERSION__ is defined
 * for it as parsed), and AC_CHECK_FUNCS' link probe of a function the
 * device provides (strdup: the call becomes a value, the declaration moves
 * out of the way, the shim prelude comes first because of the probe's
 * #define). */
#if !defined __STDC_VERSION__ || __STDC_VERSION__ < 201112L
#error "Compiler does not advertise C11 conformance"
#endif
#define strdup innocuous_strdup
#include <limits.h>
#undef strdup
#ifdef __cplusplus
extern "C"
#endif
char strdup ();
int
main (void)
{
return strdup ();
  ;
  return 0;
}
