/* Error reporting for the converter, in the compiler's own format so editors
 * and build logs point at the line. */
#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

void gp_error_at(gp_conv *c, CXSourceLocation loc, const char *fmt, ...)
{
    if (c->errors++ && !c->keep_going) return;
    CXFile file;
    unsigned line, col;
    clang_getSpellingLocation(loc, &file, &line, &col, NULL);
    CXString name = clang_getFileName(file);
    const char *n = clang_getCString(name) ? clang_getCString(name) : "<unknown>";
    /* a copy in the mirror is reported as the user's file */
    if (file && clang_File_isEqual(file, c->main_file))
        n = c->input;
    else if (c->mirror && strncmp(n, c->mirror, strlen(c->mirror)) == 0)
        n += strlen(c->mirror);
    fprintf(stderr, "%s:%u:%u: error: ", n, line, col);
    clang_disposeString(name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

char *gp_spelling(CXCursor cur)
{
    CXString s = clang_getCursorSpelling(cur);
    char *r = strdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

int gp_elements_const(CXCursor var)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(var));
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) t = clang_getArrayElementType(t);
    return clang_isConstQualifiedType(t);
}

CXFile gp_file_of(CXCursor cur)
{
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &f, NULL, NULL, NULL);
    return f;
}

int gp_converted(gp_conv *c, CXCursor cur)
{
    CXFile f = gp_file_of(cur);
    if (!f) return 0;
    CXString name = clang_getFileName(f);
    const char *n = clang_getCString(name);
    int yes = n && strncmp(n, c->mirror, strlen(c->mirror)) == 0 && n[strlen(c->mirror)] == '/';
    clang_disposeString(name);
    return yes;
}

const char *gp_text(gp_conv *c, CXFile f, size_t *len) { return clang_getFileContents(c->tu, f, len); }

unsigned gp_tokenize_file(gp_conv *c, CXFile f, CXToken **toks)
{
    size_t len;
    unsigned n;
    gp_text(c, f, &len);
    clang_tokenize(c->tu, clang_getRange(gp_loc(c, f, 0), gp_loc(c, f, (unsigned)len)), toks, &n);
    return n;
}

/* libclang maps an offset inside a macro argument to the macro expansion,
 * which the rewriter silently refuses to edit; a token's own extent is
 * always in the file. So offsets where a token starts or ends get that
 * location (tokens of each file, lexed once per parse). */
typedef struct gp_token_index {
    CXTranslationUnit tu;
    CXFile file;
    unsigned n;
    unsigned *offsets;
    CXSourceLocation *locs;
} gp_token_index;

static gp_token_index token_index[64];
static int ntoken_index;

static gp_token_index *tokens_of(gp_conv *c, CXFile f)
{
    for (int i = 0; i < ntoken_index; i++)
        if (token_index[i].tu == c->tu && clang_File_isEqual(token_index[i].file, f)) return &token_index[i];
    int slot = ntoken_index < 64 ? ntoken_index++ : 0;
    gp_token_index *t = &token_index[slot];
    free(t->offsets);
    free(t->locs);
    size_t size;
    clang_getFileContents(c->tu, f, &size);
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu,
                   clang_getRange(clang_getLocationForOffset(c->tu, f, 0),
                                  clang_getLocationForOffset(c->tu, f, (unsigned)size)),
                   &toks, &n);
    /* each token's start and end, in order (an end may equal the next start) */
    *t = (gp_token_index){c->tu, f, 2 * n, malloc(sizeof(unsigned) * (2 * n + 1)),
                          malloc(sizeof(CXSourceLocation) * (2 * n + 1))};
    for (unsigned i = 0; i < n; i++) {
        CXSourceRange ext = clang_getTokenExtent(c->tu, toks[i]);
        t->locs[2 * i] = clang_getRangeStart(ext);
        t->locs[2 * i + 1] = clang_getRangeEnd(ext);
        t->offsets[2 * i] = gp_offset(t->locs[2 * i]);
        t->offsets[2 * i + 1] = gp_offset(t->locs[2 * i + 1]);
    }
    clang_disposeTokens(c->tu, toks, n);
    return t;
}

void gp_loc_forget(void)
{
    for (int i = 0; i < ntoken_index; i++) {
        free(token_index[i].offsets);
        free(token_index[i].locs);
        token_index[i] = (gp_token_index){0};
    }
    ntoken_index = 0;
}

