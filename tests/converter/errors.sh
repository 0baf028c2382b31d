#!/bin/sh
# Converter errors: a file that cannot be converted gives "file:line:col:
# error: ..." on stderr, a non-zero exit status and no output file.
#   errors.sh CONVERT SOURCE_DIR
CONVERT=$1 SRC=$2
cd "$SRC/tests/converter/errors" || exit 1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
status=0
expect() { # FILE PATTERN [FLAG]: stderr must match the extended regex PATTERN
    "$CONVERT" $3 "$1" -o "$W/out.cu" 2>"$W/err"
    rc=$?
    if [ $rc -eq 0 ]; then echo "FAIL: $1: converted without error"; status=1
    elif [ -e "$W/out.cu" ]; then echo "FAIL: $1: wrote an output file despite the error"; status=1
    elif ! grep -Eq "$2" "$W/err"; then echo "FAIL: $1: expected /$2/, got: $(cat "$W/err")"; status=1
    else echo "ok: $1: $(head -1 "$W/err")"; fi
    rm -f "$W/out.cu"
}
expect syntax.c '^syntax\.c:5:13: error: expected expression'
expect missing_header.c "^missing_header\.c:2:10: fatal error: 'no_such_header\.h' file not found"
expect local_type_static.c "^local_type_static\.c:4:25: error: static variable 'origin' has a type declared inside its function"
expect designator_elision.c "^designator_elision\.c:4:41: error: designated initializer: values without braces for a member that is a struct or array \(brace elision\)"
# by default the first problem, and how many more; --keep-going all of them
expect unsupported.c "^gpumpi-convert: 4 more errors in unsupported\.c not shown; --keep-going reports every one"
[ "$(grep -c ': error:' "$W/err")" -eq 1 ] || { echo "FAIL: more than the first error without --keep-going"; status=1; }
expect unsupported.c "^unsupported\.c:11:9: error: _setjmp: non-local jumps are not supported on the GPU" --keep-going
expect unsupported.c "^unsupported\.c:12:5: error: pthread_create: threads inside a rank are not supported" --keep-going
expect unsupported.c "^unsupported\.c:13:9: error: fork: a rank cannot create processes" --keep-going
expect unsupported.c "^unsupported\.c:14:5: error: inline assembly: host assembly cannot run on the GPU" --keep-going
expect missing_shim.c "^missing_shim\.c:2:1: error: <regex\.h> is not provided by gpumpi's device C library yet"
"$CONVERT" does_not_exist.c -o "$W/x.cu" 2>"$W/err" && { echo "FAIL: a missing input converted"; status=1; }
grep -q "does_not_exist.c" "$W/err" || { echo "FAIL: a missing input is not named: $(cat "$W/err")"; status=1; }
# and a good file converts into the current directory (an output name without a directory)
(cd "$W" && "$CONVERT" "$SRC/tests/converter/golden/forms.c" -o forms.cu) && [ -s "$W/forms.cu" ] ||
    { echo "FAIL: -o forms.cu (no directory) did not write forms.cu"; status=1; }
exit $status
