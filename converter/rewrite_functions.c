/* Every function becomes a device function; main is renamed and the runtime
 * gets an entry point that calls it with the arguments it expects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

#define GP_USER_MAIN "__gpumpi_user_main"

unsigned gp_offset(CXSourceLocation loc)
{
    unsigned off;
    clang_getSpellingLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

/* int f(void), g(void); is two FunctionDecls starting at one place. */
int gp_prefix_once(gp_conv *c, CXFile f, unsigned off, const char *text)
{
    for (size_t i = 0; i < c->nprefixed; i++)
        if (c->prefixed[i].offset == off && clang_File_isEqual(c->prefixed[i].file, f)) return 0;
    if (c->nprefixed == c->capprefixed) {
        c->capprefixed = c->capprefixed ? c->capprefixed * 2 : 64;
        c->prefixed = realloc(c->prefixed, c->capprefixed * sizeof *c->prefixed);
    }
    c->prefixed[c->nprefixed++] = (gp_place){f, off};
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), text);
    return 1;
}

static void rename_main_token(gp_conv *c, CXSourceLocation at)
{
    CXFile f;
    unsigned off;
    clang_getSpellingLocation(at, &f, NULL, NULL, &off);
    gp_replace(c, f, off, 4, GP_USER_MAIN);
}

static int is_main(CXCursor cur)
{
    CXString s = clang_getCursorSpelling(cur);
    int yes = strcmp(clang_getCString(s), "main") == 0;
    clang_disposeString(s);
    return yes;
}

static void note_main(gp_conv *c, CXCursor fn)
{
    int n = clang_Cursor_getNumArguments(fn);
    CXType ret = clang_getCursorResultType(fn);
    if (n != 0 && n != 2) {
        gp_error_at(c, clang_getCursorLocation(fn),
                    "main with %d parameters is not supported; use int main(void) or int main(int argc, char **argv)",
                    n);
        return;
    }
    if (ret.kind != CXType_Int && ret.kind != CXType_Void) {
        gp_error_at(c, clang_getCursorLocation(fn), "main must return int");
        return;
    }
    c->main_params = n;
    c->main_returns_void = ret.kind == CXType_Void;
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    gp_conv *c = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    if (k == CXCursor_FunctionDecl) {
        /* the declaration may begin with a macro (STATIC int f(...), or a
         * whole DECLARE(f)): __device__ goes before the invocation */
        CXFile f;
        unsigned start;
        clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(cur)), &f, NULL, NULL, &start);
        /* nvcc 13 miscompiles a variadic device function inlined into its
         * caller (ptxas: "Unknown symbol '%VAParam'"): keep those out of line */
        gp_prefix_once(c, f, start, clang_Cursor_isVariadic(cur) ? "__device__ __noinline__ " : "__device__ ");
        if (is_main(cur)) {
            rename_main_token(c, clang_getCursorLocation(cur));
            if (clang_isCursorDefinition(cur)) note_main(c, cur);
        }
    } else if (k == CXCursor_DeclRefExpr && is_main(cur) &&
               clang_getCursorKind(clang_getCursorReferenced(cur)) == CXCursor_FunctionDecl) {
        rename_main_token(c, clang_getCursorLocation(cur)); /* main called recursively */
    }
    return CXChildVisit_Recurse;
}

static void append_entry_point(gp_conv *c)
{
    char text[512];
    const char *call = c->main_params == 2 ? GP_USER_MAIN "(argc, argv)" : GP_USER_MAIN "()";
    snprintf(text, sizeof text,
             "\n/* gpumpi: the runtime starts each rank here */\n"
             "__device__ int __gpumpi_main(int argc, char **argv)\n"
             "{\n"
             "    (void)argc;\n"
             "    (void)argv;\n"
             "    %s%s;%s\n"
             "}\n",
             c->main_returns_void ? "" : "return ", call, c->main_returns_void ? "\n    return 0;" : "");
    size_t size;
    gp_text(c, c->main_file, &size);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, c->main_file, (unsigned)size), text);
}

void gp_rewrite_functions(gp_conv *c)
{
    c->main_params = -1;
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c);
    if (c->main_params >= 0) append_entry_point(c);
}
