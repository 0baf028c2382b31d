/* Per-rank storage for globals, static locals and __thread variables.
 *
 * Each such variable x becomes a template __gp_tmpl_x (its initial value, a
 * __device__ variable) plus an offset __gp_off_x, and each use of x becomes
 * __gpu_global(x): the rank's own copy (see runtime/include/gpumpi/globals.h).
 * Initializers keep their meaning per rank: inside an initializer a global
 * names its template, and the runtime moves such pointers into each rank's
 * block. Static locals reach here moved to file scope (hoist_locals.c).
 * const variables whose initializers take no global's address stay shared.
 * The file registers the variables it defines from a host constructor.
 * __thread and _Thread_local are defined away by gpumpi/converted.h: every
 * rank has its own copy of every such variable anyway. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

typedef struct gvar {
    char *usr;       /* identity across redeclarations */
    char *name;      /* the name in __gpu_global(name) */
    int per_rank;    /* else a const shared by all ranks */
    int internal;    /* internal linkage (static) */
    int defined;     /* this file defines it (2) or has a tentative definition (1): register it */
    unsigned def_off;/* the declaration that defines it */
    int relocate;    /* its initializer takes the address of a per-rank variable */
    int libc;        /* getopt's optarg, optind, opterr or optopt declared by the program itself
                      * (extern char *optarg;): the C library's, behind the libc-shim's accessor */
} gvar;

/* The C library's variables a program may declare itself: the libc-shim
 * keeps each per rank behind its accessor gp_NAME_location()
 * (gpumpi/shim_unistd.h). Its declaration, or NULL for other names. */
static const char *libc_var_decl(const char *name)
{
    static const char *const vars[][2] = {{"optarg", "GPUMPI_FN char **gp_optarg_location(void);"},
                                          {"optind", "GPUMPI_FN int *gp_optind_location(void);"},
                                          {"opterr", "GPUMPI_FN int *gp_opterr_location(void);"},
                                          {"optopt", "GPUMPI_FN int *gp_optopt_location(void);"}};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (!strcmp(name, vars[i][0])) return vars[i][1];
    return NULL;
}

typedef struct pass {
    gp_conv *c;
    gvar *vars;
    int nvars, capvars;
    unsigned stmt_start; /* start of the file-scope declaration statement being read */
    int changed;         /* promote_consts changed something */
} pass;

static char *usr_of(CXCursor cur)
{
    CXString s = clang_getCursorUSR(clang_getCanonicalCursor(cur));
    char *u = strdup(clang_getCString(s));
    clang_disposeString(s);
    return u;
}


static gvar *find_var(pass *p, CXCursor decl)
{
    char *u = usr_of(decl);
    gvar *found = NULL;
    for (int i = 0; i < p->nvars && !found; i++)
        if (strcmp(p->vars[i].usr, u) == 0) found = &p->vars[i];
    free(u);
    return found;
}

static gvar *add_var(pass *p, CXCursor decl)
{
    gvar *v = find_var(p, decl);
    if (v) return v;
    if (p->nvars == p->capvars) {
        p->capvars = p->capvars ? p->capvars * 2 : 32;
        p->vars = realloc(p->vars, sizeof *p->vars * (size_t)p->capvars);
    }
    v = &p->vars[p->nvars++];
    memset(v, 0, sizeof *v);
    v->usr = usr_of(decl);
    return v;
}

static int is_file_scope(CXCursor cur)
{
    return clang_getCursorKind(clang_getCursorLexicalParent(cur)) == CXCursor_TranslationUnit;
}

static int is_tls(CXCursor cur) { return clang_getCursorTLSKind(cur) != CXTLS_None; }


/* ---- collect: which variables need per-rank storage ------------------- */

static enum CXChildVisitResult find_refs(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    pass *p = ((void **)data)[0];
    int *hit = ((void **)data)[1];
    if (clang_getCursorKind(cur) == CXCursor_DeclRefExpr) {
        gvar *v = find_var(p, clang_getCursorReferenced(cur));
        if (v && v->per_rank) *hit = 1;
    }
    return CXChildVisit_Recurse;
}

static int init_takes_global(pass *p, CXCursor var)
{
    int hit = 0;
    void *data[2] = {p, &hit};
    clang_visitChildren(var, find_refs, data);
    return hit;
}

