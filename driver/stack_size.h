/* The stack a rank needs, measured when gpumpicc builds a GPU program.
 *
 * Compiling: ptxas -v reports each function's stack frame; gpumpicc keeps
 * the table in the object (an ELF section, .gpumpi_frames). Linking:
 * nvlink's call graph (--dump-callgraph) gives who calls whom; the deepest
 * chain of the program's own frames from the rank kernel is the figure,
 * written into the program where the launcher reads it. Frames of the
 * runtime (not in the table) are the launcher's fixed allowance. */
#ifndef GPUMPI_STACK_SIZE_H
#define GPUMPI_STACK_SIZE_H

/* Is this line of a compile or link log build information that gpumpicc
 * reads (ptxas -v, nvlink -v, the call graph) rather than a message? */
int gp_is_build_info_line(const char *line);

/* Reads ptxas -v's frames from compile_log and stores them in object obj.
 * Best effort: returns 0 even when it stored nothing. */
int gp_store_frames(const char *compile_log, const char *obj, const char *tmpdir);

/* After a link whose log has nvlink's call graph: the deepest chain of the
 * objects' frames from the rank kernel, written into exe. Returns 0, or -1
 * after a message. With verbose, says what it found. */
int gp_embed_stack_size(const char *link_log, const char *exe, char *const *objects, int nobjects, int verbose);

/* Copies the link log to stderr without the build information. */
void gp_copy_link_log(const char *link_log);

#endif
