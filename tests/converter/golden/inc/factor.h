#define FACTOR 3
