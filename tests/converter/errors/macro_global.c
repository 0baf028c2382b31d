#define BUMP() counter++
int counter;
int main(void) { BUMP(); return counter; }
