/* <complex.h> for converted code: the converter has written C's complex
 * types as gp_cfloat / gp_cdouble / gp_cldouble (gpumpi/shim_complex.h). */
#include "gpumpi/shim_prelude.h"
#ifndef GPUMPI_COMPLEX_H_CUH
#define GPUMPI_COMPLEX_H_CUH
#include "gpumpi/shim_complex.h"

#define _Complex_I (gp_cfloat(0.0f, 1.0f))
#define I _Complex_I
#define CMPLX(x, y) (gp_cdouble((double)(x), (double)(y)))
#define CMPLXF(x, y) (gp_cfloat((float)(x), (float)(y)))
#define CMPLXL(x, y) (gp_cldouble((long double)(x), (long double)(y)))

#define creal gp_creal
#define cimag gp_cimag
#define conj gp_conj
#define crealf gp_crealf
#define cimagf gp_cimagf
#define conjf gp_conjf
#define creall gp_creall
#define cimagl gp_cimagl
#define conjl gp_conjl
#define cabs gp_cabs
#define cabsf gp_cabsf
#define cabsl gp_cabsl
#define carg gp_carg
#define cargf gp_cargf
#define cargl gp_cargl
#define cpow gp_cpow
#define cpowf gp_cpowf
#define cpowl gp_cpowl
#define cproj gp_cproj
#define cprojf gp_cprojf
#define cprojl gp_cprojl
#define cexp gp_cexp
#define cexpf gp_cexpf
#define cexpl gp_cexpl
#define clog gp_clog
#define clogf gp_clogf
#define clogl gp_clogl
#define csqrt gp_csqrt
#define csqrtf gp_csqrtf
#define csqrtl gp_csqrtl
#define csin gp_csin
#define csinf gp_csinf
#define csinl gp_csinl
#define ccos gp_ccos
#define ccosf gp_ccosf
#define ccosl gp_ccosl
#define ctan gp_ctan
#define ctanf gp_ctanf
#define ctanl gp_ctanl
#define casin gp_casin
#define casinf gp_casinf
#define casinl gp_casinl
#define cacos gp_cacos
#define cacosf gp_cacosf
#define cacosl gp_cacosl
#define catan gp_catan
#define catanf gp_catanf
#define catanl gp_catanl
#define csinh gp_csinh
#define csinhf gp_csinhf
#define csinhl gp_csinhl
#define ccosh gp_ccosh
#define ccoshf gp_ccoshf
#define ccoshl gp_ccoshl
#define ctanh gp_ctanh
#define ctanhf gp_ctanhf
#define ctanhl gp_ctanhl
#define casinh gp_casinh
#define casinhf gp_casinhf
#define casinhl gp_casinhl
#define cacosh gp_cacosh
#define cacoshf gp_cacoshf
#define cacoshl gp_cacoshl
#define catanh gp_catanh
#define catanhf gp_catanhf
#define catanhl gp_catanhl
#endif
