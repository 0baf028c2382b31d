/* Standard headers become the libc-shim's device headers: <x.h> -> <x.h.cuh>.
 * A header counts as standard when it was found in a system directory (the
 * runtime's include directory, with mpi.h, is passed as one). The user's own
 * headers stay as they are. */
#include <stdio.h>
#include <string.h>

#include "convert.h"

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    gp_conv *c = data;
    if (clang_getCursorKind(cur) != CXCursor_InclusionDirective || !gp_in_main_file(c, cur))
        return CXChildVisit_Continue;
    CXFile inc = clang_getIncludedFile(cur);
    if (!inc || !clang_Location_isInSystemHeader(clang_getLocation(c->tu, inc, 1, 1))) return CXChildVisit_Continue;

    /* replace the spelled name, from its opening < or " to the end */
    CXSourceRange ext = clang_getCursorExtent(cur);
    unsigned b, e;
    clang_getSpellingLocation(clang_getRangeStart(ext), NULL, NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &e);
    size_t size;
    const char *src = clang_getFileContents(c->tu, c->main_file, &size);
    unsigned open = b;
    while (open < e && src[open] != '<' && src[open] != '"') open++;
    if (open == e) {
        gp_error_at(c, clang_getCursorLocation(cur), "cannot find the header name in this #include (is it a macro?)");
        return CXChildVisit_Continue;
    }
    CXString name = clang_getCursorSpelling(cur);
    char text[1024];
    snprintf(text, sizeof text, "<%s.cuh>", clang_getCString(name));
    clang_disposeString(name);
    CXSourceRange r = clang_getRange(clang_getLocationForOffset(c->tu, c->main_file, open),
                                     clang_getLocationForOffset(c->tu, c->main_file, e));
    clang_CXRewriter_replaceText(c->rw, r, text);
    return CXChildVisit_Continue;
}

void gp_rewrite_includes(gp_conv *c)
{
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c);
}
