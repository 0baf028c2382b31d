/* Removing a directory tree (the driver's temporary directory, the
 * converter's mirror directory). Shared by both programs. */
#ifndef GPUMPI_REMOVE_TREE_H
#define GPUMPI_REMOVE_TREE_H

/* Removes dir and everything below it; a missing dir is fine. */
void gp_remove_tree(const char *dir);

#endif
