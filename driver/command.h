/* A command line under construction, and running or showing it. */
#ifndef GPUMPI_COMMAND_H
#define GPUMPI_COMMAND_H

typedef struct gp_cmd {
    char **argv;
    int argc, cap;
} gp_cmd;

void gp_cmd_add(gp_cmd *c, const char *arg);
void gp_cmd_addf(gp_cmd *c, const char *fmt, ...);
void gp_cmd_free(gp_cmd *c);

/* Print as a shell command line (quoted where needed). */
void gp_cmd_print(const gp_cmd *c);

/* Run and wait, its stderr into the file stderr_to unless that is NULL;
 * returns the exit status (127 if it could not start). */
int gp_cmd_run(const gp_cmd *c, const char *stderr_to);

#endif
