/* Link errors in the user's terms (see link_errors.c). */
#ifndef GPUMPI_LINK_ERRORS_H
#define GPUMPI_LINK_ERRORS_H

typedef struct {
    char **objects; /* temporary objects gpumpicc compiled ... */
    char **sources; /* ... from these files */
    int n;
} gp_link_names;

/* Reads the linker's output in log_path and prints one line per problem
 * it recognises (duplicate and missing symbols). Returns how many. */
int gp_explain_link_errors(const char *log_path, const gp_link_names *names);

#endif
