/* gpumpi-convert: one C translation unit in, one CUDA file out. Each pass
 * looks at the libclang AST of the main file and records its edits in the
 * CXRewriter; nothing is written unless every pass succeeded. */
#ifndef GPUMPI_CONVERT_H
#define GPUMPI_CONVERT_H

#include <clang-c/Index.h>
#include <clang-c/Rewrite.h>

typedef struct gp_conv {
    CXTranslationUnit tu;
    CXRewriter rw;
    CXFile main_file;
    int errors;          /* user-facing errors reported so far */
    int main_params;     /* parameters of the user's main; -1 if no main */
    int main_returns_void;
    unsigned *prefixed;  /* offsets that already got __device__ (one per statement) */
    size_t nprefixed, capprefixed;
} gp_conv;

/* "file:line:col: error: ..." on stderr, counted in c->errors. */
void gp_error_at(gp_conv *c, CXSourceLocation loc, const char *fmt, ...);

/* Does this cursor come from the main file (directly or through a macro
 * expanded there)? */
int gp_in_main_file(gp_conv *c, CXCursor cur);

/* Is the cursor's name written at its location, so it can be edited in
 * place (not produced by a macro)? */
int gp_name_written_out(gp_conv *c, CXCursor cur);

/* The passes. */
void gp_rewrite_functions(gp_conv *c); /* __device__, main renamed, entry point */
void gp_rewrite_includes(gp_conv *c);  /* <x.h> -> <x.h.cuh> */
void gp_rewrite_globals(gp_conv *c);   /* globals and static locals -> per-rank storage */

/* Insert "__device__ " (or text) at a statement start once, however many
 * declarations share the statement. Returns 1 if it inserted. */
int gp_prefix_once(gp_conv *c, unsigned offset, const char *text);

/* Byte offset of a location in its file (spelling). */
unsigned gp_offset(CXSourceLocation loc);

/* Writes the rewritten main file to path (atomically). 0 on success. */
int gp_write_output(gp_conv *c, const char *path);

#endif
