#!/bin/sh
# The conformance programs as one job over several launcher processes
# (issue 27, threads backend): MPICH's mpiexec starts P processes of
# N ranks each, one MPI_COMM_WORLD of P*N ranks. Each program is built
# once. With "aslr", the job starts with address space randomisation on
# (as on most machines), so the launcher's re-execution without it is
# tested wherever CI runs; with "private0", every rank's buffers and
# globals are in the shared segment (GPUMPI_PRIVATE=0), so large messages
# are read straight from the sender's memory in another process.
#   procs.sh BUILD_DIR SOURCE_DIR P N [aslr|private0]
BUILD=$1 SRC=$2 P=$3 N=$4 MODE=$5
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
command -v mpiexec.mpich >/dev/null || fail "mpiexec.mpich not found: install Debian's mpich"
set --
case $MODE in
aslr) set -- python3 -c 'import ctypes, os, sys; ctypes.CDLL(None).personality(0); os.execvp(sys.argv[1], sys.argv[1:])' ;;
private0) export GPUMPI_PRIVATE=0 ;;
esac
n=0
for path in "$SRC"/tests/conformance/*.c; do
    name=$(basename "$path" .c)
    "$BUILD/bin/gpumpicc" --backend=threads -O1 -w "$path" -o "$W/$name" || fail "gpumpicc could not build $name"
    out=$(timeout 120 "$@" mpiexec.mpich -n "$P" "$W/$name" ---gpumpi -n "$N" 2>&1)
    st=$?
    [ $st -eq 0 ] && echo "$out" | grep -qx " No Errors" ||
        fail "$name, $P processes x $N ranks${MODE:+ ($MODE)}: status $st: $(echo "$out" | head -c 3000)"
    n=$((n + 1))
done
[ $n -ge 50 ] || fail "only $n conformance programs found"
note "all $n conformance programs: No Errors as $P launcher processes x $N ranks under MPICH's mpiexec${MODE:+ ($MODE)}"
