/* Files and paths, shared by gpumpicc, gpumpi-build and gpumpi-convert. */
#ifndef GPUMPI_PATHS_H
#define GPUMPI_PATHS_H

/* Removes dir and everything below it; a missing dir is fine. */
void gp_remove_tree(const char *dir);

/* mkdir -p: 0 on success (also when it exists). */
int gp_make_dirs(const char *dir);

/* Does s end with suffix? */
int gp_has_suffix(const char *s, const char *suffix);

#endif
