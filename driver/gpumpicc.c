/* gpumpicc: a drop-in mpicc that builds the program for gpumpi.
 *
 * Each C source is converted (gpumpi-convert), compiled as relocatable
 * device code (nvcc -rdc) or, on the threads backend, as host C++; linking
 * adds the runtime, libc-shim and launcher and does the device link. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "link_errors.h"
#include "paths.h"
#include "response_file.h"
#include "gpumpi_config.h"
#include "locations.h"
#include "stack_size.h"

typedef enum { BACKEND_CUDA, BACKEND_THREADS } backend;

typedef struct {
    backend be;
    int compile_only, show, verbose;
    const char *output;
    int deps;             /* -MD/-MMD: a .d file beside the object; 2 for -M/-MM: only the rules, on stdout */
    int dep_phony;        /* -MP */
    const char *depfile;  /* -MF */
    const char *dep_target; /* -MT/-MQ */
    gp_cmd parse_flags;   /* to the converter: -I -D -U -std */
    gp_cmd compile_flags; /* to the compiler: -I -D -U -O -g */
    gp_cmd link_flags;    /* -L -l */
    gp_cmd sanitize;      /* -fsanitize=...: threads backend only, decided once the backend is known */
    gp_cmd sources;       /* .c */
    gp_cmd inputs;        /* .o .a given by the user */
} job;

static void usage(FILE *to)
{
    fprintf(to,
            "usage: gpumpicc [options] files... [-o output]\n"
            "Compiles and links MPI C programs for gpumpi, like mpicc.\n"
            "  -c              compile only (objects are relocatable device code)\n"
            "  -o FILE         output file\n"
            "  -I -D -U -O -g -w -std= -l -L as for cc; -G adds device debug info\n"
            "  -fsanitize=...               threads backend only: the host compiler instruments the ranks\n"
            "  -MD -MMD -MF -MT -MQ -MP -M -MM   dependencies for make (the user's headers)\n"
            "  @FILE           read more arguments from FILE\n"
            "  --backend=cuda|threads       GPU (default) or one host thread per rank;\n"
            "                  the environment variable GPUMPI_BACKEND sets the default\n"
            "  -show, --showme print the commands instead of running them\n"
            "  -v              print the commands as they run\n"
            "  --keep-going    report every conversion problem in a file, not only the first\n"
            "  --version       print the version\n"
            "Run the program as: ./prog [args] ---gpumpi -n RANKS   (--help there lists more)\n");
}

static int set_backend(job *j, const char *name, const char *from)
{
    if (!strcmp(name, "cuda"))
        j->be = BACKEND_CUDA;
    else if (!strcmp(name, "threads"))
        j->be = BACKEND_THREADS;
    else {
        fprintf(stderr, "gpumpicc: unknown backend '%s' (from %s); use cuda or threads\n", name, from);
        return 2;
    }
    return 0;
}

static int other_mpi_header(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/mpi.h", dir);
    return access(path, F_OK) == 0 && strcmp(dir, gp_locate()->runtime_include) != 0;
}

/* Flags with a separate value: -I dir, -D x, -U x, -o file, -L dir, -l lib. */
static const char *value_of(int argc, char **argv, int *i, size_t flag_len)
{
    if (argv[*i][flag_len]) return argv[*i] + flag_len;
    if (*i + 1 < argc) return argv[++*i];
    fprintf(stderr, "gpumpicc: %s needs a value\n", argv[*i]);
    exit(2);
}

