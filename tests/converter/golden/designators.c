/* Designated initializers C++ does not take: any order, array indices,
 * GNU ranges, nested designators, anonymous members, mixed with positional
 * values. The program checks every value it gets. */
#include <stdio.h>

enum color { RED, GREEN, BLUE, NCOLORS };
struct opts { int verbose; double tol; const char *name; int flags[3]; };
union number { int i; double d; };
struct shape { int kind; union { int side; double radius; }; int tag; };
struct nested { struct opts o; int arr[4]; };

static const char *color_names[NCOLORS] = { [BLUE] = "blue", [RED] = "red", [GREEN] = "green" };
struct opts defaults = { .name = "run", .tol = 1e-6, .verbose = 2 };
static int sparse[] = { [2] = 5, 6, [6 ... 7] = 9 };
union number num = { .d = 2.5 };
struct shape circle = { .tag = 7, .kind = 2, { .radius = 1.5 } };
struct nested deep = { .o.flags[1] = 4, .arr = { [3] = 8 }, .o.verbose = 1 };
enum color order[4] = { [1] = BLUE, [3] = GREEN };
struct opts table[] = { [1] = { .tol = 0.5 }, [0].name = "first" };
struct opts inorder = { .verbose = 1, .tol = 2.0 };  /* C++ takes this one as it is */

int main(void)
{
    struct opts local = { .flags = { [2] = 3 }, .verbose = -1 };
    int ok = 1;
    ok &= color_names[RED][0] == 'r' && color_names[GREEN][0] == 'g' && color_names[BLUE][0] == 'b';
    ok &= defaults.verbose == 2 && defaults.tol == 1e-6 && defaults.name[0] == 'r' && defaults.flags[2] == 0;
    ok &= sizeof sparse / sizeof sparse[0] == 8 && sparse[2] == 5 && sparse[3] == 6 && sparse[4] == 0 && sparse[7] == 9;
    ok &= num.d == 2.5;
    ok &= circle.kind == 2 && circle.radius == 1.5 && circle.tag == 7;
    ok &= deep.o.flags[1] == 4 && deep.o.verbose == 1 && deep.arr[3] == 8 && deep.arr[0] == 0;
    ok &= order[0] == RED && order[1] == BLUE && order[3] == GREEN;
    ok &= table[1].tol == 0.5 && table[0].name[0] == 'f' && table[1].name == 0;
    ok &= local.flags[2] == 3 && local.verbose == -1 && local.tol == 0;
    ok &= inorder.tol == 2.0;
    printf("designators %s\n", ok ? "ok" : "WRONG");
    return !ok;
}
