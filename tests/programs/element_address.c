/* An address nvcc 13 cannot compute at compile time in a GPU global's
 * initializer: gpumpicc must say what to do about it. */
short grid[3][1][8];
short *corner = &grid[2][0][7];

int main(void) { return *corner; }
