/* ++ and -- on an enum: C steps the integer, C++ has no such operator for
 * enums. Written out as an assignment of the converted sum, in C that C++
 * accepts too: `++c` is `(c = (__typeof__(c))(c + 1))`, and `c++`, whose
 * value is the old one, `((__typeof__(c))((c = (__typeof__(c))(c + 1)) -
 * 1))`. The operand is written twice, so only one that has no side
 * effects is rewritten (a name, a member, an element with such an index);
 * __typeof__ names any enum, anonymous ones and typedefs included. A
 * normalizing pass: the file is parsed again after it (main.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

typedef struct {
    gp_conv *c;
    int edits;
} pass;

/* An operand without side effects: names, members, elements, literals. */
static enum CXChildVisitResult plain(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    int *ok = data;
    switch (clang_getCursorKind(cur)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_IntegerLiteral:
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
        clang_visitChildren(cur, plain, ok);
        return *ok ? CXChildVisit_Continue : CXChildVisit_Break;
    default:
        *ok = 0;
        return CXChildVisit_Break;
    }
}

static void step(pass *p, CXCursor op)
{
    gp_conv *c = p->c;
    CXCursor operand;
    if (gp_children(op, &operand, 1) != 1) return;
    if (clang_getCanonicalType(clang_getCursorType(operand)).kind != CXType_Enum) return;
    CXFile f, fo;
    unsigned b, e, ob, oe;
    size_t len;
    if (!gp_extent(op, &f, &b, &e) || !gp_extent(operand, &fo, &ob, &oe) || !clang_File_isEqual(f, fo)) return;
    const char *t = gp_text(c, f, &len);
    if (e > len || oe > e || ob < b) return;
    /* the operator written here (not produced by a macro), before or after */
    const char *opnd = t + ob;
    int n = (int)(oe - ob), prefix;
    const char *before = t + b, *after = t + oe;
    size_t pre = ob - b, post = e - oe;
    if (pre >= 2 && post == 0 && (before[0] == '+' || before[0] == '-') && before[1] == before[0])
        prefix = 1;
    else if (post >= 2 && pre == 0 && (after[post - 2] == '+' || after[post - 2] == '-') && after[post - 1] == after[post - 2])
        prefix = 0;
    else
        return;
    int ok = 1;
    plain(operand, op, &ok);
    if (!ok) return;
    char sign = prefix ? before[0] : after[post - 2];
    size_t cap = 8 * (size_t)n + 128;
    char *text = malloc(cap);
    if (prefix)
        snprintf(text, cap, "(%.*s = (__typeof__(%.*s))(%.*s %c 1))", n, opnd, n, opnd, n, opnd, sign);
    else
        snprintf(text, cap, "((__typeof__(%.*s))((%.*s = (__typeof__(%.*s))(%.*s %c 1)) %c 1))", n, opnd, n, opnd,
                 n, opnd, n, opnd, sign, sign == '+' ? '-' : '+');
    gp_replace(c, f, b, e - b, text);
    free(text);
    p->edits++;
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    pass *p = data;
    if (!gp_converted(p->c, cur)) return CXChildVisit_Continue;
    if (clang_getCursorKind(cur) == CXCursor_UnaryOperator) {
        int before = p->edits;
        step(p, cur);
        if (p->edits != before) return CXChildVisit_Continue; /* its operand was plain: nothing inside */
    }
    return CXChildVisit_Recurse;
}

int gp_rewrite_enum_steps(gp_conv *c)
{
    pass p = {c, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, &p);
    return p.edits;
}
