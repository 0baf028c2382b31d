/* Static locals and block-scope extern declarations, moved to file scope
 * before the other passes run.
 *
 * Per-rank storage is declared at file scope (rewrite_globals.c), so every
 * variable with static storage is put there first, still in C:
 * `static int calls;` in next() becomes `static int next__calls;` on the
 * function's first line, and its uses in the function are renamed; an
 * `extern int counter;` inside a function moves out as it is (C has one
 * `counter` either way). The moved declarations are written as one line of
 * tokens, so every line of the file keeps its number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

typedef struct {
    CXCursor decl;
    char *name; /* function__variable */
} renamed;

typedef struct {
    gp_conv *c;
    CXCursor fn;
    char *moved; /* the declarations that go before the function */
    size_t nmoved;
    renamed *vars;
    int nvars, cap;
    unsigned gone[2 * 256]; /* [begin, end) of the statements moved out of this function */
    int ngone;
    unsigned renamed_at[1024]; /* uses renamed in this function (a macro may expand one twice) */
    int nrenamed;
    int edits;
} hoist;


static void append(hoist *h, const char *s)
{
    size_t n = strlen(s);
    h->moved = realloc(h->moved, h->nmoved + n + 1);
    memcpy(h->moved + h->nmoved, s, n + 1);
    h->nmoved += n;
}

static const char *new_name(hoist *h, CXCursor ref)
{
    CXCursor d = clang_getCursorReferenced(ref);
    for (int i = 0; i < h->nvars; i++)
        if (clang_equalCursors(h->vars[i].decl, d)) return h->vars[i].name;
    return NULL;
}

/* Is a name at file scope already (a global, function, type or enumerator)? */
typedef struct {
    const char *name;
    int found;
} name_find;

static enum CXChildVisitResult find_name(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    name_find *x = data;
    CXString s = clang_getCursorSpelling(cur);
    if (!strcmp(clang_getCString(s), x->name)) x->found = 1;
    clang_disposeString(s);
    enum CXCursorKind k = clang_getCursorKind(cur);
    return x->found ? CXChildVisit_Break : k == CXCursor_EnumDecl ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

static char *unique_name(hoist *h, CXCursor var)
{
    char *fn = gp_spelling(h->fn), *v = gp_spelling(var);
    size_t cap = strlen(fn) + strlen(v) + 16;
    char *buf = malloc(cap);
    snprintf(buf, cap, "%s__%s", fn, v);
    for (int k = 2;; k++) {
        name_find x = {buf, 0};
        clang_visitChildren(clang_getTranslationUnitCursor(h->c->tu), find_name, &x);
        for (int i = 0; i < h->nvars; i++)
            if (!strcmp(h->vars[i].name, buf)) x.found = 1;
        if (!x.found) break;
        snprintf(buf, cap, "%s__%s__%d", fn, v, k);
    }
    free(fn);
    free(v);
    return buf;
}

/* Is the variable's type (or what it points to, or its elements) declared
 * inside the function? Then it cannot move out. */
static int type_is_local(CXCursor var)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || t.kind == CXType_Pointer)
        t = t.kind == CXType_Pointer ? clang_getPointeeType(t) : clang_getArrayElementType(t);
    CXCursor d = clang_getTypeDeclaration(t);
    if (clang_Cursor_isNull(d) || clang_getCursorKind(d) == CXCursor_NoDeclFound) return 0;
    return clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_FunctionDecl;
}


enum { STAYS, MOVES, REFUSED };

/* Does this declaration statement move out: all its variables are static
 * (or __thread) locals, or all are extern? */
static int classify(hoist *h, CXCursor stmt)
{
    CXCursor kids[64];
    int n = gp_children(stmt, kids, 64);
    if (n < 1 || n > 64) return STAYS;
    for (int i = 0; i < n; i++) {
        if (clang_getCursorKind(kids[i]) != CXCursor_VarDecl) return STAYS;
        enum CX_StorageClass sc = clang_Cursor_getStorageClass(kids[i]);
        int is_static = sc == CX_SC_Static || clang_getCursorTLSKind(kids[i]) != CXTLS_None;
        if (sc != CX_SC_Extern && !is_static) return STAYS;
        if (!type_is_local(kids[i])) continue;
        if (gp_elements_const(kids[i]) && sc != CX_SC_Extern) return STAYS; /* a constant: can stay where it is */
        char *name = gp_spelling(kids[i]);
        gp_error_at(h->c, clang_getCursorLocation(kids[i]),
                    "static variable '%s' has a type declared inside its function; gpumpi moves static "
                    "locals to file scope, so declare the type outside the function",
                    name);
        free(name);
        return REFUSED;
    }
    for (int i = 0; i < n; i++)
        if (clang_Cursor_getStorageClass(kids[i]) != CX_SC_Extern) {
            if (h->nvars == h->cap) h->vars = realloc(h->vars, sizeof *h->vars * (size_t)(h->cap = h->cap * 2 + 8));
            h->vars[h->nvars].name = unique_name(h, kids[i]);
            h->vars[h->nvars++].decl = kids[i];
        }
    return MOVES;
}

