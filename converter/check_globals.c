/* Globals and static locals need per-rank storage, which this converter
 * does not build yet. Sharing one copy among all ranks would silently give
 * wrong answers, so such a variable is an error that says what to do. */
#include "convert.h"

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    gp_conv *c = data;
    if (!gp_in_main_file(c, cur)) return CXChildVisit_Continue;
    if (clang_getCursorKind(cur) == CXCursor_VarDecl) {
        int file_scope = clang_getCursorKind(parent) == CXCursor_TranslationUnit;
        enum CX_StorageClass sc = clang_Cursor_getStorageClass(cur);
        int is_static_local = !file_scope && (sc == CX_SC_Static || sc == CX_SC_Extern);
        int is_tls = clang_getCursorTLSKind(cur) != CXTLS_None;
        if ((file_scope || is_static_local || is_tls) && !clang_isConstQualifiedType(clang_getCursorType(cur))) {
            CXString s = clang_getCursorSpelling(cur);
            gp_error_at(c, clang_getCursorLocation(cur),
                        "%s variable '%s' would be shared by all ranks; gpumpi does not give globals per-rank "
                        "storage yet (make it a local of main and pass it down, or make it const)",
                        file_scope ? "global" : "static", clang_getCString(s));
            clang_disposeString(s);
        }
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

void gp_check_globals(gp_conv *c)
{
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c);
}
