/* Stack sizing at build time (see stack_size.h). A GPU thread's stack is
 * fixed at launch for every thread, so a rank whose main has a large local
 * array must be given it up front: the launcher cannot grow it later. */
#define _GNU_SOURCE
#include "stack_size.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"

#define KERNEL "gp_rank_kernel"
#define MARK "GPUMPI-BUILD-STACK:"
#define SECTION ".gpumpi_frames"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0, k;
    char *buf = malloc(cap + 1);
    while (buf && (k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) buf = realloc(buf, (cap *= 2) + 1);
    }
    fclose(f);
    if (buf) buf[len] = 0;
    *n = len;
    return buf;
}

static int is_frame_line(const char *line)
{
    const char *p = line;
    while (*p == ' ') p++;
    if (p == line || *p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') p++;
    return !strncmp(p, " bytes stack frame", 18);
}

int gp_is_build_info_line(const char *line)
{
    if (!strncmp(line, "ptxas info", 10) || !strncmp(line, "nvlink info", 11) || is_frame_line(line)) return 1;
    if (strstr(line, "nvlink warning") && strstr(line, "cannot be statically determined")) return 1;
    if (!strncmp(line, "callgraph for ", 14) || !strncmp(line, "# ", 2) || !strncmp(line, "regcount ", 9)) return 1;
    const char *p = line; /* a call graph node: "12: name [32] -> 3 4", or "13: " (unused) */
    while (*p == ' ') p++;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') p++;
    return p[0] == ':' && (p[1] == ' ' || p[1] == '\n' || p[1] == 0);
}

void gp_copy_link_log(const char *link_log)
{
    FILE *f = fopen(link_log, "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f))
        if (!gp_is_build_info_line(line)) fputs(line, stderr);
    if (f) fclose(f);
}

/* The plain name of a function as both tools spell it: C functions are not
 * overloaded, so "_Z4deepi", "_ZL4deepi", "deep(int)" and "deep" are one;
 * a static function is "_ZN<len>_INTERNAL_<file hash><len>nameE..." to
 * ptxas and "name(...)" to nvlink: the last part of the nested name. */
static void base_name(const char *s, char *out, size_t cap)
{
    if (s[0] == '_' && s[1] == 'Z') {
        const char *p = s + 2, *last = NULL;
        size_t lastn = 0;
        int nested = *p == 'N';
        if (*p == 'L' || *p == 'N') p++;
        do {
            size_t n = 0;
            while (*p >= '0' && *p <= '9') n = n * 10 + (size_t)(*p++ - '0');
            if (!n || strlen(p) < n) break;
            last = p;
            lastn = n;
            p += n;
        } while (nested && *p != 'E');
        if (last && lastn < cap) {
            memcpy(out, last, lastn);
            out[lastn] = 0;
            return;
        }
    }
    size_t n = strcspn(s, "( \t\n[");
    if (n >= cap) n = cap - 1;
    memcpy(out, s, n);
    out[n] = 0;
}

int gp_store_frames(const char *compile_log, const char *obj, const char *tmpdir)
{
    FILE *f = fopen(compile_log, "r");
    char line[8192], name[4096] = "", table[4200];
    snprintf(table, sizeof table, "%s/frames.txt", tmpdir);
    FILE *out = fopen(table, "w");
    int n = 0;
    while (f && out && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "Function properties for ");
        if (p) {
            base_name(p + 24, name, sizeof name);
            continue;
        }
        if (is_frame_line(line) && name[0]) {
            fprintf(out, "%s %lld\n", name, atoll(line));
            name[0] = 0;
            n++;
        }
    }
    if (f) fclose(f);
    if (out) fclose(out);
    if (n == 0) return 0;
    gp_cmd c = {0};
    gp_cmd_add(&c, "objcopy");
    gp_cmd_add(&c, "--remove-section=" SECTION);
    gp_cmd_addf(&c, "--add-section=" SECTION "=%s", table);
    gp_cmd_add(&c, obj);
    char log[4200];
    snprintf(log, sizeof log, "%s/objcopy.log", tmpdir);
    gp_cmd_run(&c, log); /* without objcopy the program gets the default stack */
    gp_cmd_free(&c);
    return 0;
}

/* A section's bytes in an ELF64 file (NUL-terminated copy), or NULL. */
static char *elf_section(const char *path, const char *want)
{
    size_t n;
    char *d = slurp(path, &n);
    if (!d || n < 64 || memcmp(d, "\177ELF", 4) || d[4] != 2) {
        free(d);
        return NULL;
    }
    uint64_t shoff;
    uint16_t shentsize, shnum, shstrndx;
    memcpy(&shoff, d + 0x28, 8);
    memcpy(&shentsize, d + 0x3A, 2);
    memcpy(&shnum, d + 0x3C, 2);
    memcpy(&shstrndx, d + 0x3E, 2);
    char *res = NULL;
    if (shoff + (uint64_t)shnum * shentsize > n || shstrndx >= shnum) goto out;
    const char *strh = d + shoff + (uint64_t)shstrndx * shentsize;
    uint64_t stroff;
    memcpy(&stroff, strh + 0x18, 8);
    for (unsigned i = 0; i < shnum; i++) {
        const char *h = d + shoff + (uint64_t)i * shentsize;
        uint32_t name;
        uint64_t off, size;
        memcpy(&name, h, 4);
        memcpy(&off, h + 0x18, 8);
        memcpy(&size, h + 0x20, 8);
        if (stroff + name >= n || strcmp(d + stroff + name, want) || off + size > n) continue;
        res = malloc(size + 1);
        memcpy(res, d + off, size);
        res[size] = 0;
        break;
    }
out:
    free(d);
    return res;
}

typedef struct {
    char name[256];
    long long frame;   /* from the objects' tables; 0 when unknown (the runtime's) */
    int taken;         /* address taken: any indirect call may reach it */
    int *calls, ncalls;
    long long depth;   /* deepest chain from here, -1 not yet known */
    int state;         /* 0 new, 1 on the path being explored, 2 done */
} node;

static node *nodes;
static int nnodes, recursion;
static node **path; /* the chain being explored */
static int npath;

static node *node_id(int id) { return id >= 1 && id <= nnodes ? &nodes[id - 1] : NULL; }

static long long depth(node *v)
{
    if (v->state == 2) return v->depth;
    if (v->state == 1) {
        /* a cycle: unbounded if it goes through the program's own frames
         * (the runtime's error paths call back into themselves once) */
        int i = npath;
        while (i > 0 && path[i - 1] != v) i--;
        for (i = i > 0 ? i - 1 : 0; i < npath; i++) recursion |= path[i]->frame > 0;
        return 0;
    }
    v->state = 1;
    path[npath++] = v;
    long long most = 0;
    for (int i = 0; i < v->ncalls; i++) {
        node *w = node_id(v->calls[i]);
        long long d = w ? depth(w) : 0;
        if (d > most) most = d;
    }
    v->state = 2;
    npath--;
    return v->depth = v->frame + most;
}

/* Reads the call graph nodes ("12: ^&name(args) [regs] -> 3 4") from the log. */
static void read_callgraph(const char *link_log)
{
    FILE *f = fopen(link_log, "r");
    char line[65536];
    int cap = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "callgraph for ", 14)) nnodes = 0; /* one architecture's graph */
        char *p = line;
        while (*p == ' ') p++;
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p || end[0] != ':' || (end[1] != ' ' && end[1] != '\n')) continue;
        if (id != nnodes + 1) continue; /* numbered in order; unused ones have no name */
        if (nnodes == cap) nodes = realloc(nodes, sizeof(node) * (size_t)(cap = cap ? cap * 2 : 256));
        node *v = &nodes[nnodes++];
        memset(v, 0, sizeof *v);
        p = end + 1;
        while (*p == ' ') p++;
        for (; *p == '^' || *p == '&'; p++)
            if (*p == '&') v->taken = 1;
        base_name(p, v->name, sizeof v->name);
        char *arrow = strstr(p, "] -> ");
        for (char *q = arrow ? arrow + 5 : NULL; q && *q;) {
            long to = strtol(q, &end, 10);
            if (end == q) break;
            v->calls = realloc(v->calls, sizeof(int) * (size_t)(v->ncalls + 1));
            v->calls[v->ncalls++] = (int)to;
            q = end;
        }
    }
    if (f) fclose(f);
}

