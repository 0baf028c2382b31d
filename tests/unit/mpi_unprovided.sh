#!/bin/sh
# An MPI function gpumpi does not provide (generalized requests) is a build
# error that names it (runtime/include/mpi.h), on both backends' path
# through the converter; its callback types still compile.
#   mpi_unprovided.sh BUILD_DIR SOURCE_DIR
BUILD=$1 SRC=$2
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cat >"$W/g.c" <<'EOC'
#include <mpi.h>
static int query(void *extra, MPI_Status *status) { (void)extra; return MPI_Status_set_elements(status, MPI_BYTE, 0); }
static int release(void *extra) { (void)extra; return MPI_SUCCESS; }
static int cancel(void *extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }
int main(int argc, char **argv)
{
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Grequest_start(query, release, cancel, 0, &r);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return MPI_Finalize();
}
EOC
"$BUILD/bin/gpumpicc" --backend=threads "$W/g.c" -o "$W/g" 2>"$W/err" && fail "a call of MPI_Grequest_start() compiled"
grep -q "MPI_Grequest_start_is_not_provided_by_gpumpi" "$W/err" || fail "the error does not name MPI_Grequest_start: $(cat "$W/err")"
grep -q "MPI_Grequest_complete_is_not_provided_by_gpumpi" "$W/err" ||
    fail "the error does not name MPI_Grequest_complete: $(cat "$W/err")"
grep "error" "$W/err" | grep -qv "MPI_Grequest_[a-z]*_is_not_provided_by_gpumpi" &&
    fail "other errors than the two calls (the callbacks should compile): $(cat "$W/err")"
note "generalized requests are build errors naming the functions"
