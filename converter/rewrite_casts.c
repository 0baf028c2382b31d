/* Explicit casts where C converts implicitly and C++ does not.
 *
 * libclang shows an implicit conversion as a CXCursor_UnexposedExpr whose
 * type is the destination and whose one child has the source type. Where
 * C++ would reject the conversion (void* to T*, between unrelated pointer
 * types, integer to and from pointer, integer or another enum to an enum,
 * dropped qualifiers) or call it narrowing inside braces, the child becomes
 * (T)(child): the conversion C performs, spelled out. Children are handled
 * before parents so nested casts nest. */
#include <stdio.h>
#include <string.h>

#include "convert.h"

typedef struct {
    gp_conv *c;
    int in_braces; /* inside an initializer list: narrowing is an error in C++ */
    int in_sizeof; /* the operand of sizeof/_Alignof: 'a' is an int in C, a char in C++ */
    /* finding mode (gp_find_casts_in_macros): the casts are not made, the
     * macro invocations that hide where they go are expanded instead */
    void *find;
    unsigned anc_b, anc_e; /* the nearest enclosing node but an implicit conversion */
} cast_ctx;

static int is_pointer(CXType t) { return t.kind == CXType_Pointer || t.kind == CXType_BlockPointer; }

static int is_integer(CXType t)
{
    return (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
}

static int is_arithmetic(CXType t) { return is_integer(t) || (t.kind >= CXType_Float && t.kind <= CXType_LongDouble); }

/* The canonical spelling without top-level const/volatile (libclang 14 has
 * no clang_getUnqualifiedType). */
static void unqualified(CXType t, char *out, size_t cap)
{
    CXString s = clang_getTypeSpelling(clang_getCanonicalType(t));
    const char *p = clang_getCString(s);
    for (;;) {
        if (!strncmp(p, "const ", 6)) p += 6;
        else if (!strncmp(p, "volatile ", 9)) p += 9;
        else if (!strncmp(p, "restrict ", 9)) p += 9;
        else break;
    }
    snprintf(out, cap, "%s", p);
    for (;;) {
        size_t n = strlen(out);
        if (n > 6 && !strcmp(out + n - 6, " const")) out[n - 6] = 0;
        else if (n > 9 && !strcmp(out + n - 9, " volatile")) out[n - 9] = 0;
        else if (n > 9 && !strcmp(out + n - 9, " restrict")) out[n - 9] = 0;
        else break;
    }
    clang_disposeString(s);
}

static int same_type(CXType a, CXType b);

/* The same type but for top-level qualifiers. A pointer's own qualifiers
 * come after its '*' (T *volatile), and the ones before belong to what it
 * points to, which must match. */
static int same_unqualified(CXType a, CXType b)
{
    a = clang_getCanonicalType(a);
    b = clang_getCanonicalType(b);
    if (is_pointer(a) || is_pointer(b))
        return is_pointer(a) && is_pointer(b) && same_type(clang_getPointeeType(a), clang_getPointeeType(b));
    char x[512], y[512];
    unqualified(a, x, sizeof x);
    unqualified(b, y, sizeof y);
    return strcmp(x, y) == 0;
}

static int same_type(CXType a, CXType b)
{
    return clang_equalTypes(clang_getCanonicalType(a), clang_getCanonicalType(b));
}

/* Would C++ refuse to convert from `from` to `to` without a cast? */
static int needs_cast(CXType to, CXType from, int in_braces)
{
    to = clang_getCanonicalType(to);
    from = clang_getCanonicalType(from);
    if (is_pointer(to) && is_pointer(from)) {
        CXType pt = clang_getPointeeType(to), pf = clang_getPointeeType(from);
        if (same_type(pt, pf)) return 0;
        /* T* -> const T* is fine; T* -> void* is fine unless it drops qualifiers */
        int drops = (clang_isConstQualifiedType(pf) && !clang_isConstQualifiedType(pt)) ||
                    (clang_isVolatileQualifiedType(pf) && !clang_isVolatileQualifiedType(pt));
        if (drops) return 1;
        if (clang_getCanonicalType(pt).kind == CXType_Void) return 0;
        return !same_unqualified(pt, pf); /* else only qualifiers were added */
    }
    if (is_pointer(to) && is_integer(from)) return 1; /* a literal 0 is handled by the caller */
    if (is_integer(to) && is_pointer(from)) return to.kind != CXType_Bool;
    if (to.kind == CXType_Enum && !same_type(to, from) && is_arithmetic(from)) return 1;
    if (in_braces && is_arithmetic(to) && is_arithmetic(from) && !same_type(to, from)) return 1;
    return 0;
}

static int is_null_literal(gp_conv *c, CXCursor e)
{
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(e), &toks, &n);
    int zero = 0;
    if (n == 1) {
        CXString s = clang_getTokenSpelling(c->tu, toks[0]);
        zero = !strcmp(clang_getCString(s), "0");
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, toks, n);
    return zero;
}

