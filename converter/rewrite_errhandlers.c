/* MPI error handlers lose their "...".
 *
 * MPI declares a communicator's error handler variadic, void h(MPI_Comm *,
 * int *, ...), and a session's, void h(MPI_Session *, int *, ...), but in
 * C passes nothing more. nvcc 13 miscompiles variadic
 * device functions called through a pointer (the handler's first access to
 * a global faults with "misaligned address", docs/nvcc_repro), and the
 * runtime can only call a handler through a pointer. So gpumpi's
 * MPI_Comm_errhandler_function (and MPI_Session_errhandler_function) has
 * no "...", and this pass drops ", ..."
 * from every function with the handler's parameters that never calls
 * va_start: such a function cannot tell the difference. */
#include <string.h>

#include "convert.h"

static int spelled(CXType t, const char *want)
{
    CXString s = clang_getTypeSpelling(t);
    int same = !strcmp(clang_getCString(s), want);
    clang_disposeString(s);
    return same;
}

static int has_handler_params(CXCursor fn)
{
    if (!clang_Cursor_isVariadic(fn) || clang_Cursor_getNumArguments(fn) != 2) return 0;
    CXType first = clang_getCursorType(clang_Cursor_getArgument(fn, 0));
    return (spelled(first, "MPI_Comm *") || spelled(first, "MPI_Session *")) &&
           spelled(clang_getCursorType(clang_Cursor_getArgument(fn, 1)), "int *");
}

/* Index of the first token spelled `text` in [from, n), or n. */
static unsigned find_token(gp_conv *c, CXToken *toks, unsigned from, unsigned n, const char *text)
{
    for (unsigned i = from; i < n; i++) {
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        int same = !strcmp(clang_getCString(s), text);
        clang_disposeString(s);
        if (same) return i;
    }
    return n;
}

/* Does the definition's body read variable arguments? */
static int uses_va_start(gp_conv *c, CXCursor def)
{
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(def), &toks, &n);
    int uses = find_token(c, toks, 0, n, "va_start") < n || find_token(c, toks, 0, n, "__builtin_va_start") < n;
    clang_disposeTokens(c->tu, toks, n);
    return uses;
}

/* Removes ", ..." from the declaration's parameter list (before any body). */
static void drop_ellipsis(gp_conv *c, CXCursor fn)
{
    CXFile f;
    unsigned begin, end;
    if (!gp_extent(fn, &f, &begin, &end)) return; /* spelled by a macro: left alone */
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(fn), &toks, &n);
    unsigned body = find_token(c, toks, 0, n, "{"), dots = find_token(c, toks, 0, body, "...");
    if (dots < body && dots > 0) {
        unsigned comma = gp_offset(clang_getTokenLocation(c->tu, toks[dots - 1]));
        unsigned after = gp_offset(clang_getTokenLocation(c->tu, toks[dots])) + 3;
        gp_replace(c, f, comma, after - comma, "");
    }
    clang_disposeTokens(c->tu, toks, n);
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    gp_conv *c = data;
    if (clang_getCursorKind(cur) != CXCursor_FunctionDecl || !gp_converted(c, cur)) return CXChildVisit_Continue;
    if (!has_handler_params(cur)) return CXChildVisit_Continue;
    CXCursor def = clang_getCursorDefinition(cur);
    if (!clang_Cursor_isNull(def) && uses_va_start(c, def)) return CXChildVisit_Continue;
    drop_ellipsis(c, cur);
    return CXChildVisit_Continue;
}

void gp_rewrite_errhandlers(gp_conv *c)
{
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c);
}
