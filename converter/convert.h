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
    const char *mirror; /* converted copies of the main file and user headers live here */
    const char *input;  /* the main file as the user named it, for messages */
    int errors;          /* user-facing errors found so far */
    int keep_going;      /* --keep-going: print every error, not only the first */
    int main_params;     /* parameters of the user's main; -1 if no main */
    int main_returns_void;
    int has_globals;     /* per-rank variables: the file needs gpumpi/converted.h */
    int complex_classes; /* complex types rewritten without <complex.h>: the files need gpumpi/shim_complex.h */
    int prelude_first;   /* the host's headers must come before the file's own macros (rewrite_link_probes.c) */
    struct gp_place *prefixed; /* statement starts that already got __device__ */
    size_t nprefixed, capprefixed;
} gp_conv;

/* "file:line:col: error: ..." on stderr, counted in c->errors; after the
 * first, only with --keep-going (the rest are counted). */
void gp_error_at(gp_conv *c, CXSourceLocation loc, const char *fmt, ...);

/* Does this cursor come from a file being converted: the main file or one of
 * the user's headers (directly or through a macro expanded there)? */
int gp_converted(gp_conv *c, CXCursor cur);

/* A cursor's name (malloc'd), and whether a variable's type, or its
 * arrays' elements, are const. */
char *gp_spelling(CXCursor cur);
int gp_elements_const(CXCursor var);

/* The file a cursor is expanded in, its text, locations and edits in it. */
CXFile gp_file_of(CXCursor cur);
const char *gp_text(gp_conv *c, CXFile f, size_t *len);
/* Every token of file f, directives included (clang_disposeTokens them); their count. */
unsigned gp_tokenize_file(gp_conv *c, CXFile f, CXToken **toks);
CXSourceLocation gp_loc(gp_conv *c, CXFile f, unsigned offset);
void gp_loc_forget(void); /* before the translation unit is parsed again */
void gp_replace(gp_conv *c, CXFile f, unsigned offset, unsigned len, const char *text);

/* Is the cursor's name written at its location, so it can be edited in
 * place (not produced by a macro)? */
int gp_name_written_out(gp_conv *c, CXCursor cur);

/* The passes. */
void gp_rewrite_functions(gp_conv *c); /* __device__, main renamed, entry point */
void gp_rewrite_includes(gp_conv *c);  /* <x.h> -> <x.h.cuh> */
void gp_rewrite_globals(gp_conv *c);
void gp_rewrite_casts(gp_conv *c);
/* Designated initializers C++ refuses, written out in plain C; returns the
 * number of lists rewritten (the file is parsed again if any). */
int gp_rewrite_designators(gp_conv *c);
int gp_hoist_locals(gp_conv *c); /* static locals and block-scope externs -> file scope; returns edits */
/* Invocations of the user's macros where a cast C++ needs would go inside
 * (expand_macros.c): replaced by their expansion; returns how many (the
 * file is parsed again, and this pass repeated, while any). The casts
 * pass finds them (gp_find_casts_in_macros) and asks gp_macro_hides_cast. */
int gp_expand_macros(gp_conv *c);
int gp_rewrite_enum_steps(gp_conv *c); /* ++/-- on an enum -> an assignment; returns edits */
void gp_find_casts_in_macros(gp_conv *c, void *pass);
int gp_macro_hides_cast(gp_conv *c, void *pass, CXFile f, unsigned begin, unsigned end, unsigned outer_b,
                        unsigned outer_e);
void gp_rewrite_link_probes(gp_conv *c); /* autoconf's `return f ();` link checks of what the device provides */
void gp_check_unsupported(gp_conv *c);  /* setjmp, fork, pthreads, asm, signals: errors */
void gp_rewrite_keywords(gp_conv *c);  /* C identifiers that are C++ keywords: __gp_kw_new */
int gp_is_cxx_keyword(const char *word);
void gp_rewrite_jumps(gp_conv *c);     /* T x = e; -> T x ; x = e; where goto/switch may jump past it */
void gp_rewrite_volatile(gp_conv *c);
void gp_rewrite_errhandlers(gp_conv *c); /* (MPI_Comm *, int *, ...) handlers lose the ... (nvcc bug) */
void gp_rewrite_float_types(gp_conv *c); /* double complex -> gp_cdouble, long double -> gp_ldouble */
void gp_float_type_spelling(char *type, size_t cap); /* the same in a type libclang spelled */
void gp_rewrite_const_fields(gp_conv *c); /* const members lose const (nvcc's host shadows) */  /* volatile commented out (C++ cannot copy volatile structs) */     /* explicit casts where C++ needs them */   /* globals and static locals -> per-rank storage */

/* Insert "__device__ " (or text) at a statement start once, however many
 * declarations share the statement. Returns 1 if it inserted. */
typedef struct gp_place {
    CXFile file;
    unsigned offset;
} gp_place;
int gp_prefix_once(gp_conv *c, CXFile f, unsigned offset, const char *text);

/* Something only the GPU cannot do: an #error for nvcc before the line of
 * `at` (with #line after it, so later lines keep their numbers); the
 * threads backend builds the file as it is. */
void gp_gpu_only_error(gp_conv *c, CXCursor at, const char *message);


/* Up to max children of a cursor, in order; returns how many it has. */
int gp_children(CXCursor parent, CXCursor *out, int max);

/* A cursor's extent in the file it is expanded in: [*begin, *end). Returns 0
 * if it does not lie within one file. */
int gp_extent(CXCursor cur, CXFile *f, unsigned *begin, unsigned *end);

/* The outermost macro expansion holding offset of f, and its extent
 * [*begin, *end) (either may be NULL); a null cursor if none does. */
CXCursor gp_macro_expansion_at(gp_conv *c, CXFile f, unsigned offset, unsigned *begin, unsigned *end);

/* Is the first token of the cursor's extent this text (an operator, say)? */
int gp_first_token_is(gp_conv *c, CXCursor cur, const char *text);

/* Calls fn for every file being converted (the main file and user headers). */
void gp_for_each_converted_file(gp_conv *c, void (*fn)(gp_conv *c, CXFile f));

/* Byte offset of a location in its file (spelling). */
unsigned gp_offset(CXSourceLocation loc);

/* Writes the rewritten main file to path (atomically). 0 on success. */
int gp_write_output(gp_conv *c, const char *path);

#endif