static int parse(job *j, int argc, char **argv)
{
    const char *env = getenv("GPUMPI_BACKEND");
    if (env && *env && set_backend(j, env, "GPUMPI_BACKEND")) return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-c")) {
            j->compile_only = 1;
        } else if (!strcmp(a, "-show") || !strcmp(a, "--showme") || !strcmp(a, "-showme")) {
            j->show = 1;
        } else if (!strcmp(a, "-v")) {
            j->verbose = 1;
        } else if (!strcmp(a, "--version")) {
            printf("gpumpicc (gpumpi) %s\n", GPUMPI_VERSION);
            exit(0);
        } else if (!strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--keep-going")) {
            gp_cmd_add(&j->parse_flags, a); /* the converter reports every problem, not only the first */
        } else if (!strncmp(a, "--backend=", 10)) {
            if (set_backend(j, a + 10, "--backend")) return 2;
        } else if (!strncmp(a, "-o", 2)) {
            j->output = value_of(argc, argv, &i, 2);
        } else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2)) {
            char flag[3] = {a[0], a[1], 0};
            const char *v = value_of(argc, argv, &i, 2);
            if (flag[1] == 'I' && other_mpi_header(v)) {
                /* a CPU MPI's include directory (from mpicc -show, or a
                 * compile_commands.json made with it): gpumpi's mpi.h wins */
                if (j->verbose) fprintf(stderr, "gpumpicc: note: ignoring -I%s: it holds another MPI's mpi.h\n", v);
                continue;
            }
            gp_cmd_addf(&j->parse_flags, "%s%s", flag, v);
            gp_cmd_addf(&j->compile_flags, "%s%s", flag, v);
        } else if (!strncmp(a, "-std=", 5)) {
            gp_cmd_add(&j->parse_flags, a); /* the C dialect to parse; CUDA is always C++17 */
        } else if (!strncmp(a, "-O", 2) || !strcmp(a, "-g") || !strncmp(a, "-g", 2)) {
            gp_cmd_add(&j->compile_flags, strncmp(a, "-g", 2) ? a : "-g"); /* -g3, -ggdb: host debug info */
        } else if (!strcmp(a, "-w")) {
            gp_cmd_add(&j->compile_flags, a); /* no warnings: nvcc and the host compiler both take -w */
        } else if (!strcmp(a, "-G")) {
            gp_cmd_add(&j->compile_flags, a); /* device debug info (nvcc); slow code, so only when asked */
        } else if (!strcmp(a, "-MD") || !strcmp(a, "-MMD")) {
            j->deps = 1; /* user headers only either way: system headers are gpumpi's own */
        } else if (!strcmp(a, "-M") || !strcmp(a, "-MM")) {
            j->deps = 2;
        } else if (!strcmp(a, "-MP")) {
            j->dep_phony = 1;
        } else if (!strncmp(a, "-MF", 3)) {
            j->depfile = value_of(argc, argv, &i, 3);
        } else if (!strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3)) {
            j->dep_target = value_of(argc, argv, &i, 3);
        } else if (!strncmp(a, "-fsanitize", 10) || !strncmp(a, "-fno-sanitize", 13)) {
            gp_cmd_add(&j->sanitize, a);
        } else if (!strcmp(a, "-fopenmp") || !strncmp(a, "-fopenmp=", 9)) {
            fprintf(stderr, "gpumpicc: note: ignoring %s: each rank is one GPU thread, OpenMP pragmas run serially\n", a);
        } else if (!strncmp(a, "-L", 2) || !strncmp(a, "-l", 2)) {
            char flag[3] = {a[0], a[1], 0};
            gp_cmd_addf(&j->link_flags, "%s%s", flag, value_of(argc, argv, &i, 2));
        } else if (!strncmp(a, "-W", 2) || !strncmp(a, "-f", 2) || !strncmp(a, "-m", 2) || !strcmp(a, "-pedantic") ||
                   !strcmp(a, "-pthread")) {
            if (j->verbose) fprintf(stderr, "gpumpicc: note: ignoring %s (host-compiler option)\n", a);
        } else if (a[0] == '-') {
            fprintf(stderr, "gpumpicc: unknown option %s (see gpumpicc --help)\n", a);
            return 2;
        } else if (gp_has_suffix(a, ".c")) {
            gp_cmd_add(&j->sources, a);
        } else if (gp_has_suffix(a, ".o") || gp_has_suffix(a, ".a")) {
            gp_cmd_add(&j->inputs, a);
        } else {
            fprintf(stderr, "gpumpicc: %s: not a C source (.c), object (.o) or archive (.a)\n", a);
            return 2;
        }
    }
    if (j->sources.argc + j->inputs.argc == 0) {
        usage(stderr);
        return 2;
    }
    if (j->compile_only && j->output && j->sources.argc > 1) {
        fprintf(stderr, "gpumpicc: -o with -c takes one source file\n");
        return 2;
    }
    if (j->sanitize.argc && j->be == BACKEND_CUDA) {
        fprintf(stderr, "gpumpicc: %s needs the threads backend (--backend=threads, or GPUMPI_BACKEND=threads); "
                        "on the GPU run the program under compute-sanitizer instead\n",
                j->sanitize.argv[0]);
        return 2;
    }
    for (int k = 0; k < j->sanitize.argc; k++) { /* the host compiler instruments the ranks' code */
        gp_cmd_add(&j->compile_flags, j->sanitize.argv[k]);
        gp_cmd_add(&j->link_flags, j->sanitize.argv[k]);
    }
    if (j->be == BACKEND_CUDA && !*GPUMPI_NVCC) {
        fprintf(stderr, "gpumpicc: gpumpi was built without the CUDA toolkit, so it cannot build for the GPU; "
                        "use --backend=threads (or GPUMPI_BACKEND=threads)\n");
        return 2;
    }
    return 0;
}

