/* <assert.h> for converted code. A failed assert ends the whole job, naming
 * the rank, file, line, function and expression, with status 134 (as abort).
 * No include guard: like <assert.h>, each inclusion follows NDEBUG anew. */
#include "gpumpi/shim_prelude.h"
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : gp_assert_fail(#e, __FILE__, __LINE__, __func__))
#endif
