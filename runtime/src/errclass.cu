/* Error classes and codes the program adds (MPI_Add_error_class, _code,
 * _string), the calling rank's own: values above MPI_ERR_LASTCODE, in the
 * order added, so ranks that add the same ones in the same order agree on
 * them. MPI_LASTUSEDCODE follows the largest. */
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN static gp_ecode *gp_ecode_find(int code)
{
    gp_comm_state *cs = gp_cs();
    int i = code - MPI_ERR_LASTCODE - 1;
    return i >= 0 && i < cs->necodes ? &cs->ecodes[i] : 0;
}

GPUMPI_FN int gp_added_error(int code, int *cls, const char **text)
{
    if (!gp_self()->comm_state) return 0;
    gp_ecode *e = gp_ecode_find(code);
    if (!e) return 0;
    *cls = e->cls;
    *text = e->text ? e->text : "";
    return 1;
}

GPUMPI_FN static int gp_ecode_add(const char *fn, int cls)
{
    gp_comm_state *cs = gp_cs();
    int i = cs->necodes;
    if (!gp_table_reserve((void **)&cs->ecodes, &cs->cap_ecodes, i + 1, sizeof(gp_ecode)))
        return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %d error codes", i + 1);
    int code = MPI_ERR_LASTCODE + 1 + i;
    cs->ecodes[i].cls = cls < 0 ? code : cls;
    cs->ecodes[i].text = 0;
    cs->necodes = i + 1;
    cs->attr_values[MPI_LASTUSEDCODE] = code;
    return code;
}

GPUMPI_FN int MPI_Add_error_class(int *errorclass)
{
    GP_TRY(gp_check_initialized("MPI_Add_error_class"));
    if (!errorclass) return gp_err(MPI_COMM_WORLD, "MPI_Add_error_class", MPI_ERR_ARG, "the errorclass argument is NULL");
    *errorclass = gp_ecode_add("MPI_Add_error_class", -1);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Add_error_code(int errorclass, int *errorcode)
{
    GP_TRY(gp_check_initialized("MPI_Add_error_code"));
    if (!errorcode) return gp_err(MPI_COMM_WORLD, "MPI_Add_error_code", MPI_ERR_ARG, "the errorcode argument is NULL");
    gp_ecode *e = gp_ecode_find(errorclass);
    int predefined = errorclass >= MPI_SUCCESS && errorclass <= MPI_ERR_LASTCODE;
    if (!predefined && !(e && e->cls == errorclass))
        return gp_err(MPI_COMM_WORLD, "MPI_Add_error_code", MPI_ERR_ARG, "%d is not an error class", errorclass);
    *errorcode = gp_ecode_add("MPI_Add_error_code", errorclass);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Add_error_string(int errorcode, const char *string)
{
    GP_TRY(gp_check_initialized("MPI_Add_error_string"));
    if (!string) return gp_err(MPI_COMM_WORLD, "MPI_Add_error_string", MPI_ERR_ARG, "the string is NULL");
    gp_ecode *e = gp_ecode_find(errorcode);
    if (!e)
        return gp_err(MPI_COMM_WORLD, "MPI_Add_error_string", MPI_ERR_ARG,
                      "%d is not a code or class the program added (predefined ones keep their text)", errorcode);
    size_t n = gp_strnlen(string, MPI_MAX_ERROR_STRING - 1);
    char *t = (char *)gp_malloc(n + 1);
    if (!t) return gp_fatal("MPI_Add_error_string", MPI_ERR_NO_MEM, "no device heap left for an error string");
    gp_memcpy(t, string, n);
    t[n] = 0;
    gp_free(e->text);
    e->text = t;
    return MPI_SUCCESS;
}