static int step(const job *j, const gp_cmd *c)
{
    if (j->show || j->verbose) gp_cmd_print(c);
    return j->show ? 0 : gp_cmd_run(c, NULL);
}

/* The compiler's messages, passed on, with a note where nvcc's own words
 * would not tell a C programmer what to do. */
static int compile_step(const job *j, const gp_cmd *c, const char *errors)
{
    if (j->show || j->verbose) gp_cmd_print(c);
    if (j->show) return 0;
    int rc = gp_cmd_run(c, errors);
    FILE *f = fopen(errors, "r");
    char line[8192];
    int dynamic_init = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (gp_is_build_info_line(line) && !j->verbose) continue; /* ptxas -v's frames: for stack_size.c */
        fputs(line, stderr);
        if (strstr(line, "dynamic initialization is not supported for a __device__ variable")) dynamic_init = 1;
    }
    if (f) fclose(f);
    if (dynamic_init)
        fprintf(stderr, "gpumpicc: note: nvcc could not compute an address in that global's initializer at compile "
                        "time (nvcc 13 refuses some addresses into arrays of constants, such as &table[7][0] where "
                        "table's own initializer takes addresses of array elements); drop that const, or set the "
                        "pointer at the start of main\n");
    return rc;
}

static void add_all(gp_cmd *to, const gp_cmd *from)
{
    for (int i = 0; i < from->argc; i++) gp_cmd_add(to, from->argv[i]);
}

/* x.c -> x.o in the current directory (what cc -c does). */
static char *object_name(const char *src)
{
    const char *base = strrchr(src, '/');
    base = base ? base + 1 : src;
    char *o = strdup(base);
    o[strlen(o) - 1] = 'o';
    return o;
}

/* Where -MD writes: -MF's file, else the object with .d for .o. */
static char *dependency_file(const job *j, const char *obj)
{
    if (j->deps == 2) return strdup(j->depfile ? j->depfile : "/dev/stdout");
    if (j->depfile) return strdup(j->depfile);
    size_t n = strlen(obj);
    char *d = malloc(n + 3);
    strcpy(d, obj);
    if (n > 2 && !strcmp(d + n - 2, ".o"))
        strcpy(d + n - 2, ".d");
    else
        strcat(d, ".d");
    return d;
}