CXSourceLocation gp_loc(gp_conv *c, CXFile f, unsigned offset)
{
    gp_token_index *t = tokens_of(c, f);
    unsigned lo = 0, hi = t->n;
    while (lo < hi) { /* the first token boundary at or after offset */
        unsigned mid = (lo + hi) / 2;
        if (t->offsets[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t->n && t->offsets[lo] == offset) return t->locs[lo];
    return clang_getLocationForOffset(c->tu, f, offset);
}

void gp_replace(gp_conv *c, CXFile f, unsigned offset, unsigned len, const char *text)
{
    clang_CXRewriter_replaceText(c->rw, clang_getRange(gp_loc(c, f, offset), gp_loc(c, f, offset + len)), text);
}

int gp_name_written_out(gp_conv *c, CXCursor cur)
{
    unsigned off;
    size_t size;
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &f, NULL, NULL, &off);
    const char *src = gp_text(c, f, &size);
    CXString name = clang_getCursorSpelling(cur);
    const char *n = clang_getCString(name);
    size_t len = strlen(n);
    int ok = src && off + len <= size && strncmp(src + off, n, len) == 0 &&
             (off + len == size || !(isalnum((unsigned char)src[off + len]) || src[off + len] == '_'));
    clang_disposeString(name);
    return ok;
}


void gp_gpu_only_error(gp_conv *c, CXCursor at, const char *message)
{
    CXFile f;
    unsigned line, off;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(at)), &f, &line, NULL, &off);
    size_t len;
    const char *src = gp_text(c, f, &len);
    while (off > 0 && src[off - 1] != '\n') off--; /* the start of its line */
    CXString fname = clang_getFileName(f);
    const char *shown = clang_File_isEqual(f, c->main_file) ? c->input : clang_getCString(fname) + strlen(c->mirror);
    size_t n = strlen(message) + strlen(shown) + 128;
    char *text = malloc(n);
    /* leading newline: later passes may insert text at the same place, before this */
    snprintf(text, n, "\n#ifdef __CUDACC__\n#error \"%s\"\n#endif\n#line %u \"%s\"\n", message, line, shown);
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), text);
    free(text);
    clang_disposeString(fname);
}

typedef struct {
    CXCursor *out;
    int max, n;
} children_ctx;

static enum CXChildVisitResult collect_child(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    children_ctx *x = data;
    if (x->n < x->max) x->out[x->n] = cur;
    x->n++;
    return CXChildVisit_Continue;
}

int gp_children(CXCursor parent, CXCursor *out, int max)
{
    children_ctx x = {out, max, 0};
    clang_visitChildren(parent, collect_child, &x);
    return x.n;
}

int gp_extent(CXCursor cur, CXFile *f, unsigned *begin, unsigned *end)
{
    CXSourceRange ext = clang_getCursorExtent(cur);
    CXFile fe;
    clang_getExpansionLocation(clang_getRangeStart(ext), f, NULL, NULL, begin);
    clang_getExpansionLocation(clang_getRangeEnd(ext), &fe, NULL, NULL, end);
    return *f && fe && clang_File_isEqual(*f, fe) && *end >= *begin;
}

/* libclang 14 reports a macro body's tokens at the expansion, not in the
 * #define, so the macro behind a place is found among the translation
 * unit's expansions. They come in source order, and one written inside
 * another's arguments starts after it: the first that holds the place is
 * the outermost. */
typedef struct {
    CXFile file;
    unsigned offset;
    CXCursor found;
    unsigned begin, end;
} macro_find;

static enum CXChildVisitResult find_expansion(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    macro_find *m = data;
    if (clang_getCursorKind(cur) != CXCursor_MacroExpansion) return CXChildVisit_Continue;
    CXFile f;
    unsigned b, e;
    if (gp_extent(cur, &f, &b, &e) && clang_File_isEqual(f, m->file) && m->offset >= b && m->offset < e) {
        m->found = cur;
        m->begin = b;
        m->end = e;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

CXCursor gp_macro_expansion_at(gp_conv *c, CXFile f, unsigned offset, unsigned *begin, unsigned *end)
{
    macro_find m = {f, offset, clang_getNullCursor(), 0, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), find_expansion, &m);
    if (begin) *begin = m.begin;
    if (end) *end = m.end;
    return m.found;
}

typedef struct {
    gp_conv *c;
    void (*fn)(gp_conv *c, CXFile f);
} each_file_ctx;

static void each_file(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    (void)depth;
    each_file_ctx *x = data;
    CXString name = clang_getFileName(f);
    const char *n = clang_getCString(name);
    int ours = n && strncmp(n, x->c->mirror, strlen(x->c->mirror)) == 0;
    clang_disposeString(name);
    if (ours) x->fn(x->c, f);
}

void gp_for_each_converted_file(gp_conv *c, void (*fn)(gp_conv *c, CXFile f))
{
    each_file_ctx x = {c, fn};
    clang_getInclusions(c->tu, each_file, &x);
}

int gp_first_token_is(gp_conv *c, CXCursor cur, const char *text)
{
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(cur), &toks, &n);
    int yes = 0;
    if (n > 0) {
        CXString s = clang_getTokenSpelling(c->tu, toks[0]);
        yes = !strcmp(clang_getCString(s), text);
        clang_disposeString(s);
    }
    clang_disposeTokens(c->tu, toks, n);
    return yes;
}
