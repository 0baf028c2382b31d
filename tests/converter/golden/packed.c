/* A misaligned member of a packed struct: taking its address works on the
 * host, not on a GPU; nvcc gets an #error that says so. */
#pragma pack(push, 1)
struct rec { char tag; int value; };
#pragma pack(pop)

int read(const int *p) { return *p; }

int main(void)
{
    struct rec r = {'a', 42};
    return read(&r.value) != 42;
}