static enum CXChildVisitResult collect(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    pass *p = data;
    gp_conv *c = p->c;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    if (clang_getCursorKind(cur) != CXCursor_VarDecl) return CXChildVisit_Recurse;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(cur);
    /* statics in functions were moved to file scope, but for constants of a
     * type declared in the function: those stay, shared */
    if (!is_file_scope(cur)) return CXChildVisit_Continue;
    gvar *v = add_var(p, cur);
    if (!v->name) v->name = gp_spelling(cur);
    v->per_rank = is_tls(cur) || !gp_elements_const(cur);
    v->internal = clang_getCursorLinkage(cur) == CXLinkage_Internal;
    if (sc == CX_SC_Extern && clang_Cursor_isNull(clang_getCursorDefinition(cur)) && libc_var_decl(v->name)) {
        v->libc = 1;
        v->per_rank = 0;
        return CXChildVisit_Continue;
    }
    /* int x; int x; defines x once (a tentative definition): the first one */
    unsigned off = gp_offset(clang_getCursorLocation(cur));
    if (clang_isCursorDefinition(cur)) {
        v->defined = 2;
        v->def_off = off;
    } else if (sc != CX_SC_Extern && !v->defined) {
        v->defined = 1;
        v->def_off = off;
    }
    return CXChildVisit_Continue;
}

/* const T *const table[] = {&counter}: shared only if it points at nothing
 * per-rank. Repeated until nothing changes (a const may point at another). */
static enum CXChildVisitResult promote_consts(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    pass *p = data;
    if (clang_getCursorKind(cur) != CXCursor_VarDecl || !gp_converted(p->c, cur)) return CXChildVisit_Continue;
    gvar *v = find_var(p, cur);
    if (v && !v->per_rank && init_takes_global(p, cur)) {
        v->per_rank = 1;
        p->changed = 1;
    }
    return CXChildVisit_Continue;
}

/* ---- edit ------------------------------------------------------------- */


/* Where a use of a variable is written, or 0 if a macro body hides it. */
static int written_at(pass *p, CXCursor ref, const char *name, CXFile *f, unsigned *off)
{
    clang_getSpellingLocation(clang_getCursorLocation(ref), f, NULL, NULL, off);
    size_t n = strlen(name), len;
    const char *src = *f ? gp_text(p->c, *f, &len) : NULL;
    return src && *off + n <= len && strncmp(src + *off, name, n) == 0 &&
           !(isalnum((unsigned char)src[*off + n]) || src[*off + n] == '_');
}

typedef struct {
    pass *p;
    int in_template;  /* inside a global's initializer: refer to templates */
    int in_consts;    /* ... of an array of constants */
} ref_ctx;

/* An array of constants (libclang may put the elements' const on the
 * array type itself, at any level)? */
static int array_of_consts(CXType t)
{
    t = clang_getCanonicalType(t);
    int arrays = 0, consts = 0;
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
        consts |= clang_isConstQualifiedType(t);
        t = clang_getCanonicalType(clang_getArrayElementType(t));
        arrays++;
    }
    return arrays && (consts || clang_isConstQualifiedType(t));
}

/* A global named in a macro's body (#define BUMP() counter++): the #define
 * itself is rewritten, once, so every expansion reaches the rank's copy.
 * Returns 0 if the name is not in that macro's own body. */
