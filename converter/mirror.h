/* The mirror directory: copies of the main file and the user headers it
 * includes, at their absolute paths under one directory, so the rewriter
 * can edit the copies in place (libclang writes edited files back where
 * they were read from) and never the user's originals. */
#ifndef GPUMPI_MIRROR_H
#define GPUMPI_MIRROR_H

#include <clang-c/Index.h>

typedef struct gp_mirror {
    char *dir;      /* absolute */
    char **files;   /* absolute original paths: the main file first */
    int nfiles;
} gp_mirror;

/* Lists the main file and the non-system headers it includes. */
void gp_mirror_collect(gp_mirror *m, CXTranslationUnit tu, const char *main_path);

/* Creates dir (replacing an old one) and copies every listed file into it.
 * Returns 0, or prints why and returns 1. */
int gp_mirror_create(gp_mirror *m, const char *dir);

/* dir + original path: where a file's copy is (malloc'd). */
char *gp_mirror_path(const gp_mirror *m, const char *original);

/* The compile flags with each -I/-iquote/-idirafter directory that has a
 * copy in the mirror pointed there (a malloc'd array of malloc'd strings). */
const char **gp_mirror_flags(const gp_mirror *m, const char **args, int nargs);

/* Copies a file, making its directory if needed. 0 on success. */
int gp_copy_file(const char *from, const char *to);

/* Removes the mirror directory and everything in it. */
void gp_mirror_remove(const gp_mirror *m);

#endif
