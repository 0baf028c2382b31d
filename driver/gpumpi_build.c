/* gpumpi-build: a whole project from its compile_commands.json.
 *
 *   gpumpi-build [-p BUILD_DIR] [-o OUT_DIR] [-j N] [--backend=cuda|threads] [-v]
 *
 * Every C file in the compilation database is compiled by gpumpicc with its
 * own -I/-D/-U/-std/-O/-g flags, in its own directory; every one that
 * defines main becomes an executable, linked with all the files that do
 * not. Only what changed is built again: an object is current when its
 * command is the same and no file in its dependency list (gpumpicc -MD) is
 * newer. */
#define _XOPEN_SOURCE 700
#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "locations.h"
#include "paths.h"

typedef struct {
    char *source;  /* absolute */
    char *dir;     /* where its compile command runs */
    gp_cmd flags;  /* the flags gpumpicc gets from the database */
    char *object, *depfile, *cmdfile;
    int defines_main;
    int stale;
} unit;

typedef struct {
    const char *build_dir, *out_dir, *backend;
    int jobs, verbose;
    char gpumpicc[PATH_MAX + 64];
    unit *units;
    int nunits;
} project;

static void usage(FILE *to)
{
    fprintf(to, "usage: gpumpi-build [-p BUILD_DIR] [-o OUT_DIR] [-j N] [--backend=cuda|threads] [-v]\n"
                "Builds every program of a C MPI project for gpumpi from BUILD_DIR/compile_commands.json\n"
                "(made by `bear -- make` or cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON).\n"
                "  -p BUILD_DIR   where compile_commands.json is (default .)\n"
                "  -o OUT_DIR     where objects and executables go (default BUILD_DIR/gpumpi)\n"
                "  -j N           compile N files at once (default: the number of cores)\n"
                "  --backend=...  cuda (GPU, default) or threads (one host thread per rank)\n"
                "  -v             print the commands as they run\n"
                "Each file that defines main becomes OUT_DIR/<its name without .c>, linked with every file\n"
                "that does not. Only changed files are built again.\n");
}

/* Only C: anything else in the database is named, with why. */
static const char *not_c(const char *file)
{
    static const char *const cxx[] = {".cc", ".cpp", ".cxx", ".C", ".c++", ".cu", NULL};
    static const char *const fortran[] = {".f", ".F", ".f90", ".F90", ".f95", ".f03", ".f08", ".for", NULL};
    for (int i = 0; cxx[i]; i++)
        if (gp_has_suffix(file, cxx[i])) return "a C++ or CUDA source: gpumpi converts C programs only";
    for (int i = 0; fortran[i]; i++)
        if (gp_has_suffix(file, fortran[i])) return "a Fortran source: gpumpi converts C programs only";
    if (!gp_has_suffix(file, ".c")) return "not a C source (.c)";
    return NULL;
}

static char *absolute(const char *dir, const char *file)
{
    char joined[PATH_MAX * 2], real[PATH_MAX];
    if (file[0] == '/')
        snprintf(joined, sizeof joined, "%s", file);
    else
        snprintf(joined, sizeof joined, "%s/%s", dir, file);
    return strdup(realpath(joined, real) ? real : joined);
}

/* The flags that decide what a file means: include paths, macros, the C
 * dialect, optimisation and debug info. The rest (warnings, -fPIC, the
 * output name) do not apply to a GPU build. */
static void keep_flags(CXCompileCommand cmd, gp_cmd *out)
{
    unsigned n = clang_CompileCommand_getNumArgs(cmd);
    for (unsigned i = 1; i < n; i++) {
        CXString s = clang_CompileCommand_getArg(cmd, i);
        const char *a = clang_getCString(s);
        int two = !strcmp(a, "-I") || !strcmp(a, "-D") || !strcmp(a, "-U") || !strcmp(a, "-isystem") ||
                  !strcmp(a, "-iquote") || !strcmp(a, "-include");
        if (two && i + 1 < n) {
            CXString v = clang_CompileCommand_getArg(cmd, ++i);
            const char *flag = !strcmp(a, "-isystem") || !strcmp(a, "-iquote") ? "-I" : a;
            if (!strcmp(a, "-include")) {
                gp_cmd_add(out, "-include");
                gp_cmd_add(out, clang_getCString(v));
            } else {
                gp_cmd_addf(out, "%s%s", flag, clang_getCString(v));
            }
            clang_disposeString(v);
        } else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-std=", 5) ||
                   !strncmp(a, "-O", 2) || !strcmp(a, "-g")) {
            gp_cmd_add(out, a);
        } else if (!strcmp(a, "-o") || !strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ")) {
            i++; /* and its value */
        }
        clang_disposeString(s);
    }
}

