/* Includes. Standard headers become the libc-shim's device headers:
 * <x.h> -> <x.h.cuh>; a header counts as standard when it was found in a
 * system directory (the runtime's include directory, with mpi.h, is passed
 * as one). The user's own headers are converted alongside the main file (in
 * the mirror directory), and their includes name the converted copies by
 * absolute path, so the converted file compiles from anywhere. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "locations.h"


static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    gp_conv *c = data;
    if (clang_getCursorKind(cur) != CXCursor_InclusionDirective || !gp_converted(c, cur))
        return CXChildVisit_Continue;
    CXFile inc = clang_getIncludedFile(cur);
    if (!inc) return CXChildVisit_Continue;
    int system = clang_Location_isInSystemHeader(clang_getLocation(c->tu, inc, 1, 1));

    /* replace the spelled name, from its opening < or " to the end */
    CXFile f = gp_file_of(cur);
    CXSourceRange ext = clang_getCursorExtent(cur);
    unsigned b, e;
    clang_getSpellingLocation(clang_getRangeStart(ext), NULL, NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &e);
    size_t size;
    const char *src = gp_text(c, f, &size);
    unsigned open = b;
    while (open < e && src[open] != '<' && src[open] != '"') open++;
    if (open == e) {
        gp_error_at(c, clang_getCursorLocation(cur), "cannot find the header name in this #include (is it a macro?)");
        return CXChildVisit_Continue;
    }
    char text[4200];
    if (system) {
        /* a header the libc-shim has no device version of: say so here,
         * rather than let nvcc fail to find x.h.cuh */
        CXString name = clang_getCursorSpelling(cur);
        char shim[4300];
        snprintf(shim, sizeof shim, "%s/%s.cuh", gp_locate()->shim_include, clang_getCString(name));
        char rt[4300];
        snprintf(rt, sizeof rt, "%s/%s.cuh", gp_locate()->runtime_include, clang_getCString(name));
        if (access(shim, R_OK) != 0 && access(rt, R_OK) != 0)
            gp_error_at(c, clang_getCursorLocation(cur),
                        "<%s> is not provided by gpumpi's device C library yet (no %s.cuh); remove the #include "
                        "if nothing from it is used",
                        clang_getCString(name), clang_getCString(name));
        clang_disposeString(name);
    }
    if (system) {
        CXString name = clang_getCursorSpelling(cur);
        snprintf(text, sizeof text, "<%s.cuh>", clang_getCString(name));
        clang_disposeString(name);
    } else {
        CXString path = clang_getFileName(inc);
        snprintf(text, sizeof text, "\"%s\"", clang_getCString(path));
        clang_disposeString(path);
    }
    gp_replace(c, f, open, e - open, text);
    return CXChildVisit_Continue;
}

void gp_rewrite_includes(gp_conv *c)
{
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c);
}
