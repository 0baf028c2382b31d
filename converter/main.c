/* gpumpi-convert: rewrite one C translation unit into CUDA for gpumpi.
 *
 *   gpumpi-convert [compiler flags] input.c -o output.cu
 *
 * The flags are the ones the file is compiled with (-I, -D, -std, ...).
 * The user's own headers are converted too, into output.cu.d/. */
#define _XOPEN_SOURCE 700
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "locations.h"
#include "mirror.h"


static int takes_value(const char *a)
{
    static const char *const two[] = {"-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-x",
                                      "-imacros", NULL};
    for (int i = 0; two[i]; i++)
        if (strcmp(a, two[i]) == 0) return 1;
    return 0;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: gpumpi-convert [options] [compiler flags] input.c -o output.cu\n"
                "Rewrites one C file of an MPI program into CUDA for gpumpi.\n"
                "  --keep-going        report every problem in the file, not only the first\n"
                "  --depfile FILE      write the file's dependencies there, as cc -MD does (first line\n"
                "                      '# gpumpi: defines main' if it does)\n"
                "  --dep-target NAME   the target of that rule (default: input with .o)\n"
                "  --dep-phony         add an empty rule for each header, as cc -MP\n");
}

/* out.cu -> /abs/dir/out.cu.d: where the converted headers go. */
static char *mirror_dir_for(const char *output)
{
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", output);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : output;
    if (slash)
        *slash = 0;
    else
        strcpy(dir, ".");
    if (!realpath(dir, real)) snprintf(real, sizeof real, "%s", dir);
    size_t n = strlen(real) + strlen(base) + 4;
    char *m = malloc(n);
    snprintf(m, n, "%s/%s.d", real, base);
    return m;
}

/* Writes every edited copy in the mirror, then the main file to output
 * (through a temporary file, so a failure leaves no partial output). */
static int write_output(gp_conv *c, const char *main_copy, const char *output)
{
    if (clang_CXRewriter_overwriteChangedFiles(c->rw) != 0) {
        fprintf(stderr, "gpumpi-convert: cannot write the converted files under %s\n", c->mirror);
        return 1;
    }
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", output, (int)getpid());
    if (gp_copy_file(main_copy, tmp) != 0 || rename(tmp, output) != 0) {
        fprintf(stderr, "gpumpi-convert: cannot write %s: %s\n", output, strerror(errno));
        unlink(tmp);
        return 1;
    }
    return 0;
}

/* Parse errors in the compiler's own "file:line:col: error: ..." form: the
 * first, or all of them with --keep-going. */
static int keep_going;
static const char *depfile, *dep_target; /* --depfile: make-style dependencies */
static int dep_phony;                     /* --dep-phony: a rule per header, as -MP */

/* Returns 1: the exit status of a file with errors. */
static int failed(int errors, const char *input)
{
    if (errors > 1 && !keep_going)
        fprintf(stderr, "gpumpi-convert: %d more error%s in %s not shown; --keep-going reports every one\n",
                errors - 1, errors > 2 ? "s" : "", input);
    return 1;
}

static int report_parse_errors(CXTranslationUnit tu)
{
    int errors = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && errors++ && !keep_going) {
            /* counted, not shown */
        } else if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
            fprintf(stderr, "%s\n", clang_getCString(s));
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    return errors;
}

/* Objects linked by plain cc or ld instead of gpumpicc: the linker's
 * "undefined reference" then names what to do (the runtime defines it). */
static void append_link_check(gp_conv *c)
{
    size_t size;
    gp_text(c, c->main_file, &size);
    clang_CXRewriter_insertTextBefore(
        c->rw, gp_loc(c, c->main_file, (unsigned)size),
        "\n#ifndef __CUDA_ARCH__\n"
        "extern \"C\" char gpumpi_link_this_object_with_gpumpicc_or_gpumpi_build;\n"
        "__attribute__((used)) static char *const __gp_link_check = &gpumpi_link_this_object_with_gpumpicc_or_gpumpi_build;\n"
        "#endif\n");
}

/* make's view of what the output depends on: the source and the user's
 * headers (the ones converted with it). */
static int write_depfile(const gp_mirror *m, const char *input, int defines_main)
{
    FILE *f = fopen(depfile, "w");
    if (!f) {
        fprintf(stderr, "gpumpi-convert: cannot write %s: %s\n", depfile, strerror(errno));
        return 1;
    }
    if (defines_main) fprintf(f, "# gpumpi: defines main\n");
    char target[PATH_MAX];
    if (dep_target) {
        snprintf(target, sizeof target, "%s", dep_target);
    } else {
        const char *base = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
        snprintf(target, sizeof target, "%s", base);
        char *dot = strrchr(target, '.');
        if (dot) strcpy(dot, ".o");
    }
    fprintf(f, "%s: %s", target, input);
    for (int i = 1; i < m->nfiles; i++) fprintf(f, " \\\n  %s", m->files[i]);
    fprintf(f, "\n");
    for (int i = 1; dep_phony && i < m->nfiles; i++) fprintf(f, "\n%s:\n", m->files[i]);
    return fclose(f) != 0;
}

