/* Stack sizing at link time. nvlink knows the deepest call chain of each
 * kernel after the device link and prints it with -v ("Function properties
 * for 'K': ... N stack"); when the chain is unbounded (recursion, calls
 * through pointers) it warns that the size "cannot be statically
 * determined" and the figure covers only what it could see. gpumpicc writes
 * the rank kernel's figure into the program, where the launcher reads it
 * (launcher/main.c) unless --stack is given. */
#define _GNU_SOURCE
#include "stack_size.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL "gp_rank_kernel"
#define MARK "GPUMPI-BUILD-STACK:"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf) buf[len < cap ? len : cap - 1] = 0;
    *n = len;
    return buf;
}

static int is_info(const char *line)
{
    return !strncmp(line, "nvlink info", 11) ||
           (strstr(line, "nvlink warning") && strstr(line, "cannot be statically determined"));
}

void gp_copy_link_log(const char *link_log)
{
    FILE *f = fopen(link_log, "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f))
        if (!is_info(line)) fputs(line, stderr);
    if (f) fclose(f);
}

int gp_embed_stack_size(const char *link_log, const char *exe, int verbose)
{
    FILE *f = fopen(link_log, "r");
    char line[8192];
    long long stack = -1;
    int floor_only = 0, in_kernel = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strstr(line, "cannot be statically determined") && strstr(line, KERNEL)) floor_only = 1;
        if (strstr(line, "Function properties for")) {
            in_kernel = strstr(line, KERNEL) != NULL;
            continue;
        }
        const char *s = in_kernel ? strstr(line, " stack") : NULL;
        if (s) { /* "... used 51 registers, used 0 barriers, 3000 stack, ..." */
            const char *p = s;
            while (p > line && p[-1] >= '0' && p[-1] <= '9') p--;
            if (p < s) stack = atoll(p);
            in_kernel = 0;
        }
    }
    if (f) fclose(f);
    if (stack < 0) {
        if (verbose) fprintf(stderr, "gpumpicc: note: nvlink reported no stack size for the rank kernel\n");
        return 0;
    }
    size_t n;
    char *bin = slurp(exe, &n);
    char *at = bin ? memmem(bin, n, MARK, strlen(MARK)) : NULL;
    if (!at) {
        free(bin);
        fprintf(stderr, "gpumpicc: cannot find where to record the stack size in %s\n", exe);
        return -1;
    }
    char info[64];
    memset(info, 0, sizeof info);
    snprintf(info, sizeof info, MARK "%lld%s", stack, floor_only ? " r" : "");
    FILE *out = fopen(exe, "r+b");
    int ok = out && fseek(out, (long)(at - bin), SEEK_SET) == 0 && fwrite(info, 1, sizeof info, out) == sizeof info;
    if (out) ok = fclose(out) == 0 && ok;
    free(bin);
    if (!ok) {
        fprintf(stderr, "gpumpicc: cannot record the stack size in %s\n", exe);
        return -1;
    }
    if (verbose)
        fprintf(stderr, "gpumpicc: note: the rank kernel needs %lld bytes of stack per rank%s\n", stack,
                floor_only ? " at least (recursion or calls through pointers: nvlink cannot bound it)" : "");
    return 0;
}