int gp_embed_stack_size(const char *link_log, const char *exe, char *const *objects, int nobjects, int verbose)
{
    read_callgraph(link_log);
    int known = 0;
    for (int o = 0; o < nobjects; o++) { /* frames of the program's own functions */
        char *table = elf_section(objects[o], SECTION);
        for (char *line = table; line && *line;) {
            char name[256];
            long long frame;
            if (sscanf(line, "%255s %lld", name, &frame) == 2)
                for (int i = 0; i < nnodes; i++)
                    if (!strcmp(nodes[i].name, name) && frame > nodes[i].frame) {
                        nodes[i].frame = frame;
                        known++;
                    }
            char *nl = strchr(line, '\n');
            line = nl ? nl + 1 : NULL;
        }
        free(table);
    }
    node *kernel = NULL;
    path = malloc(sizeof(node *) * (size_t)(nnodes + 1));
    for (int i = 0; i < nnodes; i++) {
        nodes[i].depth = -1;
        if (!strcmp(nodes[i].name, KERNEL)) kernel = &nodes[i];
    }
    if (!kernel) {
        if (verbose) fprintf(stderr, "gpumpicc: note: no call graph from nvlink: the program gets the default stack\n");
        return 0;
    }
    long long need = depth(kernel), reach = 0;
    for (int i = 0; i < nnodes; i++) /* what an indirect call might add */
        if (nodes[i].taken && depth(&nodes[i]) > reach) reach = depth(&nodes[i]);
    need += reach;
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
    snprintf(info, sizeof info, MARK "%lld%s", need, recursion ? " r" : "");
    FILE *out = fopen(exe, "r+b");
    int ok = out && fseek(out, (long)(at - bin), SEEK_SET) == 0 && fwrite(info, 1, sizeof info, out) == sizeof info;
    if (out) ok = fclose(out) == 0 && ok;
    free(bin);
    if (!ok) {
        fprintf(stderr, "gpumpicc: cannot record the stack size in %s\n", exe);
        return -1;
    }
    if (verbose)
        fprintf(stderr,
                "gpumpicc: note: the program's own functions need %lld bytes of stack per rank on their deepest "
                "call chain (%d frames known)%s\n",
                need, known, recursion ? "; the program recurses, so that is a floor: use --stack if ranks overflow" : "");
    return 0;
}