/* __STDC_VERSION__ as the parse saw it (the last -std wins; clang's
 * default is gnu17), or NULL for C89/C90, which has none. The converted
 * code is compiled as C++, where the macro is undefined: a program's own
 * #if __STDC_VERSION__ >= 199901L (configure's C99/C11 checks, headers
 * choosing inline or restrict) must see the C it was written in. glibc's
 * headers test it only where __cplusplus or GNU C decides first. */
static const char *c_version(const char **args, int nargs)
{
    static const struct {
        const char *std, *version;
    } table[] = {
        {"c89", NULL},           {"c90", NULL},           {"gnu89", NULL},         {"gnu90", NULL},
        {"iso9899:1990", NULL},  {"iso9899:199409", "199409L"},
        {"c99", "199901L"},      {"gnu99", "199901L"},    {"c9x", "199901L"},      {"gnu9x", "199901L"},
        {"iso9899:1999", "199901L"},                      {"iso9899:199x", "199901L"},
        {"c11", "201112L"},      {"gnu11", "201112L"},    {"c1x", "201112L"},      {"gnu1x", "201112L"},
        {"iso9899:2011", "201112L"},
        {"c2x", "202000L"},      {"gnu2x", "202000L"},    {"c23", "202311L"},      {"gnu23", "202311L"},
    };
    const char *std = NULL;
    for (int i = 0; i < nargs; i++)
        if (!strncmp(args[i], "-std=", 5)) std = args[i] + 5;
        else if (!strcmp(args[i], "-ansi")) std = "c90";
    for (size_t i = 0; std && i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(std, table[i].std)) return table[i].version;
    return "201710L"; /* c17, gnu17, c18 and the default */
}

static int mentions_version;

static void find_version_use(gp_conv *c, CXFile f)
{
    size_t len;
    const char *text = gp_text(c, f, &len);
    if (text && memmem(text, len, "__STDC_VERSION__", 16)) mentions_version = 1;
}

