/* Macro invocations that hide where C++ needs an edit: a cast that belongs
 * around part of a statement macro's body (`do { p = realloc(p, n); }
 * while (0)`), or around one of its arguments, cannot be written at the
 * invocation: wrapping the whole of it gives `(double *)(GROW(d, n));`,
 * which no compiler accepts, and an edit inside the #define would apply to
 * every expansion, whatever their types. So such an invocation is replaced
 * in the converted copy by its expansion, one level deep, and the file is
 * parsed again: the later passes then edit real text. Macros of the
 * system's headers are never expanded (nor are the converted copies of
 * those headers edited).
 *
 * One level: the body with each parameter replaced by its argument as
 * written, `#x` made a string and `a ## b` pasted, which is what the
 * preprocessor makes of it before it rescans; macros in the result are
 * expanded by the compiler as before. A macro whose body names itself is
 * left alone (rescanning would expand that name again). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

typedef struct {
    char *s;
    size_t len, cap;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

/* [s, e) without leading and trailing white space */
static void trim(const char **s, const char **e)
{
    while (*s < *e && strchr(" \t\r\n", **s)) (*s)++;
    while (*e > *s && strchr(" \t\r\n", (*e)[-1])) (*e)--;
}

/* The arguments of an invocation's text `NAME ( a, b(c, d), "e,f" )`:
 * their [begin, end) in text, at most max; returns how many, -1 if the
 * text is not a whole invocation. */
static int split_args(const char *t, size_t n, const char **b, const char **e, int max)
{
    const char *p = t, *end = t + n;
    while (p < end && *p != '(') p++;
    if (p >= end) return -1;
    int depth = 0, k = 0;
    const char *start = ++p;
    for (; p < end; p++) {
        char ch = *p;
        if (ch == '"' || ch == '\'') {
            for (p++; p < end && *p != ch; p++)
                if (*p == '\\') p++;
        } else if (ch == '/' && p + 1 < end && p[1] == '*') {
            for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++) {}
            p++;
        } else if (ch == '(') {
            depth++;
        } else if ((ch == ',' && depth == 0) || (ch == ')' && depth == 0)) {
            if (k >= max) return -1;
            b[k] = start;
            e[k] = p;
            k++;
            start = p + 1;
            if (ch == ')') return p + 1 == end ? k : -1;
        } else if (ch == ')') {
            depth--;
        }
    }
    return -1;
}

#define MAX_ARGS 64

typedef struct {
    gp_conv *c;
    CXToken *toks;
    unsigned n;
    unsigned body; /* first token of the body */
    int nparams, variadic;
    char *params[MAX_ARGS];
    const char *ab[MAX_ARGS], *ae[MAX_ARGS]; /* the arguments as written */
    int nargs;
} expansion;

