/* Error reporting for the converter, in the compiler's own format so editors
 * and build logs point at the line. */
#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

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

int gp_in_main_file(gp_conv *c, CXCursor cur)
{
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &f, NULL, NULL, NULL);
    return f && clang_File_isEqual(f, c->main_file);
}

int gp_name_written_out(gp_conv *c, CXCursor cur)
{
    unsigned off;
    size_t size;
    clang_getExpansionLocation(clang_getCursorLocation(cur), NULL, NULL, NULL, &off);
    const char *src = clang_getFileContents(c->tu, c->main_file, &size);
    CXString name = clang_getCursorSpelling(cur);
    const char *n = clang_getCString(name);
    size_t len = strlen(n);
    int ok = off + len <= size && strncmp(src + off, n, len) == 0 &&
             (off + len == size || !(isalnum((unsigned char)src[off + len]) || src[off + len] == '_'));
    clang_disposeString(name);
    return ok;
}