/* Writes the edits so far into the copies and parses them again. */
static int reparse(gp_conv *c, CXIndex index, const char *minput, const char **margs, int nargs)
{
    if (clang_CXRewriter_overwriteChangedFiles(c->rw) != 0) return -1;
    clang_CXRewriter_dispose(c->rw);
    gp_loc_forget();
    c->nprefixed = 0; /* places in the old parse */
    clang_disposeTranslationUnit(c->tu);
    enum CXErrorCode e = clang_parseTranslationUnit2(index, minput, margs, nargs, NULL, 0,
                                                     CXTranslationUnit_DetailedPreprocessingRecord, &c->tu);
    if (e != CXError_Success) return -1;
    c->rw = clang_CXRewriter_create(c->tu);
    c->main_file = clang_getFile(c->tu, minput);
    return report_parse_errors(c->tu) ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *input = NULL, *output = NULL;
    const char **args = calloc((size_t)argc + 8, sizeof *args);
    int nargs = 0;
    args[nargs++] = "-x";
    args[nargs++] = "c";
    args[nargs++] = "-w";
    args[nargs++] = "-isystem";
    args[nargs++] = gp_locate()->runtime_include;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--keep-going")) {
            keep_going = 1;
        } else if ((!strcmp(a, "--depfile") || !strcmp(a, "--dep-target")) && i + 1 < argc) {
            *(a[5] == 'f' ? &depfile : &dep_target) = argv[++i];
        } else if (!strcmp(a, "--dep-phony")) {
            dep_phony = 1;
        } else if (!strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gpumpi-convert: -o needs a file name\n");
                return 2;
            }
            output = argv[++i];
        } else if (a[0] == '-') {
            args[nargs++] = a;
            if (takes_value(a) && i + 1 < argc) args[nargs++] = argv[++i];
        } else if (!input) {
            input = a;
        } else {
            fprintf(stderr, "gpumpi-convert: one input file at a time (got %s and %s)\n", input, a);
            return 2;
        }
    }
    if (!input || !output) {
        usage(stderr);
        return 2;
    }

    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu;
    enum CXErrorCode e = clang_parseTranslationUnit2(index, input, args, nargs, NULL, 0,
                                                     CXTranslationUnit_DetailedPreprocessingRecord, &tu);
    if (e != CXError_Success) {
        fprintf(stderr, "%s: error: cannot parse this file (libclang error %d); does it exist?\n", input, (int)e);
        return 1;
    }
    int parse_errors = report_parse_errors(tu);
    if (parse_errors) return failed(parse_errors, input);

    /* Parse again from copies, so the user's headers can be rewritten too. */
    gp_mirror m = {0};
    gp_mirror_collect(&m, tu, input);
    clang_disposeTranslationUnit(tu);
    char *mirror_dir = mirror_dir_for(output);
    if (gp_mirror_create(&m, mirror_dir)) return 1;
    const char **margs = gp_mirror_flags(&m, args, nargs);
    char *minput = gp_mirror_path(&m, input);
    gp_conv c = {0};
    c.keep_going = keep_going;
    c.mirror = m.dir;
    c.input = input;
    e = clang_parseTranslationUnit2(index, minput, margs, nargs, NULL, 0, CXTranslationUnit_DetailedPreprocessingRecord,
                                    &c.tu);
    if (e != CXError_Success || report_parse_errors(c.tu)) {
        fprintf(stderr, "%s: error: the copy in %s does not parse like the original\n", input, m.dir);
        gp_mirror_remove(&m);
        return 1;
    }
    c.main_file = clang_getFile(c.tu, minput);
    c.rw = clang_CXRewriter_create(c.tu);

    /* C made easier to convert, still C, parsed again after each step: the
     * other passes see the code as it will be compiled. Designators first:
     * a static local moved whole carries its initializer as it is then.
     * Macros hiding a cast are expanded first, a level a round, until a
     * round finds none (MPICH's coll/allred nests five: three rounds left
     * casts around whole statement macros); the bound is only a guard. */
    int (*const normalize[])(gp_conv *) = {gp_expand_macros, gp_rewrite_enum_steps, gp_rewrite_designators,
                                            gp_hoist_locals};
    enum { GP_MACRO_ROUNDS = 64 };
    for (size_t i = 0, round = 0; i < sizeof normalize / sizeof normalize[0] && !c.errors; i++) {
        int changed = normalize[i](&c) > 0;
        if (normalize[i] == gp_expand_macros && changed && ++round < GP_MACRO_ROUNDS) i--; /* again after the reparse */
        if (changed && !c.errors && reparse(&c, index, minput, margs, nargs) != 0) {
            fprintf(stderr, "%s: error: gpumpi-convert rewrote this file into C that does not parse; please "
                            "report this with the file\n", input);
            gp_mirror_remove(&m);
            return 1;
        }
    }
    if (c.errors) {
        gp_mirror_remove(&m);
        return failed(c.errors, input);
    }

    gp_check_unsupported(&c);
    gp_rewrite_link_probes(&c);
    gp_rewrite_keywords(&c);
    gp_rewrite_volatile(&c); /* first: later insertions at a token's start go before its comment */
    gp_rewrite_float_types(&c);  /* early for the same reason */
    gp_rewrite_const_fields(&c);
    gp_rewrite_errhandlers(&c);
    gp_rewrite_includes(&c);
    gp_rewrite_functions(&c);
    gp_rewrite_globals(&c);
    gp_rewrite_jumps(&c);
    gp_rewrite_casts(&c);   /* after globals: a cast goes around __gpu_global(x) */
    append_link_check(&c);
    /* last, so it comes first: errors and warnings point at the user's
     * files, not the copies */
    const char *version = c_version(args, nargs);
    char version_def[96] = "";
    gp_for_each_converted_file(&c, find_version_use); /* only then: other files stay as they were */
    if (version && mentions_version)
        snprintf(version_def, sizeof version_def, "#ifndef __STDC_VERSION__\n#define __STDC_VERSION__ %s\n#endif\n",
                 version);
    for (int i = 0; i < m.nfiles; i++) {
        char *copy = gp_mirror_path(&m, m.files[i]);
        CXFile f = clang_getFile(c.tu, copy);
        char line[4400];
        snprintf(line, sizeof line, "%s%s%s%s#line 1 \"%s\"\n", i == 0 ? version_def : "",
                 i == 0 && c.prelude_first ? "#include <gpumpi/shim_prelude.h>\n" : "",
                 i == 0 && c.has_globals ? "#include <gpumpi/converted.h>\n" : "",
                 c.complex_classes ? "#include <gpumpi/shim_complex.h>\n" : "", i == 0 ? input : m.files[i]);
        if (f) clang_CXRewriter_insertTextBefore(c.rw, clang_getLocationForOffset(c.tu, f, 0), line);
        free(copy);
    }
    int rc = c.errors ? failed(c.errors, input) : write_output(&c, minput, output);
    if (!rc && depfile) rc = write_depfile(&m, input, c.main_params >= 0);
    if (rc) gp_mirror_remove(&m);

    free(c.prefixed);
    clang_CXRewriter_dispose(c.rw);
    clang_disposeTranslationUnit(c.tu);
    clang_disposeIndex(index);
    free(args);
    return rc;
}