static char *spell(expansion *x, unsigned i)
{
    CXString s = clang_getTokenSpelling(x->c->tu, x->toks[i]);
    char *r = strdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

/* The argument a body token names: its index, nparams for __VA_ARGS__, -1 if none. */
static int param_of(expansion *x, const char *t)
{
    for (int i = 0; i < x->nparams; i++)
        if (!strcmp(t, x->params[i])) return i;
    return x->variadic && !strcmp(t, "__VA_ARGS__") ? x->nparams : -1;
}

/* The text of argument i (the variadic part: all of it, commas included). */
static void arg_text(expansion *x, int i, const char **s, const char **e)
{
    int named = x->nparams - (x->variadic == 2);
    if (x->variadic && i >= named) { /* __VA_ARGS__, or a GNU named variadic `args...` */
        if (x->nargs <= named) {
            *s = *e = "";
            return;
        }
        *s = x->ab[named];
        *e = x->ae[x->nargs - 1];
    } else if (i < x->nargs) {
        *s = x->ab[i];
        *e = x->ae[i];
    } else {
        *s = *e = "";
    }
    trim(s, e);
}

static void stringify(buf *out, const char *s, const char *e)
{
    puts_(out, "\"");
    int space = 0;
    for (; s < e; s++) {
        if (strchr(" \t\r\n", *s)) {
            space = 1;
            continue;
        }
        if (space) puts_(out, " ");
        space = 0;
        if (*s == '"' || *s == '\\') puts_(out, "\\");
        put(out, s, 1);
    }
    puts_(out, "\"");
}

/* The expansion of the invocation text [t, t + len) of the macro defined
 * at def, or NULL when it is not one this pass expands. */
static char *expand(gp_conv *c, CXCursor def, const char *t, size_t len)
{
    expansion x = {.c = c};
    clang_tokenize(c->tu, clang_getCursorExtent(def), &x.toks, &x.n);
    char *name = x.n ? spell(&x, 0) : NULL, *result = NULL;
    unsigned i = 1;
    int ok = name != NULL;
    if (ok && clang_Cursor_isMacroFunctionLike(def)) {
        for (i = 2; i < x.n; i++) { /* token 1 is '(' */
            char *tk = spell(&x, i);
            int close = !strcmp(tk, ")");
            if (!strcmp(tk, "...")) {
                if (x.variadic || x.nparams >= MAX_ARGS) ok = 0;
                if (x.nparams > 0 && x.variadic == 0 && i > 2) {
                    char *prev = spell(&x, i - 1);
                    if (strcmp(prev, ",")) x.variadic = 2; /* GNU `args...`: the last name is the rest */
                    free(prev);
                }
                if (!x.variadic) x.variadic = 1;
            } else if (!close && strcmp(tk, ",")) {
                if (x.nparams < MAX_ARGS) x.params[x.nparams++] = strdup(tk); else ok = 0;
            }
            free(tk);
            if (close) break;
        }
        i++;
        x.nargs = split_args(t, len, x.ab, x.ae, MAX_ARGS);
        if (x.nargs < 0) ok = 0;
        /* F() of a one-parameter macro passes one empty argument */
    }
    x.body = i;
    buf out = {0};
    put(&out, "", 0);
    int glue = 0; /* the next piece is pasted to the last (##) */
    for (i = x.body; ok && i < x.n; i++) {
        char *tk = spell(&x, i);
        if (!strcmp(tk, name) || !strcmp(tk, "__VA_OPT__")) ok = 0;
        int p;
        const char *s, *e;
        if (!strcmp(tk, "##")) {
            while (out.len && out.s[out.len - 1] == ' ') out.s[--out.len] = 0;
            glue = 1;
        } else if (!strcmp(tk, "#") && x.nparams + x.variadic > 0 && i + 1 < x.n) {
            char *next = spell(&x, ++i);
            if ((p = param_of(&x, next)) < 0) ok = 0;
            else {
                arg_text(&x, p, &s, &e);
                stringify(&out, s, e);
                puts_(&out, " ");
            }
            free(next);
            glue = 0;
        } else if ((p = param_of(&x, tk)) >= 0) {
            arg_text(&x, p, &s, &e);
            /* GNU `, ## __VA_ARGS__`: the comma goes when there is nothing to paste */
            if (glue && s == e && p == x.nparams - (x.variadic == 2) && x.variadic && out.len &&
                out.s[out.len - 1] == ',')
                out.s[--out.len] = 0;
            put(&out, s, (size_t)(e - s));
            puts_(&out, glue ? "" : " ");
            glue = 0;
        } else {
            puts_(&out, tk);
            puts_(&out, " ");
            glue = 0;
        }
        free(tk);
    }
    while (out.len && out.s[out.len - 1] == ' ') out.s[--out.len] = 0;
    if (ok) {
        /* the invocation's line breaks stay, so later lines keep their numbers */
        for (size_t k = 0; k < len; k++)
            if (t[k] == '\n') puts_(&out, "\n");
        result = out.s;
    } else {
        free(out.s);
    }
    for (int k = 0; k < x.nparams; k++) free(x.params[k]);
    free(name);
    clang_disposeTokens(c->tu, x.toks, x.n);
    return result;
}

/* The invocations expanded in this round: each once (as many as the file
 * has: a fixed table of 256 left the rest of a large file's casts around
 * whole statement macros, MPICH's coll/allred). */
typedef struct {
    gp_conv *c;
    CXFile *file;
    unsigned *begin;
    int n, cap;
    int expanded;
} pass;

/* Called by the casts pass (in its finding mode) for an expression that
 * needs a cast and lies in [begin, end) of f, whose nearest enclosing
 * expression or declaration spans [outer_b, outer_e): returns 1 if a macro
 * invocation hides where the cast goes, and marks it for expansion. */
int gp_macro_hides_cast(gp_conv *c, void *p_, CXFile f, unsigned begin, unsigned end, unsigned outer_b,
                        unsigned outer_e)
{
    pass *p = p_;
    unsigned mb, me; /* the invocation's extent */
    CXCursor found = gp_macro_expansion_at(c, f, begin, &mb, &me);
    if (clang_Cursor_isNull(found)) return 0;
    /* the whole invocation is the expression, inside a larger one: the
     * cast goes around it (an enclosing node whose range is the same, or
     * does not hold the site's, is itself inside the macro) */
    if (begin == mb && end == me && outer_b <= begin && outer_e >= end && (outer_b < begin || outer_e > end))
        return 0;
    CXCursor def = clang_getCursorReferenced(found);
    if (clang_Cursor_isNull(def) || !gp_converted(c, def)) return 0;
    for (int i = 0; i < p->n; i++)
        if (clang_File_isEqual(p->file[i], f) && p->begin[i] == mb) return 1;
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 256;
        CXFile *nf = realloc(p->file, sizeof *nf * (size_t)cap);
        if (nf) p->file = nf;
        unsigned *nb = realloc(p->begin, sizeof *nb * (size_t)cap);
        if (nb) p->begin = nb;
        if (!nf || !nb) return 0;
        p->cap = cap;
    }
    size_t len;
    const char *text = gp_text(c, f, &len);
    char *x = me <= len ? expand(c, def, text + mb, me - mb) : NULL;
    if (!x) return 0;
    p->file[p->n] = f;
    p->begin[p->n] = mb;
    p->n++;
    gp_replace(c, f, mb, me - mb, x);
    free(x);
    p->expanded++;
    return 1;
}

int gp_expand_macros(gp_conv *c)
{
    pass p = {.c = c};
    gp_find_casts_in_macros(c, &p);
    free(p.file);
    free(p.begin);
    return p.expanded;
}
