/* See paths.h. */
#define _XOPEN_SOURCE 700
#include "paths.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void gp_remove_tree(const char *dir) { nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS); }

int gp_make_dirs(const char *dir)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            int bad = mkdir(p, 0755) != 0 && errno != EEXIST;
            *s = '/';
            if (bad) return -1;
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int gp_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}
