/* main with the environment as its third parameter. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv, char **envp)
{
    int i, found = 0;
    for (i = 0; envp[i]; i++)
        if (strncmp(envp[i], "GPUMPI_TEST_VAR=", 16) == 0) found = 1;
    printf("argc %d, GPUMPI_TEST_VAR %s\n", argc, found ? "seen" : "missing");
    return !found;
}