static int rewrite_in_macro_body(pass *p, CXCursor ref, const char *name)
{
    gp_conv *c = p->c;
    CXFile file;
    unsigned offset;
    clang_getExpansionLocation(clang_getCursorLocation(ref), &file, NULL, NULL, &offset);
    CXCursor found = gp_macro_expansion_at(c, file, offset, NULL, NULL);
    if (clang_Cursor_isNull(found)) return 0;
    CXCursor def = clang_getCursorReferenced(found);
    if (clang_Cursor_isNull(def) || !gp_converted(c, def)) return 0;
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(def), &toks, &n);
    int rewrote = 0;
    for (unsigned i = 1; i < n; i++) { /* token 0 is the macro's name */
        CXString s = clang_getTokenSpelling(c->tu, toks[i]), prev = clang_getTokenSpelling(c->tu, toks[i - 1]);
        int hit = clang_getTokenKind(toks[i]) == CXToken_Identifier && !strcmp(clang_getCString(s), name) &&
                  strcmp(clang_getCString(prev), ".") && strcmp(clang_getCString(prev), "->");
        clang_disposeString(s);
        clang_disposeString(prev);
        if (!hit) continue;
        CXFile f;
        unsigned off;
        clang_getSpellingLocation(clang_getTokenLocation(c->tu, toks[i]), &f, NULL, NULL, &off);
        rewrote = 1;
        if (!gp_prefix_once(c, f, off, "__gpu_global(")) continue; /* done for an earlier expansion */
        clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off + (unsigned)strlen(name)), ")");
    }
    clang_disposeTokens(c->tu, toks, n);
    return rewrote;
}

/* A variable of libc_var_decl's, as a system header declares it. */
static int is_system_libc_var(gp_conv *c, CXCursor d)
{
    if (clang_getCursorKind(d) != CXCursor_VarDecl || gp_converted(c, d) || !is_file_scope(d)) return 0;
    char *n = gp_spelling(d);
    int yes = libc_var_decl(n) != NULL;
    free(n);
    return yes;
}

static void rewrite_ref(ref_ctx *x, CXCursor ref)
{
    pass *p = x->p;
    CXCursor d = clang_getCursorReferenced(ref);
    gvar *v = find_var(p, d);
    /* the C library's optarg as <unistd.h> or <getopt.h> declares it */
    int libc = v ? v->libc : is_system_libc_var(p->c, d);
    if (!libc && (!v || !v->per_rank)) return;
    char *name = gp_spelling(ref);
    unsigned off;
    CXFile f;
    if (libc) { /* optarg -> (*gp_optarg_location()), by insertions around the name */
        if (written_at(p, ref, name, &f, &off) && gp_prefix_once(p->c, f, off, "(*gp_"))
            clang_CXRewriter_insertTextBefore(p->c->rw, gp_loc(p->c, f, off + (unsigned)strlen(name)), "_location())");
        free(name);
        return;
    }
    if (!written_at(p, ref, name, &f, &off)) {
        if (!x->in_template && rewrite_in_macro_body(p, ref, name)) {
            free(name);
            return;
        }
        gp_error_at(p->c, clang_getCursorLocation(ref),
                    "global '%s' is used inside a macro body; gpumpi-convert cannot give it per-rank storage "
                    "there yet (pass it to the macro as an argument, or use a function)",
                    name);
        free(name);
        return;
    }
    /* insertions only, never a replacement: the casts pass inserts around
     * the same token later, and a replacement would swallow that. Once per
     * place: a macro may expand one argument twice. */
    if (gp_prefix_once(p->c, f, off, x->in_template ? "__gp_tmpl_" : "__gpu_global(") && !x->in_template)
        clang_CXRewriter_insertTextBefore(p->c->rw, gp_loc(p->c, f, off + (unsigned)strlen(name)), ")");
    free(name);
}


static char *text_of(gp_conv *c, CXCursor e)
{
    CXSourceRange ext = clang_getCursorExtent(e);
    CXFile f;
    unsigned b, en;
    size_t len;
    clang_getExpansionLocation(clang_getRangeStart(ext), &f, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &en);
    const char *src = gp_text(c, f, &len);
    if (!src || en < b || en > len) return strdup("0");
    char *t = malloc(en - b + 1);
    memcpy(t, src + b, en - b);
    t[en - b] = 0;
    return t;
}

/* &a[i][j][k] of a per-rank array in an initializer becomes
 * (&__gp_tmpl_a[0][0][0] + ((i) * D1 + (j)) * D2 + (k)): nvcc's constant
 * evaluator refuses the address of an element with more than one non-zero
 * subscript in a __device__ variable's initializer ("dynamic initialization
 * is not supported"), but takes the flat form. Returns 1 if it rewrote. */
