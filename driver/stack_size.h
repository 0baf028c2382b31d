/* The stack a rank needs, measured when gpumpicc links a GPU program. */
#ifndef GPUMPI_STACK_SIZE_H
#define GPUMPI_STACK_SIZE_H

/* Reads nvlink's verbose report in link_log (the link ran with -Xnvlink -v)
 * for the rank kernel's stack and writes it into the linked program `exe`
 * (the launcher's gpumpi_build_stack_info), flagging recursion or calls
 * through pointers, where nvlink's figure is only a floor. Returns 0, or -1
 * after a message. With verbose, says what it found. */
int gp_embed_stack_size(const char *link_log, const char *exe, int verbose);

/* Copies the link log to stderr without nvlink's information lines (and the
 * stack-size warning gp_embed_stack_size handles). */
void gp_copy_link_log(const char *link_log);

#endif
