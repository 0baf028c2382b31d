/* Writing the result. libclang's C API can only write the rewritten main
 * file to stdout, through a buffered stream that is flushed at exit; so a
 * child process points its stdout at a temporary file, writes and exits, and
 * the parent renames the file into place only if that all worked. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "convert.h"

int gp_write_output(gp_conv *c, const char *path)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    snprintf(tmp, n + 16, "%s.tmp%d", path, (int)getpid());
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("gpumpi-convert: fork");
        free(tmp);
        return 1;
    }
    if (pid == 0) {
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0) {
            fprintf(stderr, "gpumpi-convert: cannot write %s: ", tmp);
            perror(NULL);
            _exit(1);
        }
        clang_CXRewriter_writeMainFileToStdOut(c->rw);
        exit(0); /* runs the stream's destructor, which flushes it */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (ok && rename(tmp, path) != 0) {
        fprintf(stderr, "gpumpi-convert: cannot create %s: ", path);
        perror(NULL);
        ok = 0;
    }
    if (!ok) unlink(tmp);
    free(tmp);
    return ok ? 0 : 1;
}