/* (void *)0, ((void*)0) or NULL: C's null pointer constant through void*.
 * C++ needs a cast to use it as a T*, and a cast from void* is not a
 * constant expression (nvcc then refuses it in a __device__ variable's
 * initializer), so it is written as plain 0 instead. */
static int is_void_null(gp_conv *c, CXCursor e)
{
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(e), &toks, &n);
    const char *want[] = {"void", "*", "0"};
    int k = 0, ok = 1, is_null_macro = 0;
    for (unsigned i = 0; i < n && ok; i++) {
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(s);
        if (n == 1 && !strcmp(t, "NULL"))
            is_null_macro = 1;
        else if (strcmp(t, "(") && strcmp(t, ")")) {
            if (k < 3 && (!strcmp(t, want[k]) || (k == 2 && t[0] == '0' && strspn(t, "0uUlL") == strlen(t))))
                k++;
            else
                ok = 0;
        }
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, toks, n);
    return is_null_macro || (ok && k == 3);
}


static void wrap_text(gp_conv *c, CXCursor child, const char *type)
{
    CXFile f;
    unsigned b, e;
    if (!gp_extent(child, &f, &b, &e) || e == b) return;
    char open[1024];
    snprintf(open, sizeof open, "(%s)(", type);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, b), open);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, e), ")");
}

static void replace_expr(gp_conv *c, CXCursor e, const char *text)
{
    CXFile f;
    unsigned b, en;
    if (gp_extent(e, &f, &b, &en) && en > b) gp_replace(c, f, b, en - b, text);
}

/* The destination type as the converted code spells it: without volatile,
 * which rewrite_volatile.c takes out of the declarations. */
static void wrap(gp_conv *c, CXCursor child, CXType to)
{
    CXString t = clang_getTypeSpelling(to);
    char type[1024];
    snprintf(type, sizeof type, "%s", clang_getCString(t));
    clang_disposeString(t);
    for (char *v; (v = strstr(type, "volatile"));) memmove(v, v + 8, strlen(v + 8) + 1);
    gp_float_type_spelling(type, sizeof type);
    wrap_text(c, child, type);
}


/* The operator of a binary expression: the token between its operands. */
static int is_comparison(gp_conv *c, CXCursor lhs, CXCursor rhs)
{
    CXSourceRange r = clang_getRange(clang_getRangeEnd(clang_getCursorExtent(lhs)),
                                     clang_getRangeStart(clang_getCursorExtent(rhs)));
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, r, &toks, &n);
    int yes = 0;
    for (unsigned i = 0; i < n && !yes; i++) {
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(s);
        yes = !strcmp(t, "==") || !strcmp(t, "!=") || !strcmp(t, "<") || !strcmp(t, ">") || !strcmp(t, "<=") ||
              !strcmp(t, ">=");
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, toks, n);
    return yes;
}

/* C compares pointers to different types (with a warning); C++ needs them
 * made comparable: both as const volatile void *. */
