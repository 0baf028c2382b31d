/* C lets goto and switch jump past a declaration with an initializer; C++
 * refuses ("jump to label crosses initialization"). In a function with a
 * goto or a switch, `T x = e;` becomes `T x ; x = e;`: a declaration without
 * initializer, which C++ lets a jump cross, then the same assignment.
 * Insertions only. Braced initializers, arrays, const and static variables
 * and for-loop declarations keep their form. */
#include <stdio.h>
#include <string.h>

#include "convert.h"

static enum CXChildVisitResult find_jump(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt || k == CXCursor_SwitchStmt) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static void split(gp_conv *c, CXCursor var)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    if (clang_Cursor_getStorageClass(var) == CX_SC_Static || clang_isConstQualifiedType(t) ||
        t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray ||
        t.kind == CXType_LValueReference)
        return;
    CXCursor kids[8];
    int n = gp_children(var, kids, 8);
    if (n < 1) return;
    CXCursor init = kids[n < 8 ? n - 1 : 7];
    if (!clang_isExpression(clang_getCursorKind(init)) || clang_getCursorKind(init) == CXCursor_InitListExpr) return;
    /* the '=' between the name and the initializer */
    CXToken *toks;
    unsigned nt;
    clang_tokenize(c->tu, clang_getCursorExtent(var), &toks, &nt);
    unsigned name = gp_offset(clang_getCursorLocation(var));
    for (unsigned i = 0; i < nt; i++) {
        unsigned off = gp_offset(clang_getTokenLocation(c->tu, toks[i]));
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        int eq = off > name && !strcmp(clang_getCString(s), "=");
        clang_disposeString(s);
        if (!eq) continue;
        CXString vn = clang_getCursorSpelling(var);
        char text[600];
        snprintf(text, sizeof text, "; %s%s ", gp_is_cxx_keyword(clang_getCString(vn)) ? "__gp_kw_" : "",
                 clang_getCString(vn));
        clang_disposeString(vn);
        CXFile f;
        clang_getExpansionLocation(clang_getTokenLocation(c->tu, toks[i]), &f, NULL, NULL, NULL);
        clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), text);
        break;
    }
    clang_disposeTokens(c->tu, toks, nt);
}

static enum CXChildVisitResult split_decls(CXCursor cur, CXCursor parent, CXClientData data)
{
    gp_conv *c = data;
    if (clang_getCursorKind(cur) == CXCursor_DeclStmt && clang_getCursorKind(parent) != CXCursor_ForStmt) {
        CXCursor vars[2];
        int n = gp_children(cur, vars, 2);
        if (n == 1 && clang_getCursorKind(vars[0]) == CXCursor_VarDecl && gp_name_written_out(c, vars[0]))
            split(c, vars[0]);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    gp_conv *c = data;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    if (clang_getCursorKind(cur) == CXCursor_FunctionDecl && clang_isCursorDefinition(cur)) {
        int jumps = 0;
        clang_visitChildren(cur, find_jump, &jumps);
        if (jumps) clang_visitChildren(cur, split_decls, c);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

void gp_rewrite_jumps(gp_conv *c) { clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c); }
