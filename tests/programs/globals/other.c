/* The other half of the globals test: a global defined here and used from
 * main.c, and a static local. */
int shared_total = 100;

int bump_shared(int by)
{
    shared_total += by;
    return shared_total;
}

int other_file_calls(void)
{
    static int calls;
    return ++calls;
}
