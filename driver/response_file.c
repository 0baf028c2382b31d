/* @file arguments, as gcc reads them: the file's words replace the
 * argument (quotes and backslashes as in a shell, nested @files too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "response_file.h"

static void push(char ***v, int *n, int *cap, char *s)
{
    if (*n + 2 > *cap) *v = realloc(*v, sizeof **v * (size_t)(*cap = *cap * 2 + 16));
    (*v)[(*n)++] = s;
    (*v)[*n] = NULL;
}

static int read_words(const char *path, char ***v, int *n, int *cap, int depth)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *word = malloc(1), quote = 0;
    size_t len = 0;
    int c, in_word = 0;
    while ((c = fgetc(f)) != EOF) {
        if (quote ? c == quote : (c == '\'' || c == '"')) {
            quote = quote ? 0 : (char)c;
            in_word = 1;
            continue;
        }
        if (c == '\\' && quote != '\'') {
            c = fgetc(f);
            if (c == EOF) break;
        } else if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            if (in_word) {
                word[len] = 0;
                if (word[0] == '@' && depth < 8 && read_words(word + 1, v, n, cap, depth + 1) == 0)
                    free(word);
                else
                    push(v, n, cap, word);
                word = malloc(1);
                len = 0;
                in_word = 0;
            }
            continue;
        }
        word = realloc(word, len + 2);
        word[len++] = (char)c;
        in_word = 1;
    }
    if (in_word) {
        word[len] = 0;
        push(v, n, cap, word);
    } else {
        free(word);
    }
    fclose(f);
    return 0;
}

int gp_expand_response_files(int *argc, char ***argv)
{
    char **v = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = (*argv)[i];
        if (i > 0 && a[0] == '@' && a[1]) {
            if (read_words(a + 1, &v, &n, &cap, 0) != 0) {
                fprintf(stderr, "gpumpicc: cannot read the response file %s\n", a + 1);
                return -1;
            }
        } else {
            push(&v, &n, &cap, (*argv)[i]);
        }
    }
    *argc = n;
    *argv = v;
    return 0;
}