static int flatten_element_address(ref_ctx *x, CXCursor op)
{
    pass *p = x->p;
    gp_conv *c = p->c;
    if (!gp_first_token_is(c, op, "&")) return 0;
    CXCursor e;
    if (gp_children(op, &e, 1) < 1) return 0;
    char *idx[16];
    int depth = 0;
    while (!clang_Cursor_isNull(e) && clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr && depth < 16) {
        CXCursor sub[2];
        if (gp_children(e, sub, 2) != 2) break;
        idx[depth++] = text_of(c, sub[1]);
        e = sub[0];
        /* the base may sit under an implicit array-to-pointer conversion */
        while (clang_getCursorKind(e) == CXCursor_UnexposedExpr)
            if (gp_children(e, &e, 1) < 1) break;
    }
    gvar *v = NULL;
    if (depth >= 2 && !clang_Cursor_isNull(e) && clang_getCursorKind(e) == CXCursor_DeclRefExpr)
        v = find_var(p, clang_getCursorReferenced(e));
    CXType t = v ? clang_getCanonicalType(clang_getCursorType(clang_getCursorReferenced(e))) : (CXType){0};
    long long dims[16];
    int ndims = 0, consts = v && array_of_consts(t);
    while (v && ndims < 16 && t.kind == CXType_ConstantArray) {
        dims[ndims++] = clang_getArraySize(t);
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    /* nvcc 13's constant evaluator refuses many element addresses
     * (&a[0][j][k], &a[i][0][7], ...) in a device variable's initializer and
     * takes the flat form &a[0][0][0] + offset, except around arrays of
     * constants: it refuses the flat form past the first row of one, and
     * an array of constants initialized with flat forms makes every address
     * into it a run-time value. There only &a[0]... is written flat. */
    int zero_first = depth > 0 && !strcmp(idx[depth - 1], "0");
    int ok = v && v->per_rank && ndims == depth && (zero_first || !(consts || x->in_consts));
    if (ok) {
        /* idx[] is innermost first: a[i][j][k] gave k, j, i */
        char flat[8192], zeros[64] = "";
        snprintf(flat, sizeof flat, "(%s)", idx[depth - 1]);
        for (int d = depth - 2; d >= 0; d--) {
            char next[8192 + 64];
            snprintf(next, sizeof next, "(%s * %lld + (%s))", flat, dims[depth - 1 - d], idx[d]);
            snprintf(flat, sizeof flat, "%s", next);
        }
        for (int d = 0; d < depth; d++) strcat(zeros, "[0]");
        char text[8192 + 256];
        snprintf(text, sizeof text, "(&__gp_tmpl_%s%s + %s)", v->name, zeros, flat);
        CXSourceRange ext = clang_getCursorExtent(op);
        CXFile f;
        unsigned b, en;
        clang_getExpansionLocation(clang_getRangeStart(ext), &f, NULL, NULL, &b);
        clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &en);
        gp_replace(c, f, b, en - b, text);
    }
    for (int d = 0; d < depth; d++) free(idx[d]);
    return ok;
}

static enum CXChildVisitResult refs_in(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    ref_ctx *x = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_UnaryOperator && x->in_template && flatten_element_address(x, cur)) return CXChildVisit_Continue;
    if (k == CXCursor_DeclRefExpr) rewrite_ref(data, cur);
    return CXChildVisit_Recurse;
}

/* nvcc 13 stops with an internal compiler error ("initialization of
 * bit-field in union not supported!") on a __device__ variable whose
 * initializer sets a bit-field inside a union. */
typedef struct {
    int depth;
    int found;
    int seen; /* fields visited so far in this record */
} bf_ctx;

static int type_has_union_bitfield(CXType t, int depth);

static enum CXVisitorResult bf_field(CXCursor field, CXClientData data)
{
    bf_ctx *x = data;
    CXCursor rec = clang_getCursorSemanticParent(field);
    /* C initializes a union through its first member: only that one counts */
    int is_union = clang_getCursorKind(rec) == CXCursor_UnionDecl;
    if (is_union && x->seen++ > 0) return CXVisit_Break;
    if (is_union && clang_Cursor_isBitField(field)) x->found = 1;
    if (!x->found && type_has_union_bitfield(clang_getCursorType(field), x->depth + 1)) x->found = 1;
    return x->found ? CXVisit_Break : CXVisit_Continue;
}