static int convert_and_compile(const job *j, const char *src, const char *cu, const char *obj)
{
    gp_cmd conv = {0}, cc = {0};
    gp_cmd_add(&conv, gp_locate()->convert);
    add_all(&conv, &j->parse_flags);
    if (j->deps) {
        char *d = dependency_file(j, obj);
        gp_cmd_add(&conv, "--depfile");
        gp_cmd_add(&conv, d);
        gp_cmd_add(&conv, "--dep-target");
        gp_cmd_add(&conv, j->dep_target ? j->dep_target : obj);
        if (j->dep_phony) gp_cmd_add(&conv, "--dep-phony");
        free(d);
    }
    gp_cmd_add(&conv, src);
    gp_cmd_add(&conv, "-o");
    gp_cmd_add(&conv, cu);
    int rc = step(j, &conv);
    if (rc || j->deps == 2) goto out; /* -M: the rules were all that was asked for */
    if (j->be == BACKEND_CUDA) {
        gp_cmd_add(&cc, GPUMPI_NVCC);
        gp_cmd_add(&cc, "-x");
        gp_cmd_add(&cc, "cu");
        gp_cmd_add(&cc, "-std=c++17");
        gp_cmd_add(&cc, "-rdc=true");
        gp_cmd_addf(&cc, "-arch=sm_%s", GPUMPI_CUDA_ARCH); /* sm_XX machine code plus compute_XX PTX */
        gp_cmd_addf(&cc, "-maxrregcount=%s", GPUMPI_CUDA_MAXRREG); /* as the runtime: full occupancy */
        /* C's math on integers (sqrt(n), log2(size), fmod(x, u64)) reaches
         * libstdc++'s constexpr overloads for integral arguments, host
         * functions that nvcc refuses in device code otherwise; g++ (the
         * threads backend) takes them as they are */
        gp_cmd_add(&cc, "--expt-relaxed-constexpr");
        gp_cmd_add(&cc, "-Xptxas"); /* each function's stack frame, kept in the object (stack_size.c) */
        gp_cmd_add(&cc, "-v");
    } else {
        gp_cmd_add(&cc, GPUMPI_HOST_CXX);
        gp_cmd_add(&cc, "-x");
        gp_cmd_add(&cc, "c++");
        gp_cmd_add(&cc, "-std=c++17");
        gp_cmd_add(&cc, "-DGPUMPI_BACKEND_THREADS");
        gp_cmd_add(&cc, "-Wno-narrowing"); /* C's brace initializers convert like assignments; nvcc agrees */
        gp_cmd_add(&cc, "-Wno-write-strings"); /* "text" is a char[] in C, not a const char[] */
#if defined(__x86_64__)
        gp_cmd_add(&cc, "-mcx16"); /* the inbox's 16-byte compare-and-swap, inline in the program (mpi.h.cuh) */
#endif
    }
    gp_cmd_addf(&cc, "-I%s", gp_locate()->runtime_include);
    gp_cmd_addf(&cc, "-I%s", gp_locate()->shim_include);
    gp_cmd_add(&cc, "-include");
    gp_cmd_add(&cc, "gpumpi/platform.h");
    add_all(&cc, &j->compile_flags);
    gp_cmd_add(&cc, "-c");
    gp_cmd_add(&cc, cu);
    gp_cmd_add(&cc, "-o");
    gp_cmd_add(&cc, obj);
    size_t n = strlen(cu) + 8;
    char *errors = malloc(n);
    snprintf(errors, n, "%s.err", cu);
    rc = compile_step(j, &cc, errors);
    if (rc == 0 && !j->show && j->be == BACKEND_CUDA) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", cu);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = 0;
        gp_store_frames(errors, obj, slash ? dir : ".");
    }
    free(errors);
out:
    gp_cmd_free(&conv);
    gp_cmd_free(&cc);
    return rc;
}

static void copy_to_stderr(const char *path)
{
    FILE *f = fopen(path, "r");
    char buf[8192];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stderr);
    if (f) fclose(f);
}

