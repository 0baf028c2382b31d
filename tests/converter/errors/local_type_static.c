int f(void)
{
    struct point { int x, y; };
    static struct point origin;
    return origin.x;
}
int main(void) { return f(); }
