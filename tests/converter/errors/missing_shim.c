#include <stdio.h>
#include <regex.h>

int main(void) { regex_t r; return regcomp(&r, "a", 0); }
