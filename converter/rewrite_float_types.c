/* C's floating types that device code lacks, written as types both
 * backends have:
 *   - complex types become the libc-shim's classes (gpumpi/shim_complex.h):
 *     nvcc has no _Complex in device code;
 *   - `long double` becomes gp_ldouble (gpumpi/platform.h): double on the
 *     GPU, long double on the threads backend. nvcc's device code computes
 *     a long double as a double yet keeps the host's sizeof and struct
 *     layout, and indexes arrays of it by 8: no layout MPI could describe.
 *     As a double, sizeof, arrays, structs and MPI_LONG_DOUBLE agree.
 *
 * Token by token in every converted file, macro bodies included: a type
 * specifier run holding `_Complex` (or `__complex__`, or `complex` where
 * <complex.h> defines it) loses its float/double/long tokens, commented
 * out, and the complex token is written as the class:
 *   `double complex z;` becomes `/ *double* / gp_cdouble/ *complex* / z;`
 *   (without the spaces inside the comment marks); `long double x;` becomes
 *   `/ *long* / gp_ldouble/ *double* / x;`.
 * Only insertions, made before the later passes': their insertions at the
 * same place land in front (__device__ before the type). Types the other
 * passes spell from libclang (casts, prototypes) go through
 * gp_float_type_spelling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

/* tokens that may stand between the parts of a complex type's specifiers */
static int specifier_word(const char *t)
{
    static const char *const words[] = {"float", "double", "long", "const", "volatile", "restrict", "static",
                                        "extern", "register", "inline", "typedef", "_Thread_local", "__thread",
                                        "auto", "__restrict", "__const", "__extension__", NULL};
    for (int i = 0; words[i]; i++)
        if (!strcmp(t, words[i])) return 1;
    return 0;
}

static int complex_h_included;

static void find_complex_h(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    (void)depth;
    (void)data;
    CXString name = clang_getFileName(f);
    const char *n = clang_getCString(name);
    size_t len = n ? strlen(n) : 0;
    if (len >= 10 && !strcmp(n + len - 10, "/complex.h")) complex_h_included = 1;
    clang_disposeString(name);
}

static unsigned line_of(gp_conv *c, CXToken t)
{
    unsigned line;
    clang_getSpellingLocation(clang_getTokenLocation(c->tu, t), NULL, &line, NULL, NULL);
    return line;
}

static void comment_out(gp_conv *c, CXFile f, unsigned off, unsigned len, const char *before)
{
    char open[64];
    snprintf(open, sizeof open, "%s/*", before);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), open);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off + len), "*/");
}

static void rewrite_file(gp_conv *c, CXFile f)
{
    CXToken *toks;
    unsigned n = gp_tokenize_file(c, f, &toks);
    char **text = malloc(n * sizeof *text);
    char *done = calloc(n ? n : 1, 1);
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        text[i] = strdup(clang_getCString(s));
        clang_disposeString(s);
    }
    for (unsigned i = 0; i < n; i++) {
        int keyword = !strcmp(text[i], "_Complex") || !strcmp(text[i], "__complex__");
        if (!keyword && !(complex_h_included && !strcmp(text[i], "complex") &&
                          clang_getTokenKind(toks[i]) == CXToken_Identifier))
            continue;
        /* the specifiers around it, on its line (a #define ends there) */
        unsigned lo = i, hi = i, line = line_of(c, toks[i]);
        while (lo > 0 && !done[lo - 1] && specifier_word(text[lo - 1]) && line_of(c, toks[lo - 1]) == line) lo--;
        while (hi + 1 < n && specifier_word(text[hi + 1]) && line_of(c, toks[hi + 1]) == line) hi++;
        int floats = 0, doubles = 0, longs = 0;
        for (unsigned j = lo; j <= hi; j++) {
            floats += !strcmp(text[j], "float");
            doubles += !strcmp(text[j], "double");
            longs += !strcmp(text[j], "long");
        }
        if (!keyword && !floats && !doubles) continue; /* a variable named complex, say */
        const char *cls = floats ? "gp_cfloat" : longs ? "gp_cldouble" : "gp_cdouble";
        if (!complex_h_included) c->complex_classes = 1; /* _Complex alone: the classes come from nowhere else */
        for (unsigned j = lo; j <= hi; j++)
            if (!strcmp(text[j], "float") || !strcmp(text[j], "double") || !strcmp(text[j], "long"))
                comment_out(c, f, gp_offset(clang_getTokenLocation(c->tu, toks[j])), (unsigned)strlen(text[j]), "");
        comment_out(c, f, gp_offset(clang_getTokenLocation(c->tu, toks[i])), (unsigned)strlen(text[i]), cls);
        for (unsigned j = lo; j <= hi; j++) done[j] = 1;
        i = hi;
    }
    for (unsigned i = 0; i < n; i++) {
        if (done[i] || strcmp(text[i], "double") || clang_getTokenKind(toks[i]) != CXToken_Keyword) continue;
        unsigned lo = i, hi = i, line = line_of(c, toks[i]);
        while (lo > 0 && !done[lo - 1] && specifier_word(text[lo - 1]) && line_of(c, toks[lo - 1]) == line) lo--;
        while (hi + 1 < n && !done[hi + 1] && specifier_word(text[hi + 1]) && line_of(c, toks[hi + 1]) == line) hi++;
        int longs = 0;
        for (unsigned j = lo; j <= hi; j++) longs += !strcmp(text[j], "long");
        if (!longs) continue;
        for (unsigned j = lo; j <= hi; j++)
            if (!strcmp(text[j], "long"))
                comment_out(c, f, gp_offset(clang_getTokenLocation(c->tu, toks[j])), 4, "");
        comment_out(c, f, gp_offset(clang_getTokenLocation(c->tu, toks[i])), 6, "gp_ldouble");
        for (unsigned j = lo; j <= hi; j++) done[j] = 1;
        i = hi;
    }
    for (unsigned i = 0; i < n; i++) free(text[i]);
    free(text);
    free(done);
    clang_disposeTokens(c->tu, toks, n);
}

void gp_rewrite_float_types(gp_conv *c)
{
    complex_h_included = 0;
    clang_getInclusions(c->tu, find_complex_h, NULL);
    gp_for_each_converted_file(c, rewrite_file);
}

/* "_Complex double *" -> "gp_cdouble *", "long double" -> "gp_ldouble":
 * libclang's spelling of a type as the converted code writes it */
void gp_float_type_spelling(char *type, size_t cap)
{
    static const char *const from[] = {"_Complex long double", "_Complex double", "_Complex float", "long double"};
    static const char *const to[] = {"gp_cldouble", "gp_cdouble", "gp_cfloat", "gp_ldouble"};
    for (int k = 0; k < 4; k++) {
        char *p;
        while ((p = strstr(type, from[k]))) {
            size_t fl = strlen(from[k]), tl = strlen(to[k]), rest = strlen(p + fl);
            if ((size_t)(p - type) + tl + rest + 1 > cap) return;
            memmove(p + tl, p + fl, rest + 1);
            memcpy(p, to[k], tl);
        }
    }
}
