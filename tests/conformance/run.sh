#!/bin/sh
# The conformance programs: each prints " No Errors" when all its checks
# pass. Each runs under gpumpi (threads backend) at 1, 2, 3, 4, 7, 16 and 64
# ranks, and under MPICH (mpiexec) at 2, 3, 4 and 7 processes, which shows
# the tests themselves are right. With FLAGS (say -DGPUMPI_NO_INLINE_CALLS:
# every MPI call goes to the library, none is inline in the program), only
# gpumpi's run, built with them.
#   run.sh BUILD_DIR SOURCE_DIR NAME [FLAGS]
BUILD=$1 SRC=$2 NAME=$3 FLAGS=$4
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
P=$SRC/tests/conformance/$NAME.c
if [ -z "$FLAGS" ]; then
command -v mpicc.mpich >/dev/null || fail "mpicc.mpich not found: install Debian's mpich"
mpicc.mpich -O1 -w "$P" -o "$W/mpich" -lm || fail "$NAME does not build with MPICH's mpicc"
for n in 2 3 4 7; do
    out=$(timeout 120 mpiexec.mpich -n $n "$W/mpich" 2>&1)
    echo "$out" | grep -qx " No Errors" || fail "$NAME under MPICH with $n processes: $out"
done
note "$NAME: No Errors under MPICH at 2, 3, 4, 7 processes"
fi
# shellcheck disable=SC2086 # FLAGS: several words
"$BUILD/bin/gpumpicc" --backend=threads -O1 $FLAGS "$P" -o "$W/gpumpi" || fail "gpumpicc could not build $NAME"
for n in 1 2 3 4 7 16 64; do expect_line "$NAME" "$W/gpumpi" $n " No Errors"; done
# one rank more than whole nodes of 32 (gpumpi's tree for broadcasts and reductions): the last rank, a root there, is alone in its node
case $NAME in bcast_reduce_small) for n in 33 65; do expect_line "$NAME" "$W/gpumpi" $n " No Errors"; done ;; esac
# the runs above keep each rank's buffers and globals in its private
# memory (the default: sends from it are staged, the GPU's path for local
# memory); and with none, everything in the shared heap
export GPUMPI_PRIVATE=0
for n in 3 16; do expect_line "$NAME" "$W/gpumpi" $n " No Errors"; done
unset GPUMPI_PRIVATE
note "$NAME: No Errors under gpumpi (threads${FLAGS:+, $FLAGS}) at 1, 2, 3, 4, 7, 16, 64 ranks, and at 3 and 16 with --private 0"