static int read_database(project *p)
{
    CXCompilationDatabase_Error err;
    /* libclang prints its own lines on failure; ours below says it for people */
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(p->build_dir, &err);
    if (saved >= 0) dup2(saved, 2);
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    if (err != CXCompilationDatabase_NoError) {
        fprintf(stderr,
                "gpumpi-build: %s/compile_commands.json: missing or unreadable; make it with `bear -- make` or "
                "cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON\n",
                p->build_dir);
        return -1;
    }
    CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned n = clang_CompileCommands_getSize(cmds);
    int bad = 0;
    p->units = calloc(n + 1, sizeof *p->units);
    for (unsigned i = 0; i < n; i++) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, i);
        CXString d = clang_CompileCommand_getDirectory(cmd), f = clang_CompileCommand_getFilename(cmd);
        char *src = absolute(clang_getCString(d), clang_getCString(f));
        const char *why = not_c(src);
        struct stat st;
        if (why) {
            fprintf(stderr, "gpumpi-build: %s: %s\n", src, why);
            bad = 1;
        } else if (stat(src, &st) != 0) {
            fprintf(stderr, "gpumpi-build: %s: listed in compile_commands.json but does not exist\n", src);
            bad = 1;
        } else {
            int dup = 0;
            for (int k = 0; k < p->nunits; k++) dup |= !strcmp(p->units[k].source, src);
            if (!dup) {
                unit *u = &p->units[p->nunits++];
                u->source = strdup(src);
                u->dir = strdup(clang_getCString(d));
                keep_flags(cmd, &u->flags);
            }
        }
        free(src);
        clang_disposeString(d);
        clang_disposeString(f);
    }
    clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    if (!bad && p->nunits == 0) {
        fprintf(stderr, "gpumpi-build: %s/compile_commands.json lists no C files\n", p->build_dir);
        bad = 1;
    }
    return bad ? -1 : 0;
}

static char *with_suffix(const char *base, const char *suffix)
{
    size_t n = strlen(base) + strlen(suffix) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%s%s", base, suffix);
    return s;
}

/* The gpumpicc command for one file, as one line (stored to see changes). */
static void compile_command(const project *p, const unit *u, gp_cmd *c)
{
    gp_cmd_add(c, p->gpumpicc);
    gp_cmd_addf(c, "--backend=%s", p->backend);
    for (int i = 0; i < u->flags.argc; i++) gp_cmd_add(c, u->flags.argv[i]);
    gp_cmd_add(c, "-MD");
    gp_cmd_add(c, "-MF");
    gp_cmd_add(c, u->depfile);
    gp_cmd_add(c, "-c");
    gp_cmd_add(c, u->source);
    gp_cmd_add(c, "-o");
    gp_cmd_add(c, u->object);
}

static char *joined(const gp_cmd *c)
{
    size_t n = 1;
    for (int i = 0; i < c->argc; i++) n += strlen(c->argv[i]) + 1;
    char *s = calloc(1, n);
    for (int i = 0; i < c->argc; i++) {
        strcat(s, c->argv[i]);
        strcat(s, "\n");
    }
    return s;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    size_t k;
    while ((k = fread(s + n, 1, cap - n - 1, f)) > 0)
        if ((n += k) + 1 == cap) s = realloc(s, cap *= 2);
    s[n] = 0;
    fclose(f);
    return s;
}

static double mtime(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9 : -1;
}

/* Reads a make rule written by gpumpicc -MD: main or not, and whether a
 * prerequisite is newer than the object. */
