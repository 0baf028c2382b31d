#!/bin/sh
# A C library function gpumpi does not provide is a build error that names
# it (libc-shim/include/gpumpi/unprovided.h), and a header it does not
# provide is a converter error that names the header.
#   libc_unprovided.sh BUILD_DIR SOURCE_DIR
BUILD=$1 SRC=$2
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cat >"$W/f.c" <<'EOC'
#include <stdlib.h>
#include <unistd.h>
int main(void) { char t[] = "/tmp/xXXXXXX"; return mkdtemp(t) != 0 && isatty(1); }
EOC
"$BUILD/bin/gpumpicc" --backend=threads "$W/f.c" -o "$W/f" 2>"$W/err" && fail "a call of mkdtemp() compiled"
grep -q "mkdtemp_is_not_provided_by_gpumpi" "$W/err" || fail "the error does not name mkdtemp: $(cat "$W/err")"
grep -q "isatty_is_not_provided_by_gpumpi" "$W/err" || fail "the error does not name isatty: $(cat "$W/err")"
note "unprovided functions are build errors naming them"
printf '#include <regex.h>\nint main(void) { return 0; }\n' >"$W/h.c"
"$BUILD/bin/gpumpicc" --backend=threads "$W/h.c" -o "$W/h" 2>"$W/err" && fail "#include <regex.h> compiled"
grep -q "<regex.h> is not provided" "$W/err" || fail "the error does not name <regex.h>: $(cat "$W/err")"
note "unprovided headers are build errors naming them"
# headers often included for their types and constants alone: including
# them is harmless, calling one of their functions is the error above
cat >"$W/i.c" <<'EOC'
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <stdio.h>
int main(void)
{
    int flags = O_RDONLY | O_CREAT, prot = PROT_READ;
    struct utsname *u = 0;
    pthread_mutex_t *m = 0;
    printf("%d %d %d\n", flags != 0, prot, u == 0 && m == 0);
    return 0;
}
EOC
"$BUILD/bin/gpumpicc" --backend=threads "$W/i.c" -o "$W/i" 2>"$W/err" || fail "including <fcntl.h>, <pthread.h>, <sys/mman.h>, <sys/utsname.h> did not build: $(cat "$W/err")"
[ "$("$BUILD/bin/gpumpirun" -n 1 "$W/i" 2>&1)" = "1 1 1" ] || # PROT_READ is 1 on Linux
    fail "the program including them gave: $("$BUILD/bin/gpumpirun" -n 1 "$W/i" 2>&1)"
printf '#include <sys/mman.h>\n#include <sys/utsname.h>\nint main(void) { struct utsname u; return mmap(0, 4096, PROT_READ, MAP_PRIVATE, -1, 0) != 0 && uname(&u); }\n' >"$W/c.c"
"$BUILD/bin/gpumpicc" --backend=threads "$W/c.c" -o "$W/c" 2>"$W/err" && fail "calls of mmap() and uname() compiled"
grep -q "mmap_is_not_provided_by_gpumpi" "$W/err" && grep -q "uname_is_not_provided_by_gpumpi" "$W/err" ||
    fail "the error does not name mmap and uname: $(cat "$W/err")"
note "<fcntl.h>, <pthread.h>, <sys/mman.h>, <sys/utsname.h> included alone build; their calls are errors naming them"
# <sys/wait.h> for the status system() and pclose() return; a rank has no
# children to wait for
printf '#include <stdlib.h>\n#include <sys/wait.h>\nint main(void) { int s; return WEXITSTATUS(system("exit 0")) + waitpid(-1, &s, 0); }\n' >"$W/w.c"
"$BUILD/bin/gpumpicc" --backend=threads "$W/w.c" -o "$W/w" 2>"$W/err" && fail "a call of waitpid() compiled"
grep -q "waitpid_is_not_provided_by_gpumpi" "$W/err" || fail "the error does not name waitpid: $(cat "$W/err")"
grep -q "system" "$W/err" && fail "system() is refused: $(cat "$W/err")"
note "<sys/wait.h>'s macros build with system(); waitpid is an error naming it"
