/* See remove_tree.h. */
#define _XOPEN_SOURCE 700
#include "remove_tree.h"

#include <ftw.h>
#include <stdio.h>

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void gp_remove_tree(const char *dir) { nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS); }