static int read_depfile(unit *u, int *newer)
{
    char *text = slurp(u->depfile);
    if (!text) return -1;
    u->defines_main = strstr(text, "# gpumpi: defines main") != NULL;
    double obj = mtime(u->object);
    *newer = 0;
    char *rule = text;
    while (*rule == '#' && strchr(rule, '\n')) rule = strchr(rule, '\n') + 1; /* comments */
    char *colon = strchr(rule, ':');
    for (char *tok = colon ? strtok(colon + 1, " \\\n") : NULL; tok; tok = strtok(NULL, " \\\n"))
        if (mtime(tok) < 0 || mtime(tok) > obj) *newer = 1;
    free(text);
    return 0;
}

static void plan(project *p)
{
    for (int i = 0; i < p->nunits; i++) {
        unit *u = &p->units[i];
        char obj_base[PATH_MAX * 2];
        snprintf(obj_base, sizeof obj_base, "%s/obj%s", p->out_dir, u->source);
        u->object = with_suffix(obj_base, ".o");
        u->depfile = with_suffix(obj_base, ".d");
        u->cmdfile = with_suffix(obj_base, ".cmd");
        gp_cmd c = {0};
        compile_command(p, u, &c);
        char *now = joined(&c), *before = slurp(u->cmdfile);
        int newer = 1;
        u->stale = !before || strcmp(now, before) || mtime(u->object) < 0 || read_depfile(u, &newer) != 0 || newer;
        free(now);
        free(before);
        gp_cmd_free(&c);
    }
}

static pid_t start(const project *p, const unit *u)
{
    gp_cmd c = {0};
    compile_command(p, u, &c);
    if (p->verbose) gp_cmd_print(&c);
    char *dir = strdup(u->object);
    *strrchr(dir, '/') = 0;
    gp_make_dirs(dir);
    free(dir);
    unlink(u->cmdfile); /* written again once it compiled */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(u->dir) != 0) {
            fprintf(stderr, "gpumpi-build: %s: cannot enter its directory %s\n", u->source, u->dir);
            _exit(1);
        }
        execv(c.argv[0], c.argv);
        fprintf(stderr, "gpumpi-build: cannot run %s\n", c.argv[0]);
        _exit(127);
    }
    gp_cmd_free(&c);
    return pid;
}

static void finished(const project *p, unit *u)
{
    gp_cmd c = {0};
    compile_command(p, u, &c);
    char *text = joined(&c);
    FILE *f = fopen(u->cmdfile, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    free(text);
    gp_cmd_free(&c);
    int newer;
    read_depfile(u, &newer);
}

/* Compiles the stale files, p->jobs at a time. Returns the failures. */
static int compile_all(project *p)
{
    pid_t *running = calloc((size_t)p->jobs, sizeof *running);
    int *which = calloc((size_t)p->jobs, sizeof *which);
    int next = 0, active = 0, failures = 0, built = 0;
    for (;;) {
        while (active < p->jobs && next < p->nunits && !failures) {
            if (!p->units[next].stale) {
                next++;
                continue;
            }
            int slot = 0;
            while (running[slot]) slot++;
            running[slot] = start(p, &p->units[next]);
            which[slot] = next++;
            active++;
        }
        if (active == 0) break;
        int status;
        pid_t done = wait(&status);
        for (int s = 0; s < p->jobs; s++)
            if (running[s] == done) {
                running[s] = 0;
                active--;
                unit *u = &p->units[which[s]];
                if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                    finished(p, u);
                    built++;
                } else {
                    fprintf(stderr, "gpumpi-build: %s: did not compile (above)\n", u->source);
                    failures++;
                }
            }
    }
    if (p->verbose || built) printf("gpumpi-build: compiled %d of %d files\n", built, p->nunits);
    free(running);
    free(which);
    return failures;
}

/* OUT/name for main's file: its name without .c, or with its directory's
 * name in front where two programs would share a name. */
