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
