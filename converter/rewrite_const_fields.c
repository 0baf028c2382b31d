/* A struct or union member that is itself const has its const commented
 * out. nvcc declares a host shadow of every __device__ variable without an
 * initializer, and C++ refuses to default-construct a type with a const
 * member ("use of deleted function"), so a per-rank global of such a type
 * would not compile. C only forbids assigning to the member, so a program
 * that compiles as C behaves the same without the qualifier. Runs before
 * the other passes, like rewrite_volatile.c. */
#include <string.h>

#include "convert.h"

static void comment_out(gp_conv *c, CXFile f, unsigned off, unsigned len)
{
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), "/*");
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off + len), "*/");
}

static void strip_field(gp_conv *c, CXCursor field)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(field));
    CXType base = t;
    while (base.kind == CXType_ConstantArray || base.kind == CXType_IncompleteArray)
        base = clang_getCanonicalType(clang_getArrayElementType(base));
    if (!clang_isConstQualifiedType(base)) return;
    int pointer = base.kind == CXType_Pointer;
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(field), &toks, &n);
    unsigned name_off = gp_offset(clang_getCursorLocation(field));
    CXString fname = clang_getCursorSpelling(field);
    int unnamed = clang_getCString(fname)[0] == 0; /* const signed : 0; */
    clang_disposeString(fname);
    if (unnamed) name_off = ~0u;
    /* a pointer's own const follows its last '*'; otherwise every const before
     * the name qualifies the member */
    unsigned last_star = 0;
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        if (!strcmp(clang_getCString(s), "*")) last_star = i + 1;
        clang_disposeString(s);
    }
    for (unsigned i = pointer ? last_star : 0; i < n; i++) {
        unsigned off = gp_offset(clang_getTokenLocation(c->tu, toks[i]));
        if (off >= name_off) break;
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        if (!strcmp(clang_getCString(s), ":")) off = name_off; /* a bit-field width ends the specifiers */
        if (off < name_off && !strcmp(clang_getCString(s), "const")) {
            CXFile f;
            clang_getSpellingLocation(clang_getTokenLocation(c->tu, toks[i]), &f, NULL, NULL, NULL);
            comment_out(c, f, off, 5);
        }
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, toks, n);
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    gp_conv *c = data;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    if (clang_getCursorKind(cur) == CXCursor_FieldDecl) {
        CXString n = clang_getCursorSpelling(cur);
        int unnamed = clang_getCString(n)[0] == 0;
        clang_disposeString(n);
        if (unnamed || gp_name_written_out(c, cur)) strip_field(c, cur);
    }
    return CXChildVisit_Recurse;
}

void gp_rewrite_const_fields(gp_conv *c) { clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c); }