static char *program_name(const project *p, const unit *u)
{
    const char *base = strrchr(u->source, '/') + 1;
    int clash = 0;
    for (int i = 0; i < p->nunits; i++)
        if (&p->units[i] != u && p->units[i].defines_main && !strcmp(strrchr(p->units[i].source, '/') + 1, base))
            clash = 1;
    char name[PATH_MAX * 2];
    if (clash) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)(base - 1 - u->source), u->source);
        const char *parent = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
        snprintf(name, sizeof name, "%s/%s_%.*s", p->out_dir, parent, (int)strlen(base) - 2, base);
    } else {
        snprintf(name, sizeof name, "%s/%.*s", p->out_dir, (int)strlen(base) - 2, base);
    }
    return strdup(name);
}

static int link_all(project *p)
{
    int failures = 0, programs = 0;
    for (int i = 0; i < p->nunits; i++) {
        unit *m = &p->units[i];
        if (!m->defines_main) continue;
        programs++;
        char *exe = program_name(p, m);
        double when = mtime(exe);
        gp_cmd c = {0};
        gp_cmd_add(&c, p->gpumpicc);
        gp_cmd_addf(&c, "--backend=%s", p->backend);
        gp_cmd_add(&c, m->object);
        int stale = when < 0 || mtime(m->object) > when;
        for (int k = 0; k < p->nunits; k++)
            if (!p->units[k].defines_main) {
                gp_cmd_add(&c, p->units[k].object);
                stale |= mtime(p->units[k].object) > when;
            }
        gp_cmd_add(&c, "-o");
        gp_cmd_add(&c, exe);
        if (stale) {
            if (p->verbose) gp_cmd_print(&c);
            if (gp_cmd_run(&c, NULL) != 0) {
                fprintf(stderr, "gpumpi-build: %s: did not link (above)\n", exe);
                failures++;
            } else {
                printf("gpumpi-build: linked %s\n", exe);
            }
        }
        gp_cmd_free(&c);
        free(exe);
    }
    if (programs == 0) {
        fprintf(stderr, "gpumpi-build: no file in compile_commands.json defines main: nothing to link\n");
        failures++;
    }
    return failures;
}

int main(int argc, char **argv)
{
    project p = {".", NULL, "cuda", (int)sysconf(_SC_NPROCESSORS_ONLN), 0, {0}, NULL, 0};
    const char *env = getenv("GPUMPI_BACKEND");
    if (env && *env) p.backend = env;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "-p") || !strcmp(a, "-o") || !strcmp(a, "-j")) && i + 1 < argc) {
            const char *v = argv[++i];
            if (a[1] == 'p') p.build_dir = v;
            else if (a[1] == 'o') p.out_dir = v;
            else p.jobs = atoi(v);
        } else if (!strncmp(a, "-j", 2) && a[2]) {
            p.jobs = atoi(a + 2);
        } else if (!strncmp(a, "--backend=", 10)) {
            p.backend = a + 10;
        } else if (!strcmp(a, "-v")) {
            p.verbose = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpumpi-build: unknown argument %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (strcmp(p.backend, "cuda") && strcmp(p.backend, "threads")) {
        fprintf(stderr, "gpumpi-build: unknown backend '%s' (cuda or threads)\n", p.backend);
        return 2;
    }
    if (p.jobs < 1) p.jobs = 1;
    char real[PATH_MAX];
    if (!realpath(p.build_dir, real)) {
        fprintf(stderr, "gpumpi-build: %s: no such directory\n", p.build_dir);
        return 1;
    }
    p.build_dir = strdup(real);
    char out[PATH_MAX * 2];
    if (!p.out_dir) snprintf(out, sizeof out, "%s/gpumpi", p.build_dir);
    else if (p.out_dir[0] != '/' && getcwd(real, sizeof real)) snprintf(out, sizeof out, "%s/%s", real, p.out_dir);
    else snprintf(out, sizeof out, "%s", p.out_dir);
    p.out_dir = out;
    if (gp_make_dirs(p.out_dir) != 0) {
        fprintf(stderr, "gpumpi-build: cannot make %s: %s\n", p.out_dir, strerror(errno));
        return 1;
    }
    snprintf(p.gpumpicc, sizeof p.gpumpicc, "%s", gp_locate()->gpumpicc);

    if (read_database(&p) != 0) return 1;
    plan(&p);
    if (compile_all(&p) != 0) return 1;
    return link_all(&p) ? 1 : 0;
}