static int type_has_union_bitfield(CXType t, int depth)
{
    t = clang_getCanonicalType(t);
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    if (t.kind != CXType_Record || depth > 8) return 0;
    bf_ctx x = {depth, 0, 0};
    clang_Type_visitFields(t, bf_field, &x);
    return x.found;
}

/* The #error nvcc shows instead of crashing; the threads backend builds it. */
static void guard_union_bitfield(gp_conv *c, CXCursor var)
{
    char *name = gp_spelling(var);
    char msg[512];
    snprintf(msg, sizeof msg,
             "global '%s' initializes a bit-field inside a union, which nvcc 13 cannot do in GPU memory (internal "
             "compiler error): set that member at run time, or use a struct",
             name);
    gp_gpu_only_error(c, var, msg);
    free(name);
}

/* Does the declarator have "= initializer"? (An '=' outside brackets.) */
static int has_initializer(gp_conv *c, CXCursor var)
{
    CXToken *toks;
    unsigned n;
    /* from the name (written out) to the end: a type spelled through a
     * macro (bool) starts the extent inside the macro's header */
    CXFile f;
    unsigned end;
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(var)), &f, NULL, NULL, &end);
    clang_tokenize(c->tu, clang_getRange(clang_getCursorLocation(var), gp_loc(c, f, end)), &toks, &n);
    int depth = 0, found = 0;
    unsigned name = gp_offset(clang_getCursorLocation(var)); /* int a = 1, b: b's extent starts at int */
    for (unsigned i = 0; i < n && !found; i++) {
        if (gp_offset(clang_getTokenLocation(c->tu, toks[i])) < name) continue;
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(s);
        if (!strcmp(t, "[") || !strcmp(t, "(")) depth++;
        if (!strcmp(t, "]") || !strcmp(t, ")")) depth--;
        /* below 0: the parentheses of a declarator around the name,
         * int (*fn)(int) = square */
        found = depth <= 0 && !strcmp(t, "=");
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, toks, n);
    return found;
}

/* The end of a declarator: where " = {}" goes. C zero-initialises a static
 * object without an initializer; C++ refuses to if the type has a const
 * member, unless it is value-initialised from {}. */
static unsigned declarator_end(CXCursor var)
{
    unsigned e;
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(var)), NULL, NULL, NULL, &e);
    return e;
}

/* The start of the statement a file-scope declarator belongs to: in
 * "int a = 1, b;" b's extent starts at b, after a comma. */
static unsigned statement_start(pass *p, CXCursor var)
{
    unsigned start = gp_offset(clang_getRangeStart(clang_getCursorExtent(var)));
    size_t len;
    const char *src = gp_text(p->c, gp_file_of(var), &len);
    long i = (long)start - 1;
    while (i >= 0 && isspace((unsigned char)src[i])) i--;
    if (i >= 0 && src[i] == ',') return p->stmt_start;
    p->stmt_start = start;
    return start;
}