/* Is def (a macro's definition, an enumerator) written inside the function
 * being moved from? At file scope its name would mean nothing. */
static int inside_function(hoist *h, CXCursor def)
{
    CXFile f, ff;
    unsigned b, e, fb, fe;
    return !clang_Cursor_isNull(def) && gp_extent(def, &f, &b, &e) && gp_extent(h->fn, &ff, &fb, &fe) &&
           clang_File_isEqual(f, ff) && b >= fb && b < fe;
}

/* Is the token's cursor a macro defined inside the function being moved
 * from? Then *body is its body's tokens (an object-like macro), or NULL. */
static int macro_of_function(hoist *h, CXCursor cur, char **body)
{
    *body = NULL;
    if (clang_getCursorKind(cur) != CXCursor_MacroExpansion) return 0;
    CXCursor def = clang_getCursorReferenced(cur);
    if (!inside_function(h, def)) return 0;
    if (clang_Cursor_isMacroFunctionLike(def)) return 1;
    CXToken *toks;
    unsigned n;
    clang_tokenize(h->c->tu, clang_getCursorExtent(def), &toks, &n);
    size_t len = 1;
    for (unsigned i = 1; i < n; i++) { /* token 0 is the name */
        CXString s = clang_getTokenSpelling(h->c->tu, toks[i]);
        size_t k = strlen(clang_getCString(s));
        *body = realloc(*body, len + k + 1);
        if (len == 1) **body = 0;
        strcat(*body, clang_getCString(s));
        strcat(*body, i + 1 < n ? " " : "");
        len += k + 1;
        clang_disposeString(s);
    }
    clang_disposeTokens(h->c->tu, toks, n);
    if (!*body) *body = strdup("");
    return 1;
}

/* Is the token's cursor an enumerator of an enum declared inside the
 * function being moved from? Then value is its value, in parentheses. */
static int local_enumerator(hoist *h, CXCursor cur, char value[32])
{
    CXCursor d = clang_getCursorReferenced(cur);
    if (clang_getCursorKind(d) != CXCursor_EnumConstantDecl || !inside_function(h, d)) return 0;
    snprintf(value, 32, "(%lld)", clang_getEnumConstantDeclValue(d));
    return 1;
}

/* The statement as one line of tokens, with moved names renamed. */
static void move_statement(hoist *h, CXCursor stmt)
{
    gp_conv *c = h->c;
    CXFile f;
    unsigned b, e;
    size_t len;
    if (!gp_extent(stmt, &f, &b, &e) || !clang_File_isEqual(f, gp_file_of(h->fn))) {
        gp_error_at(c, clang_getCursorLocation(stmt),
                    "a static or extern declaration inside a function comes from a macro; gpumpi moves these to "
                    "file scope: write it out");
        return;
    }
    const char *src = gp_text(c, f, &len);
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(stmt), &toks, &n);
    CXCursor *curs = calloc(n + 1, sizeof *curs);
    clang_annotateTokens(c->tu, toks, n, curs);
    char *body = NULL, value[32];
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(s), *to = NULL;
        if (!strcmp(t, "#"))
            gp_error_at(c, clang_getTokenLocation(c->tu, toks[i]),
                        "a preprocessor directive inside a static local's declaration; gpumpi moves these to file "
                        "scope: move the directive out of the declaration");
        if (clang_getTokenKind(toks[i]) == CXToken_Identifier && macro_of_function(h, curs[i], &body)) {
            /* `#define N 4` inside the function, before the declaration:
             * at file scope N means nothing yet, so its body goes there */
            append(h, body ? body : t);
            if (!body)
                gp_error_at(c, clang_getTokenLocation(c->tu, toks[i]),
                            "a static local's declaration uses '%s', a function-like macro defined inside its "
                            "function; gpumpi moves static locals to file scope: define the macro before the function",
                            t);
            free(body);
            body = NULL;
            clang_disposeString(s);
            if (i + 1 < n) append(h, " ");
            continue;
        }
        if (clang_getTokenKind(toks[i]) == CXToken_Identifier && local_enumerator(h, curs[i], value)) {
            append(h, value); /* `enum { K = 120 }; static int got[2 * K];`: K means nothing at file scope */
            clang_disposeString(s);
            if (i + 1 < n) append(h, " ");
            continue;
        }
        if (clang_getTokenKind(toks[i]) == CXToken_Identifier) {
            to = new_name(h, curs[i]);
            if (!to) /* the declarator's own name */
                for (int k = 0; k < h->nvars; k++)
                    if (clang_equalCursors(h->vars[k].decl, curs[i])) to = h->vars[k].name;
            if (to) {
                CXString orig = clang_getCursorSpelling(curs[i]);
                if (strcmp(clang_getCString(orig), t)) to = NULL; /* a type or macro name beside it */
                clang_disposeString(orig);
            }
        }
        append(h, to ? to : t);
        clang_disposeString(s);
        /* one space wherever the source had any */
        CXSourceRange here = clang_getTokenExtent(c->tu, toks[i]);
        if (i + 1 < n && gp_offset(clang_getRangeEnd(here)) <
                             gp_offset(clang_getRangeStart(clang_getTokenExtent(c->tu, toks[i + 1]))))
            append(h, " ");
    }
    append(h, n > 0 && h->moved[h->nmoved - 1] == ';' ? " " : "; ");
    clang_disposeTokens(c->tu, toks, n);
    free(curs);
    /* the original goes, its lines stay */
    unsigned end = e < len && src[e] == ';' ? e + 1 : e;
    char *blank = malloc(end - b + 1);
    unsigned k = 0;
    for (unsigned i = b; i < end; i++)
        if (src[i] == '\n') blank[k++] = '\n';
    blank[k] = 0;
    gp_replace(c, f, b, end - b, blank);
    free(blank);
    if (h->ngone < 256) {
        h->gone[2 * h->ngone] = b;
        h->gone[2 * h->ngone++ + 1] = end;
    } else {
        gp_error_at(c, clang_getCursorLocation(stmt), "more than 256 static locals in one function");
    }
    h->edits++;
}

