/* Building, printing and running the commands gpumpicc drives. */
#define _POSIX_C_SOURCE 200809L
#include "command.h"

#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void gp_cmd_add(gp_cmd *c, const char *arg)
{
    if (c->argc + 2 > c->cap) {
        c->cap = c->cap ? c->cap * 2 : 32;
        c->argv = realloc(c->argv, sizeof(char *) * (size_t)c->cap);
    }
    c->argv[c->argc++] = strdup(arg);
    c->argv[c->argc] = NULL;
}

void gp_cmd_addf(gp_cmd *c, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    gp_cmd_add(c, buf);
}

void gp_cmd_free(gp_cmd *c)
{
    for (int i = 0; i < c->argc; i++) free(c->argv[i]);
    free(c->argv);
    c->argv = NULL;
    c->argc = c->cap = 0;
}

void gp_cmd_print(const gp_cmd *c)
{
    for (int i = 0; i < c->argc; i++) {
        const char *a = c->argv[i];
        int plain = *a != 0;
        for (const char *p = a; *p; p++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+./,:@%", *p)) plain = 0;
        if (i) putchar(' ');
        if (plain) {
            fputs(a, stdout);
        } else {
            putchar('\'');
            for (const char *p = a; *p; p++)
                if (*p == '\'')
                    fputs("'\\''", stdout);
                else
                    putchar(*p);
            putchar('\'');
        }
    }
    putchar('\n');
}

int gp_cmd_run(const gp_cmd *c, const char *stderr_to)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("gpumpicc: fork");
        return 127;
    }
    if (pid == 0) {
        if (stderr_to) {
            int fd = open(stderr_to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) dup2(fd, 2);
        }
        execvp(c->argv[0], c->argv);
        fprintf(stderr, "gpumpicc: cannot run %s: ", c->argv[0]);
        perror(NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0) return 127;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
