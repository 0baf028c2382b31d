int g;
int main(void)
{
    extern int g;
    return g;
}