static enum CXChildVisitResult in_function(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    hoist *h = data;
    if (clang_getCursorKind(cur) == CXCursor_DeclStmt) {
        int how = classify(h, cur);
        if (how == MOVES) move_statement(h, cur);
        if (how != STAYS) return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult rename_uses(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    hoist *h = data;
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &f, NULL, NULL, &off);
    for (int i = 0; i < h->ngone; i++)
        if (off >= h->gone[2 * i] && off < h->gone[2 * i + 1]) return CXChildVisit_Continue; /* renamed as it moved */
    if (clang_getCursorKind(cur) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
    const char *to = new_name(h, cur);
    if (!to) return CXChildVisit_Continue;
    /* where the name is spelled: in the function, or (a macro argument) in
     * the macro call there; not in a #define elsewhere */
    char *written = gp_spelling(cur);
    unsigned fb, fe, at;
    CXFile ff, sf;
    size_t len;
    clang_getSpellingLocation(clang_getCursorLocation(cur), &sf, NULL, NULL, &at);
    const char *src = sf ? gp_text(h->c, sf, &len) : NULL;
    int here = gp_extent(h->fn, &ff, &fb, &fe) && sf && clang_File_isEqual(sf, ff) && at >= fb && at < fe &&
               at + strlen(written) <= len && !strncmp(src + at, written, strlen(written));
    free(written);
    if (!here) {
        char *name = gp_spelling(cur);
        gp_error_at(h->c, clang_getCursorLocation(cur),
                    "static variable '%s' is used inside a macro; gpumpi moves static locals to file scope "
                    "(renamed), which the macro cannot follow: pass it to the macro as an argument",
                    name);
        free(name);
        return CXChildVisit_Continue;
    }
    for (int i = 0; i < h->nrenamed; i++)
        if (h->renamed_at[i] == at) return CXChildVisit_Continue;
    if (h->nrenamed < 1024) h->renamed_at[h->nrenamed++] = at;
    char *name = gp_spelling(cur);
    gp_replace(h->c, sf, at, (unsigned)strlen(name), to);

    free(name);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    hoist *h = data;
    if (!gp_converted(h->c, cur)) return CXChildVisit_Continue;
    if (clang_getCursorKind(cur) != CXCursor_FunctionDecl || !clang_isCursorDefinition(cur))
        return CXChildVisit_Continue;
    h->fn = cur;
    h->nmoved = 0;
    h->ngone = 0;
    h->nrenamed = 0;
    int first_var = h->nvars;
    clang_visitChildren(cur, in_function, h);
    if (h->nmoved == 0) return CXChildVisit_Continue;
    /* uses outside the moved statements (those were renamed as they moved) */
    renamed *all = h->vars;
    int nall = h->nvars;
    h->vars += first_var;
    h->nvars -= first_var;
    clang_visitChildren(cur, rename_uses, h);
    h->vars = all;
    h->nvars = nall;
    CXFile f;
    unsigned b, e;
    size_t len;
    gp_extent(cur, &f, &b, &e);
    const char *src = gp_text(h->c, f, &len);
    while (b > 0 && src[b - 1] != '\n') b--; /* the function's first line */
    clang_CXRewriter_insertTextBefore(h->c->rw, gp_loc(h->c, f, b), h->moved);
    return CXChildVisit_Continue;
}

int gp_hoist_locals(gp_conv *c)
{
    hoist h = {0};
    h.c = c;
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, &h);
    for (int i = 0; i < h.nvars; i++) free(h.vars[i].name);
    free(h.vars);
    free(h.moved);
    return h.edits;
}