static void fix_pointer_comparison(gp_conv *c, CXCursor op)
{
    CXCursor ops[2];
    if (gp_children(op, ops, 2) != 2) return;
    CXType a = clang_getCanonicalType(clang_getCursorType(ops[0]));
    CXType b = clang_getCanonicalType(clang_getCursorType(ops[1]));
    if (!is_pointer(a) || !is_pointer(b)) return;
    CXType pa = clang_getCanonicalType(clang_getPointeeType(a)), pb = clang_getCanonicalType(clang_getPointeeType(b));
    if (pa.kind == CXType_Void || pb.kind == CXType_Void) return;
    if (same_unqualified(pa, pb) || !is_comparison(c, ops[0], ops[1])) return;
    wrap_text(c, ops[0], "const volatile void *");
    wrap_text(c, ops[1], "const volatile void *");
}

/* c ? z : 1.0 with z complex: C converts the real arm, C++ finds the
 * class and the real convertible both ways (ambiguous): the conversion is
 * spelled out, as between float and double complex arms */
static void fix_complex_arm(gp_conv *c, CXCursor cur, CXCursor parent)
{
    CXCursor child;
    if (clang_getCursorKind(parent) != CXCursor_ConditionalOperator || gp_children(cur, &child, 1) != 1 ||
        !clang_isExpression(clang_getCursorKind(child)))
        return;
    CXType to = clang_getCanonicalType(clang_getCursorType(cur));
    CXType from = clang_getCanonicalType(clang_getCursorType(child));
    if (to.kind == CXType_Complex && !clang_equalTypes(to, from)) wrap(c, child, to);
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    cast_ctx *x = data;
    gp_conv *c = x->c;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(cur);
    /* children first, so an inner cast is inserted before an outer one */
    cast_ctx inner = *x;
    if (k != CXCursor_UnexposedExpr) {
        CXFile f;
        if (!gp_extent(cur, &f, &inner.anc_b, &inner.anc_e)) inner.anc_b = inner.anc_e = 0;
    }
    if (k == CXCursor_InitListExpr) inner.in_braces = 1;
    else if (k != CXCursor_UnexposedExpr) inner.in_braces = 0;
    inner.in_sizeof = k == CXCursor_UnaryExpr || (k == CXCursor_ParenExpr && x->in_sizeof);
    if (!x->find && k == CXCursor_CharacterLiteral && x->in_sizeof) { /* sizeof 'a' is sizeof(int) in C */
        CXFile f;
        unsigned b, e;
        if (gp_extent(cur, &f, &b, &e) && e > b) {
            clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, b), "((int)");
            clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, e), ")");
        }
    }
    clang_visitChildren(cur, visit, &inner);
    if (!x->find && k == CXCursor_BinaryOperator) fix_pointer_comparison(c, cur);
    if (!x->find && k == CXCursor_UnexposedExpr) fix_complex_arm(c, cur, parent);
    if (k == CXCursor_UnexposedExpr) {
        CXCursor child;
        if (gp_children(cur, &child, 1) == 1 && clang_isExpression(clang_getCursorKind(child))) {
            CXType to = clang_getCursorType(cur), from = clang_getCursorType(child);
            int to_pointer = is_pointer(clang_getCanonicalType(to));
            if (to.kind != CXType_Invalid && from.kind != CXType_Invalid && needs_cast(to, from, x->in_braces) &&
                !(to_pointer && is_null_literal(c, child))) {
                CXFile f;
                unsigned b, e;
                if (x->find) {
                    if (gp_extent(child, &f, &b, &e)) gp_macro_hides_cast(c, x->find, f, b, e, x->anc_b, x->anc_e);
                } else if (to_pointer && is_pointer(clang_getCanonicalType(from)) && is_void_null(c, child))
                    replace_expr(c, child, "0");
                else
                    wrap(c, child, to);
            }
        }
    }
    return CXChildVisit_Continue;
}

void gp_rewrite_casts(gp_conv *c)
{
    cast_ctx x = {c, 0, 0, NULL, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, &x);
}

void gp_find_casts_in_macros(gp_conv *c, void *pass)
{
    cast_ctx x = {c, 0, 0, pass, 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, &x);
}
