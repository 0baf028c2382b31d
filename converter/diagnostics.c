/* Error reporting for the converter, in the compiler's own format so editors
 * and build logs point at the line. */
#include <stdarg.h>
#include <stdio.h>

#include "convert.h"

void gp_error_at(gp_conv *c, CXSourceLocation loc, const char *fmt, ...)
{
    CXFile file;
    unsigned line, col;
    clang_getSpellingLocation(loc, &file, &line, &col, NULL);
    CXString name = clang_getFileName(file);
    fprintf(stderr, "%s:%u:%u: error: ", clang_getCString(name) ? clang_getCString(name) : "<unknown>", line, col);
    clang_disposeString(name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    c->errors++;
}

int gp_in_main_file(CXCursor cur)
{
    CXSourceLocation loc = clang_getCursorLocation(cur);
    if (!clang_Location_isFromMainFile(loc)) return 0;
    /* a declaration written inside a macro body cannot be edited in place */
    CXFile f1, f2;
    unsigned o1, o2;
    clang_getSpellingLocation(loc, &f1, NULL, NULL, &o1);
    clang_getExpansionLocation(loc, &f2, NULL, NULL, &o2);
    return o1 == o2;
}