static int link_program(const job *j, const gp_cmd *objects, const gp_link_names *names, const char *tmpdir)
{
    gp_cmd ld = {0};
    if (j->be == BACKEND_CUDA) {
        gp_cmd_add(&ld, GPUMPI_NVCC);
        gp_cmd_add(&ld, "-rdc=true");
        gp_cmd_addf(&ld, "-arch=sm_%s", GPUMPI_CUDA_ARCH);
        gp_cmd_add(&ld, "-Xnvlink"); /* the call graph, for the rank kernel's stack need (stack_size.c) */
        gp_cmd_add(&ld, "--dump-callgraph");
    } else {
        gp_cmd_add(&ld, GPUMPI_HOST_CXX);
    }
    add_all(&ld, objects);
    gp_cmd_addf(&ld, "%s/libgpumpi_%s.a", gp_locate()->lib_dir, j->be == BACKEND_CUDA ? "cuda" : "threads");
    add_all(&ld, &j->link_flags);
    if (j->be == BACKEND_THREADS) gp_cmd_add(&ld, "-lpthread");
    gp_cmd_add(&ld, "-lm");
    gp_cmd_add(&ld, "-o");
    gp_cmd_add(&ld, j->output ? j->output : "a.out");
    if (j->show || j->verbose) gp_cmd_print(&ld);
    int rc = 0;
    if (!j->show) {
        /* the linker's words only where gpumpicc cannot say it better */
        char log[4200];
        snprintf(log, sizeof log, "%s/link.log", tmpdir);
        rc = gp_cmd_run(&ld, log);
        if (rc == 0 && j->be == BACKEND_CUDA)
            rc = gp_embed_stack_size(log, j->output ? j->output : "a.out", objects->argv, objects->argc, j->verbose);
        if (j->verbose)
            copy_to_stderr(log);
        else if (rc == 0 || gp_explain_link_errors(log, names) == 0)
            gp_copy_link_log(log); /* nvlink's information lines are for -v */
    }
    gp_cmd_free(&ld);
    return rc;
}

int main(int argc, char **argv)
{
    job j;
    memset(&j, 0, sizeof j);
    if (gp_expand_response_files(&argc, &argv) != 0) return 2;
    int rc = parse(&j, argc, argv);
    if (rc) return rc;

    char tmpdir[] = "/tmp/gpumpicc.XXXXXX";
    if (!mkdtemp(tmpdir)) {
        perror("gpumpicc: cannot make a temporary directory");
        return 1;
    }
    gp_cmd objects = {0};
    gp_link_names names = {calloc((size_t)j.sources.argc + 1, sizeof(char *)),
                           calloc((size_t)j.sources.argc + 1, sizeof(char *)), 0};
    for (int i = 0; i < j.sources.argc && rc == 0; i++) {
        const char *src = j.sources.argv[i];
        char cu[4200], tmpobj[4200];
        snprintf(cu, sizeof cu, "%s/%d.cu", tmpdir, i);
        snprintf(tmpobj, sizeof tmpobj, "%s/%d.o", tmpdir, i);
        int named = j.compile_only || j.deps == 2; /* -M: the rule names x.o, as cc's does */
        char *obj = named ? (j.output && j.compile_only ? strdup(j.output) : object_name(src)) : strdup(tmpobj);
        rc = convert_and_compile(&j, src, cu, obj);
        gp_cmd_add(&objects, obj);
        names.objects[names.n] = obj;
        names.sources[names.n++] = (char *)src;
    }
    add_all(&objects, &j.inputs);
    if (rc == 0 && !j.compile_only && j.deps != 2) rc = link_program(&j, &objects, &names, tmpdir);
    for (int i = 0; i < names.n; i++) free(names.objects[i]);
    free(names.objects);
    free(names.sources);

    if (getenv("GPUMPI_KEEP"))
        fprintf(stderr, "gpumpicc: kept the converted sources in %s\n", tmpdir);
    else
        gp_remove_tree(tmpdir); /* converted files and their headers' copies */
    gp_cmd_free(&objects);
    return rc;
}
