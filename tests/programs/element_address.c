/* Addresses nvcc 13 cannot compute at compile time in a GPU global's
 * initializer (into an array of constants whose own initializer takes
 * element addresses): gpumpicc must say what to do about it. */
int x;
int *a[4][2][7] = {{{&x}}};
int **const t[8][3] = {{&a[3][0][6]}};
int **const *p = &t[7][0];

int main(void) { return p != 0; }
