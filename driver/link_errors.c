/* The linker's complaints (nvlink's or ld's) said again in the user's terms:
 * C names instead of mangled ones, source files instead of temporary
 * objects, main instead of gpumpi's entry points. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_errors.h"

/* _Z3foov -> foo, foo(int) -> foo, __gp_tmpl_x -> x, __gpumpi_main -> main */
static void c_name(const char *sym, size_t len, char *out, size_t cap)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%.*s", (int)len, sym);
    const char *p = buf;
    if (!strncmp(p, "_Z", 2)) {
        p += 2;
        if (*p == 'L') p++;
        int n = atoi(p);
        while (isdigit((unsigned char)*p)) p++;
        snprintf(buf, sizeof buf, "%.*s", n, p);
        p = buf;
    }
    char *paren = strchr(buf, '(');
    if (paren) *paren = 0;
    if (!strncmp(p, "__gp_tmpl_", 10)) p += 10;
    if (!strncmp(p, "__gp_off_", 9)) p += 9;
    if (!strcmp(p, "__gpumpi_main") || !strcmp(p, "__gpumpi_user_main")) p = "main";
    snprintf(out, cap, "%s", p);
}

static const char *source_of(const char *obj, size_t len, const gp_link_names *names, char *tmp, size_t cap)
{
    snprintf(tmp, cap, "%.*s", (int)len, obj);
    for (int i = 0; i < names->n; i++)
        if (!strcmp(names->objects[i], tmp)) return names->sources[i];
    /* gpumpi-build's objects: OUT/obj/<absolute source path>.o */
    const char *at = strstr(tmp, "/obj/");
    size_t n = strlen(tmp);
    if (at && n > 4 && !strcmp(tmp + n - 4, ".c.o")) {
        tmp[n - 2] = 0;
        return at + 4;
    }
    return tmp;
}

/* The text between open and the next close after it, or NULL. */
static const char *between(const char *line, const char *open, char close, size_t *len)
{
    const char *a = strstr(line, open);
    if (!a) return NULL;
    a += strlen(open);
    const char *b = strchr(a, close);
    if (!b) return NULL;
    *len = (size_t)(b - a);
    return a;
}

static int said_before(char **said, int n, const char *msg)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(said[i], msg)) return 1;
    return 0;
}

int gp_explain_link_errors(const char *log_path, const gp_link_names *names)
{
    FILE *f = fopen(log_path, "r");
    if (!f) return 0;
    char line[8192], current[4096] = "", *said[256];
    int nsaid = 0;
    while (fgets(line, sizeof line, f)) {
        char sym[512], a[4096], b[4096], msg[9000];
        const char *s, *o;
        size_t sl, ol;
        msg[0] = 0;
        const char *in_fn = strstr(line, ": in function");
        if (in_fn && !strncmp(line, "/usr/bin/ld: ", 13)) { /* ld: the object the next lines are about */
            snprintf(current, sizeof current, "%.*s", (int)(in_fn - line - 13), line + 13);
            continue;
        }
        if ((s = between(line, "Multiple definition of '", '\'', &sl)) &&
            (o = between(line, "' in '", '\'', &ol))) { /* nvlink */
            c_name(s, sl, sym, sizeof sym);
            snprintf(a, sizeof a, "%s", source_of(o, ol, names, b, sizeof b));
            const char *first = (o = between(line, "first defined in '", '\'', &ol)) ? source_of(o, ol, names, b, sizeof b)
                                                                                  : "another file";
            snprintf(msg, sizeof msg, "'%s' is defined in both %s and %s", sym, first, a);
        } else if ((s = between(line, "Undefined reference to '", '\'', &sl)) &&
                   (o = between(line, "' in '", '\'', &ol))) {
            c_name(s, sl, sym, sizeof sym);
            snprintf(msg, sizeof msg, "'%s' is used in %s but defined in none of the files linked",
                     sym, source_of(o, ol, names, a, sizeof a));
        } else if ((s = between(line, "multiple definition of `", '\'', &sl))) { /* ld */
            c_name(s, sl, sym, sizeof sym);
            const char *first = strstr(line, "'; ");
            o = first ? first + 3 : "";
            ol = strcspn(o, ":");
            snprintf(a, sizeof a, "%s", source_of(current, strlen(current), names, b, sizeof b));
            snprintf(msg, sizeof msg, "'%s' is defined in both %s and %s", sym, source_of(o, ol, names, b, sizeof b), a);
        } else if ((s = between(line, "undefined reference to `", '\'', &sl))) {
            c_name(s, sl, sym, sizeof sym);
            snprintf(msg, sizeof msg, "'%s' is used in %s but defined in none of the files linked", sym,
                     source_of(current, strlen(current), names, a, sizeof a));
        }
        if (!msg[0] || said_before(said, nsaid, msg) || nsaid == 256) continue;
        said[nsaid++] = strdup(msg);
        if (!strncmp(msg, "'main' is defined in both", 25))
            fprintf(stderr, "gpumpicc: %s: one program has one main; link each program's files separately\n", msg);
        else
            fprintf(stderr, "gpumpicc: %s\n", msg);
    }
    fclose(f);
    for (int i = 0; i < nsaid; i++) free(said[i]);
    return nsaid;
}
