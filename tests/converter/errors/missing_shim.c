#include <stdio.h>
#include <ctype.h>

int main(void) { return isdigit('1') ? 0 : 1; }