static void edit_file_scope(pass *p, CXCursor var, gvar *v)
{
    gp_conv *c = p->c;
    CXFile file = gp_file_of(var);
    unsigned start = statement_start(p, var);
    char *name = gp_spelling(var);
    unsigned name_off = gp_offset(clang_getCursorLocation(var));
    if (!gp_name_written_out(c, var)) {
        gp_error_at(c, clang_getCursorLocation(var), "global '%s' is declared through a macro; write it out", name);
        free(name);
        return;
    }
    ref_ctx x = {p, 1, array_of_consts(clang_getCursorType(var))};
    if (v->libc) {
        /* extern char *optarg; -> the accessor's declaration, when it
         * declares nothing else */
        size_t len;
        const char *src = gp_text(c, file, &len);
        unsigned end = declarator_end(var);
        while (end < len && (src[end] == ' ' || src[end] == '\t')) end++;
        if (end < len && src[end] == ';' && start < name_off)
            gp_replace(c, file, start, end + 1 - start, libc_var_decl(name));
        else
            gp_error_at(c, clang_getCursorLocation(var),
                        "'%s' is the C library's; declare it alone (extern char *optarg;) or include <unistd.h>", name);
        free(name);
        return;
    }
    if (!v->per_rank) {
        /* shared and read-only: on the device, and external as in C */
        int external_def = clang_getCursorLinkage(var) == CXLinkage_External &&
                           clang_Cursor_getStorageClass(var) == CX_SC_None;
        gp_prefix_once(c, file, start, external_def ? "extern __device__ " : "__device__ ");
        free(name);
        return;
    }
    int declaration_only = !(v->defined && name_off == v->def_off);
    if (!declaration_only && init_takes_global(p, var)) v->relocate = 1;
    clang_visitChildren(var, refs_in, &x);
    /* a second tentative definition must not define the template again;
     * the rewriter puts later insertions at one place before earlier ones,
     * so the prefix goes in first to stay next to the declaration */
    int has_extern = clang_Cursor_getStorageClass(var) == CX_SC_Extern;
    gp_prefix_once(c, file, start, declaration_only && !has_extern && !v->internal ? "extern __device__ " : "__device__ ");
    char text[1400];
    snprintf(text, sizeof text, "%s__device__ size_t __gp_off_%s; ",
             v->internal ? "static " : declaration_only ? "extern " : "", v->name);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, file, start), text);
    if (!declaration_only && has_initializer(c, var) && type_has_union_bitfield(clang_getCursorType(var), 0))
        guard_union_bitfield(c, var);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, file, name_off), "__gp_tmpl_");
    if (!declaration_only && !has_initializer(c, var))
        clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, file, declarator_end(var)), " = {}");
    free(name);
}



static enum CXChildVisitResult edit(CXCursor cur, CXCursor parent, CXClientData data)
{
    pass *p = data;
    gp_conv *c = p->c;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_VarDecl && is_file_scope(cur)) {
        gvar *v = find_var(p, cur);
        if (v) edit_file_scope(p, cur, v);
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_DeclRefExpr) {
        ref_ctx x = {p, 0, 0};
        rewrite_ref(&x, cur);
    }
    (void)parent;
    return CXChildVisit_Recurse;
}


static void emit_registration(pass *p)
{
    gp_conv *c = p->c;
    size_t cap = 4096, n = 0;
    char *out = malloc(cap);
    int count = 0;
    n += (size_t)snprintf(out + n, cap - n,
                          "\n/* gpumpi: this file's per-rank variables, registered before main */\n"
                          "#ifndef __CUDA_ARCH__\n"
                          "static const gp_global_desc __gp_globals_of_this_file[] = {\n");
    for (int i = 0; i < p->nvars; i++) {
        gvar *v = &p->vars[i];
        if (!v->per_rank || !v->defined) continue;
        if (n + 1024 + 3 * strlen(v->name) > cap) out = realloc(out, cap = cap * 2 + 3 * strlen(v->name));
        n += (size_t)snprintf(out + n, cap - n,
                              "    {(const void *)&__gp_tmpl_%s, (const void *)&__gp_off_%s, sizeof(__gp_tmpl_%s), "
                              "alignof(decltype(__gp_tmpl_%s)), %d, \"%s\"},\n",
                              v->name, v->name, v->name, v->name, v->relocate, v->name);
        count++;
    }
    if (n + 512 > cap) out = realloc(out, cap += 512);
    n += (size_t)snprintf(out + n, cap - n,
                          "};\n"
                          "static const int __gp_globals_registered = gp_register_globals(__gp_globals_of_this_file, %d);\n"
                          "#endif\n",
                          count);
    if (count) {
        size_t size;
        gp_text(c, c->main_file, &size);
        clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, c->main_file, (unsigned)size), out);
    }
    free(out);
}

void gp_rewrite_globals(gp_conv *c)
{
    pass p;
    memset(&p, 0, sizeof p);
    p.c = c;
    CXCursor tu = clang_getTranslationUnitCursor(c->tu);
    clang_visitChildren(tu, collect, &p);
    do {
        p.changed = 0;
        clang_visitChildren(tu, promote_consts, &p);
    } while (p.changed);
    clang_visitChildren(tu, edit, &p);
    if (p.nvars) {
        c->has_globals = 1; /* main.c includes gpumpi/converted.h */
        emit_registration(&p);
    }
    for (int i = 0; i < p.nvars; i++) {
        free(p.vars[i].usr);
        free(p.vars[i].name);
    }
    free(p.vars);
}
