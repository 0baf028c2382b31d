/* An address nvcc 13 cannot compute at compile time in a GPU global's
 * initializer (an element of an array of constants, past its first row):
 * gpumpi must say what to do about it. */
int x[5][7];
int *const grid[10][8][3] = {{{&x[4][6]}}};
int *const *corner = &grid[6][1][0];

int main(void) { return **corner; }
