/* gpumpi-convert: rewrite one C translation unit into CUDA for gpumpi.
 *
 *   gpumpi-convert [compiler flags] input.c -o output.cu
 *
 * The flags are the ones the file is compiled with (-I, -D, -std, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

#ifndef GPUMPI_RUNTIME_INCLUDE
#error "GPUMPI_RUNTIME_INCLUDE must name the runtime's include directory"
#endif

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
    fprintf(to, "usage: gpumpi-convert [compiler flags] input.c -o output.cu\n"
                "Rewrites one C file of an MPI program into CUDA for gpumpi.\n");
}

/* Parse errors in the compiler's own "file:line:col: error: ..." form. */
static int report_parse_errors(CXTranslationUnit tu)
{
    int errors = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
            fprintf(stderr, "%s\n", clang_getCString(s));
            clang_disposeString(s);
            errors++;
        }
        clang_disposeDiagnostic(d);
    }
    return errors;
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
    args[nargs++] = GPUMPI_RUNTIME_INCLUDE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
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
    gp_conv c = {0};
    enum CXErrorCode e = clang_parseTranslationUnit2(index, input, args, nargs, NULL, 0,
                                                     CXTranslationUnit_DetailedPreprocessingRecord, &c.tu);
    if (e != CXError_Success) {
        fprintf(stderr, "%s: error: cannot parse this file (libclang error %d); does it exist?\n", input, (int)e);
        return 1;
    }
    if (report_parse_errors(c.tu)) return 1;
    c.main_file = clang_getFile(c.tu, input);
    c.rw = clang_CXRewriter_create(c.tu);

    /* errors and warnings point at the user's file, not the .cu */
    char line[4096];
    snprintf(line, sizeof line, "#line 1 \"%s\"\n", input);
    clang_CXRewriter_insertTextBefore(c.rw, clang_getLocationForOffset(c.tu, c.main_file, 0), line);

    gp_rewrite_includes(&c);
    gp_rewrite_functions(&c);
    gp_rewrite_globals(&c); /* after functions: moved statics go before a function's __device__ */
    int rc = c.errors ? 1 : gp_write_output(&c, output);

    free(c.prefixed);
    clang_CXRewriter_dispose(c.rw);
    clang_disposeTranslationUnit(c.tu);
    clang_disposeIndex(index);
    free(args);
    return rc;
}
