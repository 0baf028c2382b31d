/* Every function becomes a device function; main is renamed and the runtime
 * gets an entry point that calls it with the arguments it expects. */
#include <ctype.h>
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

static enum CXChildVisitResult find_body(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(cur) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
    *(CXCursor *)data = cur;
    return CXChildVisit_Break;
}

/* C returns 0 from main when it runs off its end; the renamed main is an
 * ordinary C++ function, where that is undefined (g++ traps), so say it. */
static void return_zero_at_end(gp_conv *c, CXCursor fn)
{
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(fn, find_body, &body);
    if (clang_Cursor_isNull(body)) return;
    CXFile f;
    unsigned end;
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(body)), &f, NULL, NULL, &end);
    if (end == 0) return;
    size_t len;
    const char *src = gp_text(c, f, &len);
    if (end > len || src[end - 1] != '}') return; /* a body that ends inside a macro */
    gp_prefix_once(c, f, end - 1, "return 0; ");
}

static void note_main(gp_conv *c, CXCursor fn)
{
    int n = clang_Cursor_getNumArguments(fn);
    CXType ret = clang_getCursorResultType(fn);
    if (n != 0 && n != 2 && n != 3) {
        gp_error_at(c, clang_getCursorLocation(fn),
                    "main with %d parameters is not supported; use int main(void), int main(int argc, char **argv) "
                    "or int main(int argc, char **argv, char **envp)",
                    n);
        return;
    }
    if (ret.kind != CXType_Int && ret.kind != CXType_Void) {
        gp_error_at(c, clang_getCursorLocation(fn), "main must return int");
        return;
    }
    c->main_params = n;
    c->main_returns_void = ret.kind == CXType_Void;
    if (!c->main_returns_void) return_zero_at_end(c, fn);
}

/* "T a, U b" from a function's parameters, for C++'s prototypes; 0 if a
 * parameter's type cannot be written in front of its name (function
 * pointers, arrays): then the user has to write the prototype. */
static int parameter_list(CXCursor fn, int with_names, char *out, size_t cap)
{
    int n = clang_Cursor_getNumArguments(fn);
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);
        CXType pt = clang_getCursorType(p);
        /* a parameter declared as an array (K&R's `int mm[];`) is a pointer */
        int array = pt.kind == CXType_IncompleteArray || pt.kind == CXType_ConstantArray ||
                    pt.kind == CXType_VariableArray;
        CXString t = clang_getTypeSpelling(array ? clang_getArrayElementType(pt) : pt), name = clang_getCursorSpelling(p);
        char ts[1024];
        snprintf(ts, sizeof ts, "%s%s", clang_getCString(t), array ? " *" : "");
        gp_float_type_spelling(ts, sizeof ts);
        int ok = !strchr(ts, '(') && !strchr(ts, '[');
        if (ok)
            at += (size_t)snprintf(out + at, at < cap ? cap - at : 0, "%s%s%s%s", i ? ", " : "", ts,
                                   with_names && *clang_getCString(name) ? " " : "",
                                   with_names ? clang_getCString(name) : "");
        clang_disposeString(t);
        clang_disposeString(name);
        if (!ok || at >= cap) return 0;
    }
    return 1;
}

/* The text from a function's '(' to its body or ';': what a prototype
 * replaces. */
static int params_range(gp_conv *c, CXCursor fn, CXFile *f, unsigned *open, unsigned *close, int *knr)
{
    unsigned name;
    clang_getExpansionLocation(clang_getCursorLocation(fn), f, NULL, NULL, &name);
    size_t len;
    const char *src = gp_text(c, *f, &len);
    unsigned i = name;
    while (i < len && src[i] != '(') i++;
    if (i >= len) return 0;
    *open = i;
    unsigned end;
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(fn)), NULL, NULL, NULL, &end);
    /* a definition: up to its body's '{'; a declaration: the matching ')' */
    int depth = 0;
    for (; i < end && i < len; i++) {
        if (src[i] == '(') depth++;
        if (src[i] == ')' && --depth == 0) break;
    }
    if (i >= len || src[i] != ')') return 0;
    *close = i + 1;
    *knr = 0;
    if (clang_isCursorDefinition(fn)) {
        for (; *close < len && src[*close] != '{'; (*close)++) /* K&R parameter declarations */
            if (!isspace((unsigned char)src[*close])) *knr = 1;
        if (*close >= len) return 0;
    }
    return 1;
}

/* int f(); (unspecified arguments in C, none in C++) and K&R definitions
 * become prototypes. */
static void prototype(gp_conv *c, CXCursor fn)
{
    int noproto = clang_getCursorType(fn).kind == CXType_FunctionNoProto;
    int is_def = clang_isCursorDefinition(fn);
    CXFile f;
    unsigned open, close;
    int knr = 0, have_range = (noproto || is_def) && params_range(c, fn, &f, &open, &close, &knr);
    if (!noproto && !knr) return; /* a prototype already (clang types K&R definitions as prototyped) */
    CXCursor def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def)) return; /* defined elsewhere: () stays, meaning (void) in C++ */
    if (!is_def && clang_Cursor_getNumArguments(def) == 0) return;
    char params[2048];
    if (!parameter_list(def, is_def, params, sizeof params) || !have_range) {
        CXString s = clang_getCursorSpelling(fn);
        gp_error_at(c, clang_getCursorLocation(fn),
                    "'%s' has no prototype and gpumpi-convert cannot write one for its parameters; declare it "
                    "with a prototype",
                    clang_getCString(s));
        clang_disposeString(s);
        return;
    }
    /* keep the line count, so later lines keep their numbers */
    size_t len;
    const char *src = gp_text(c, f, &len);
    char text[2400];
    int at = snprintf(text, sizeof text, "(%s)", *params ? params : "void");
    for (unsigned i = open; i < close && at < (int)sizeof text - 2; i++)
        if (src[i] == '\n') text[at++] = '\n';
    text[at] = 0;
    gp_replace(c, f, open, close - open, text);
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
        if (!is_main(cur) && gp_name_written_out(c, cur)) prototype(c, cur);
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
    const char *call = c->main_params == 3   ? GP_USER_MAIN "(argc, argv, gp_environ())"
                       : c->main_params == 2 ? GP_USER_MAIN "(argc, argv)"
                                             : GP_USER_MAIN "()";
    snprintf(text, sizeof text,
             "\n/* gpumpi: the runtime starts each rank here */\n"
             "%s"
             "__device__ int __gpumpi_main(int argc, char **argv)\n"
             "{\n"
             "    (void)argc;\n"
             "    (void)argv;\n"
             "    %s%s;%s\n"
             "}\n",
             c->main_params == 3 ? "__device__ char **gp_environ(void);\n" : "",
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
