/* The mirror directory (see mirror.h). */
#define _XOPEN_SOURCE 700
#include "mirror.h"
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void add_file(gp_mirror *m, const char *path)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    for (int i = 0; i < m->nfiles; i++)
        if (strcmp(m->files[i], real) == 0) return;
    m->files = realloc(m->files, sizeof *m->files * (size_t)(m->nfiles + 1));
    m->files[m->nfiles++] = strdup(real);
}

typedef struct {
    gp_mirror *m;
    CXTranslationUnit tu;
} collect_ctx;

static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    collect_ctx *x = data;
    if (depth == 0) return; /* the main file itself */
    /* a header from a system directory is served by the libc-shim instead */
    if (clang_Location_isInSystemHeader(clang_getLocation(x->tu, file, 1, 1))) return;
    CXString name = clang_getFileName(file);
    add_file(x->m, clang_getCString(name));
    clang_disposeString(name);
}

void gp_mirror_collect(gp_mirror *m, CXTranslationUnit tu, const char *main_path)
{
    collect_ctx x = {m, tu};
    add_file(m, main_path);
    clang_getInclusions(tu, visit_inclusion, &x);
}

char *gp_mirror_path(const gp_mirror *m, const char *original)
{
    char real[PATH_MAX];
    if (!realpath(original, real)) snprintf(real, sizeof real, "%s", original);
    size_t n = strlen(m->dir) + strlen(real) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s%s", m->dir, real);
    return p;
}

int gp_copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = NULL;
    char *dir = strdup(to), *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    int rc = !in || (slash && gp_make_dirs(dir)) || !(out = fopen(to, "wb"));
    char buf[65536];
    size_t n;
    while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0) rc = fwrite(buf, 1, n, out) != n;
    if (in) fclose(in);
    if (out && fclose(out)) rc = 1;
    free(dir);
    return rc;
}

void gp_mirror_remove(const gp_mirror *m)
{
    if (m->dir) gp_remove_tree(m->dir);
}

int gp_mirror_create(gp_mirror *m, const char *dir)
{
    m->dir = strdup(dir);
    gp_mirror_remove(m);
    for (int i = 0; i < m->nfiles; i++) {
        char *to = gp_mirror_path(m, m->files[i]);
        int bad = gp_copy_file(m->files[i], to);
        if (bad) fprintf(stderr, "gpumpi-convert: cannot copy %s to %s: %s\n", m->files[i], to, strerror(errno));
        free(to);
        if (bad) return 1;
    }
    return 0;
}

const char **gp_mirror_flags(const gp_mirror *m, const char **args, int nargs)
{
    static const char *const dir_flags[] = {"-I", "-iquote", "-idirafter", NULL};
    const char **out = calloc((size_t)nargs + 1, sizeof *out);
    for (int i = 0; i < nargs; i++) {
        out[i] = args[i];
        for (int k = 0; dir_flags[k]; k++) {
            size_t fl = strlen(dir_flags[k]);
            if (strncmp(args[i], dir_flags[k], fl) != 0) continue;
            int joined = args[i][fl] != 0;
            if (!joined && i + 1 >= nargs) break;
            const char *dir = joined ? args[i] + fl : args[i + 1];
            char *copy = gp_mirror_path(m, dir);
            struct stat st;
            int mirrored = stat(copy, &st) == 0 && S_ISDIR(st.st_mode);
            if (joined) {
                size_t n = fl + strlen(copy) + 1;
                char *a = malloc(n);
                snprintf(a, n, "%s%s", dir_flags[k], copy);
                out[i] = mirrored ? a : args[i];
                if (!mirrored) free(a);
            } else {
                out[i + 1] = mirrored ? copy : args[i + 1];
                i++;
            }
            if (!mirrored || joined) free(copy);
            break;
        }
    }
    return out;
}
