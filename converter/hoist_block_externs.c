/* `extern int counter;` inside a function, moved to file scope before the
 * function, before the other passes run.
 *
 * A global is per-rank storage reached through __gpu_global(x), declared at
 * file scope; a block-scope declaration of it has nothing to attach that
 * to. At file scope it names the same object (C has one `counter` with
 * external linkage either way), and it stays on the function's first line,
 * so line numbers do not move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

typedef struct {
    gp_conv *c;
    CXCursor fn;
    int edits;
} hoist;

static int all_extern_vars(CXCursor stmt)
{
    CXCursor kids[64];
    int n = gp_children(stmt, kids, 64);
    if (n < 1 || n > 64) return 0;
    for (int i = 0; i < n; i++)
        if (clang_getCursorKind(kids[i]) != CXCursor_VarDecl || clang_Cursor_getStorageClass(kids[i]) != CX_SC_Extern)
            return 0;
    return 1;
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    hoist *h = data;
    gp_conv *c = h->c;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_FunctionDecl) {
        if (!clang_isCursorDefinition(cur)) return CXChildVisit_Continue;
        h->fn = cur;
        return CXChildVisit_Recurse;
    }
    if (k != CXCursor_DeclStmt || !all_extern_vars(cur)) return CXChildVisit_Recurse;
    CXFile f, ff;
    unsigned b, e, fb, fe;
    if (!gp_extent(cur, &f, &b, &e) || !gp_extent(h->fn, &ff, &fb, &fe) || !clang_File_isEqual(f, ff)) {
        gp_error_at(c, clang_getCursorLocation(cur),
                    "a block-scope extern declaration written through a macro; declare the global at file scope");
        return CXChildVisit_Continue;
    }
    size_t len;
    const char *src = gp_text(c, f, &len);
    while (fb > 0 && src[fb - 1] != '\n') fb--; /* the start of the function's first line */
    char *decl = malloc(e - b + 3);
    snprintf(decl, e - b + 3, "%.*s%s ", (int)(e - b), src + b, src[e - 1] == ';' ? "" : ";");
    clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, fb), decl);
    char *blank = malloc(e - b + 2);
    unsigned n = 0;
    for (unsigned i = b; i < e; i++) /* the lines it took stay */
        if (src[i] == '\n') blank[n++] = '\n';
    blank[n] = 0;
    unsigned end = e < len && src[e] == ';' ? e + 1 : e;
    gp_replace(c, f, b, end - b, blank);
    free(decl);
    free(blank);
    h->edits++;
    return CXChildVisit_Continue;
}

int gp_hoist_block_externs(gp_conv *c)
{
    hoist h = {c, clang_getNullCursor(), 0};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, &h);
    return h.edits;
}
