#define DECLARE(name) int name(void) { return 1; }
DECLARE(one)
int main(void) { return one(); }
