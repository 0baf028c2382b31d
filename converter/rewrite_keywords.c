/* Identifiers of the user's C that are keywords in C++ (new, class, this,
 * template, delete, ...) get the prefix __gp_kw_ wherever they are written
 * in the converted files, declarations and uses alike, so the names stay
 * consistent. A word that is a macro from a C header (bool and true from
 * <stdbool.h>, and from <iso646.h>) is left alone: C++ gives it the same
 * meaning. C's restrict becomes __restrict__, and a struct tag that a
 * typedef of another type shares its name with becomes __gp_tag_T.
 * __cplusplus becomes __gp_c_not__cplusplus (never defined): the user's
 * files were written as C and keep their C branches. C11's _Static_assert,
 * _Alignas, _Alignof and _Noreturn take C++'s spellings.
 * Before the other passes. */
#include <stdlib.h>
#include <string.h>

#include "convert.h"

static const char *const cxx_only[] = {
    "alignas", "alignof", "and", "and_eq", "bitand", "bitor", "bool", "catch", "char8_t", "char16_t", "char32_t",
    "class", "compl", "concept", "consteval", "constexpr", "constinit", "const_cast", "co_await", "co_return",
    "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export", "false", "friend", "mutable",
    "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "reinterpret_cast", "requires", "static_assert", "static_cast", "template", "this",
    "thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
    NULL};

int gp_is_cxx_keyword(const char *w)
{
    for (int i = 0; cxx_only[i]; i++)
        if (!strcmp(w, cxx_only[i])) return 1;
    return 0;
}

/* struct T where a typedef T names another type: C keeps tags and ordinary
 * names apart, C++ does not, so such a tag becomes __gp_tag_T. */
typedef struct {
    char **typedefs, **clashing;
    CXType *typedef_types;
    int ntypedefs, nclashing;
} tag_scan;

static enum CXChildVisitResult find_typedefs(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    tag_scan *t = data;
    if (clang_getCursorKind(cur) == CXCursor_TypedefDecl) {
        CXString s = clang_getCursorSpelling(cur);
        t->typedefs = realloc(t->typedefs, sizeof *t->typedefs * (size_t)(t->ntypedefs + 1));
        t->typedef_types = realloc(t->typedef_types, sizeof *t->typedef_types * (size_t)(t->ntypedefs + 1));
        t->typedefs[t->ntypedefs] = strdup(clang_getCString(s));
        t->typedef_types[t->ntypedefs++] = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(cur));
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult find_clashing_tags(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    tag_scan *t = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl) {
        CXString s = clang_getCursorSpelling(cur);
        const char *name = clang_getCString(s);
        CXType mine = clang_getCanonicalType(clang_getCursorType(cur));
        for (int i = 0; i < t->ntypedefs; i++)
            if (*name && !strcmp(t->typedefs[i], name) && !clang_equalTypes(t->typedef_types[i], mine)) {
                t->clashing = realloc(t->clashing, sizeof *t->clashing * (size_t)(t->nclashing + 1));
                t->clashing[t->nclashing++] = strdup(name);
                break;
            }
        clang_disposeString(s);
    }
    return CXChildVisit_Recurse;
}

static tag_scan scan;

static int clashing_tag(const char *name)
{
    for (int i = 0; i < scan.nclashing; i++)
        if (!strcmp(scan.clashing[i], name)) return 1;
    return 0;
}

/* C11's keywords that C++ spells otherwise (g++ and nvcc know neither
 * _Static_assert nor _Alignas); NULL for the rest. */
static const char *c11_in_cxx(const char *kw)
{
    static const char *const map[][2] = {{"_Static_assert", "static_assert"},
                                         {"_Alignas", "alignas"},
                                         {"_Alignof", "alignof"},
                                         {"_Noreturn", "__attribute__((noreturn))"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(kw, map[i][0])) return map[i][1];
    return NULL;
}

static void rename_in_file(gp_conv *c, CXFile f)
{
    CXToken *toks;
    unsigned n = gp_tokenize_file(c, f, &toks);
    CXCursor *curs = malloc(sizeof *curs * (n ? n : 1));
    clang_annotateTokens(c->tu, toks, n, curs);
    for (unsigned i = 0; i < n; i++) {
        if (clang_getTokenKind(toks[i]) == CXToken_Keyword) {
            /* C's restrict is spelled __restrict__ in C++ (g++ and nvcc) */
            CXString s = clang_getTokenSpelling(c->tu, toks[i]);
            const char *kw = clang_getCString(s), *cxx = c11_in_cxx(kw);
            int is_restrict = !strcmp(kw, "restrict");
            unsigned off = gp_offset(clang_getTokenLocation(c->tu, toks[i]));
            if (is_restrict) {
                clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), "__");
                clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off + 8), "__");
            } else if (cxx) {
                gp_replace(c, f, off, (unsigned)strlen(kw), cxx);
            }
            clang_disposeString(s);
            continue;
        }
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier) continue;
        if (i > 0 && clang_getTokenKind(toks[i - 1]) == CXToken_Keyword) {
            CXString kw = clang_getTokenSpelling(c->tu, toks[i - 1]), id = clang_getTokenSpelling(c->tu, toks[i]);
            const char *k = clang_getCString(kw);
            int tag = (!strcmp(k, "struct") || !strcmp(k, "union") || !strcmp(k, "enum")) &&
                      clashing_tag(clang_getCString(id));
            clang_disposeString(kw);
            clang_disposeString(id);
            if (tag) {
                unsigned off = gp_offset(clang_getTokenLocation(c->tu, toks[i]));
                clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), "__gp_tag_");
                continue;
            }
        }
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        int kw = gp_is_cxx_keyword(clang_getCString(s));
        int cplusplus = !strcmp(clang_getCString(s), "__cplusplus");
        clang_disposeString(s);
        if (cplusplus) { /* the file is C, whatever compiles it: #ifdef __cplusplus stays false */
            unsigned off = gp_offset(clang_getTokenLocation(c->tu, toks[i]));
            clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), "__gp_c_not");
            continue;
        }
        if (!kw) continue;
        /* a use of a header's macro (bool, true, and...) means the same in C++ */
        enum CXCursorKind k = clang_getCursorKind(curs[i]);
        if (k == CXCursor_MacroExpansion || k == CXCursor_MacroInstantiation) continue;
        /* and so does a use of a header's typedef of that name (wchar_t
         * from <stddef.h>: a type of its own in C++) */
        if (k == CXCursor_TypeRef && !gp_converted(c, clang_getCursorReferenced(curs[i]))) continue;
        unsigned off = gp_offset(clang_getTokenLocation(c->tu, toks[i]));
        clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), "__gp_kw_");
    }
    free(curs);
    clang_disposeTokens(c->tu, toks, n);
}

void gp_rewrite_keywords(gp_conv *c)
{
    CXCursor tu = clang_getTranslationUnitCursor(c->tu);
    clang_visitChildren(tu, find_typedefs, &scan);
    clang_visitChildren(tu, find_clashing_tags, &scan);
    gp_for_each_converted_file(c, rename_in_file);
}
