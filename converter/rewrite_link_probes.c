/* autoconf's link probes answer as they would for the device.
 *
 * AC_CHECK_FUNCS, AC_CHECK_FUNC, AC_CHECK_LIB and AC_SEARCH_LIBS (and
 * ACX_MPI's AC_CHECK_FUNC(MPI_Init)) declare the function themselves,
 * without a prototype, and link `int main (void) { return f (); }`. Under
 * gpumpi the C library is the device shim under gp_ names, math is CUDA's
 * and MPI is gpumpi's, so the self-declared f would find nothing to link
 * and configure would decide that strdup, sqrt or MPI_Init are missing.
 * Here such a call -- in main's return, with no arguments, of a function
 * declared in the program without a prototype and defined nowhere -- of a
 * function the device provides becomes the value 0 (configure only links
 * the probe); one it does not provide stays and fails to link, so the
 * answer is "no" as it should be. The converted file then reads the
 * host headers first (see rewrite_probe). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "locations.h"

typedef struct {
    char **names;
    size_t n, cap;
} name_set;

static void add_name(name_set *s, const char *name, size_t len)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->names = realloc(s->names, s->cap * sizeof *s->names);
    }
    s->names[s->n++] = strndup(name, len);
}

static int has_name(const name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], name)) return 1;
    return 0;
}

static int ident_char(char ch) { return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'); }

/* Every name a .cuh header #defines (the shim's renames: strdup ->
 * gp_strdup...), as libc-shim/gen_unprovided.py counts them provided. */
static void add_cuh_defines(name_set *s, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".cuh")) {
            if (!strchr(e->d_name, '.')) add_cuh_defines(s, path); /* sys/ */
            continue;
        }
        FILE *f = fopen(path, "r");
        char line[1024];
        while (f && fgets(line, sizeof line, f)) {
            char *p = line;
            while (*p == ' ') p++;
            if (*p++ != '#') continue;
            while (*p == ' ') p++;
            if (strncmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t')) continue;
            for (p += 6; *p == ' ' || *p == '\t'; p++) {}
            size_t k = 0;
            while (ident_char(p[k])) k++;
            if (k) add_name(s, p, k);
        }
        if (f) fclose(f);
    }
    closedir(d);
}

/* The functions gpumpi's mpi.h declares, and the host's <math.h> (CUDA
 * has the device versions), from a parse of a file including both. The
 * MPI functions gpumpi does not provide are declared elsewhere
 * (gpumpi/mpi_unsupported_calls.h) and left out. */
static enum CXChildVisitResult add_decl(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(cur) != CXCursor_FunctionDecl) return CXChildVisit_Continue;
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(cur), &f, NULL, NULL, NULL);
    CXString file = clang_getFileName(f);
    const char *path = clang_getCString(file);
    const char *inc = gp_locate()->runtime_include;
    int mine = path && (!strncmp(path, inc, strlen(inc)) || strstr(path, "math")) && !strstr(path, "mpi_unsupported");
    clang_disposeString(file);
    char *name = gp_spelling(cur);
    if (mine && name[0] != '_') add_name(data, name, strlen(name));
    free(name);
    return CXChildVisit_Continue;
}

static void add_declared(name_set *s)
{
    static const char probe[] = "#include <mpi.h>\n#include <math.h>\n";
    struct CXUnsavedFile file = {"gpumpi_link_probe.c", probe, sizeof probe - 1};
    const char *args[] = {"-x", "c", "-w", "-isystem", gp_locate()->runtime_include};
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu;
    if (clang_parseTranslationUnit2(index, file.Filename, args, 5, &file, 1, CXTranslationUnit_None, &tu) ==
        CXError_Success) {
        clang_visitChildren(clang_getTranslationUnitCursor(tu), add_decl, s);
        clang_disposeTranslationUnit(tu);
    }
    clang_disposeIndex(index);
}

typedef struct {
    gp_conv *c;
    name_set provided;
    int loaded;
} probes;

static int device_provides(probes *p, const char *name)
{
    if (!p->loaded) {
        add_cuh_defines(&p->provided, gp_locate()->shim_include);
        add_cuh_defines(&p->provided, gp_locate()->runtime_include);
        add_declared(&p->provided);
        p->loaded = 1;
    }
    return has_name(&p->provided, name);
}

/* The call under a return, through the implicit casts libclang shows as unexposed. */
static CXCursor returned_call(CXCursor ret)
{
    CXCursor kids[2];
    CXCursor e = ret;
    for (int depth = 0; depth < 4; depth++) {
        if (gp_children(e, kids, 2) != 1) break;
        e = kids[0];
        if (clang_getCursorKind(e) == CXCursor_CallExpr) return e;
        if (clang_getCursorKind(e) != CXCursor_UnexposedExpr) break;
    }
    return clang_getNullCursor();
}

static void rewrite_probe(probes *p, CXCursor ret)
{
    gp_conv *c = p->c;
    CXCursor call = returned_call(ret);
    if (clang_Cursor_isNull(call) || clang_Cursor_getNumArguments(call) != 0) return;
    CXCursor fn = clang_getCursorReferenced(call);
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl || !gp_converted(c, fn)) return;
    if (clang_getCursorType(fn).kind != CXType_FunctionNoProto) return;
    if (!clang_Cursor_isNull(clang_getCursorDefinition(fn))) return;
    char *name = gp_spelling(fn);
    int provided = device_provides(p, name);
    free(name);
    CXFile f;
    unsigned begin, end;
    if (!provided || !gp_extent(call, &f, &begin, &end)) return;
    if (!clang_Cursor_isNull(gp_macro_expansion_at(c, f, begin, NULL, NULL))) return;
    CXString type = clang_getTypeSpelling(clang_getCursorResultType(fn));
    char text[256];
    snprintf(text, sizeof text, "((%s)0)", clang_getCString(type));
    clang_disposeString(type);
    gp_replace(c, f, begin, end - begin, text);
    /* The declaration, a different one from the C library's in C++
     * (char rand () against int rand (void)), goes out of the way; and the
     * host's headers are read before the probe's `#define f innocuous_f`,
     * which would rename what libstdc++ then looks for. */
    if (gp_name_written_out(c, fn)) {
        CXFile df;
        unsigned offset;
        clang_getSpellingLocation(clang_getCursorLocation(fn), &df, NULL, NULL, &offset);
        gp_replace(c, df, offset, 0, "__gp_link_probe_");
    }
    c->prelude_first = 1;
}

static enum CXChildVisitResult visit_body(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(cur) == CXCursor_ReturnStmt) rewrite_probe(data, cur);
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult visit_top(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    probes *p = data;
    if (clang_getCursorKind(cur) != CXCursor_FunctionDecl || !clang_isCursorDefinition(cur) || !gp_converted(p->c, cur))
        return CXChildVisit_Continue;
    char *name = gp_spelling(cur);
    int is_main = !strcmp(name, "main");
    free(name);
    if (is_main) clang_visitChildren(cur, visit_body, p);
    return CXChildVisit_Continue;
}

void gp_rewrite_link_probes(gp_conv *c)
{
    probes p = {c, {0}, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit_top, &p);
    for (size_t i = 0; i < p.provided.n; i++) free(p.provided.names[i]);
    free(p.provided.names);
}
