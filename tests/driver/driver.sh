#!/bin/sh
# gpumpicc as a drop-in mpicc: -show, separate compile and link, the
# backend from the environment, and make CC=gpumpicc.
#   driver.sh BUILD_DIR SOURCE_DIR
BUILD=$1 SRC=$2
. "$SRC/tests/e2e/checks.sh"
G=$BUILD/bin/gpumpicc
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

# -show prints the commands and runs none of them
"$G" --backend=threads -show "$SRC/examples/ring.c" -o ring >show.txt || fail "-show failed"
[ -e ring ] && fail "-show built the program"
grep -q "gpumpi-convert .*ring.c -o " show.txt || fail "-show: no convert step: $(cat show.txt)"
grep -q -- "-DGPUMPI_BACKEND_THREADS" show.txt || fail "-show: no threads compile step: $(cat show.txt)"
grep -q "libgpumpi_threads.a .*-o ring" show.txt || fail "-show: no link step: $(cat show.txt)"
if grep -q '^#define GPUMPI_NVCC ""' "$BUILD/driver/gpumpi_config.h"; then
    note "no CUDA toolkit: the cuda -show check is skipped"
else
    "$G" -show -O2 "$SRC/examples/ring.c" -o ring >show.txt || fail "-show (cuda) failed"
    grep -q "nvcc .*-rdc=true -arch=sm_90 .*-O2 -c " show.txt || fail "-show: no nvcc -rdc sm_90 compile: $(cat show.txt)"
    grep -q "nvcc -rdc=true -arch=sm_90 .*libgpumpi_cuda.a .*-o ring" show.txt || fail "-show: no device link: $(cat show.txt)"
    note "-show: nvcc -rdc=true -arch=sm_90 compile and device link"
fi

# compile and link as separate steps, backend from the environment
GPUMPI_BACKEND=threads "$G" -c "$SRC/examples/ring.c" -o ring.o || fail "gpumpicc -c failed"
GPUMPI_BACKEND=threads "$G" ring.o -o ring2 || fail "linking ring.o failed"
check_ring ./ring2 6 2

# an ordinary Makefile with CC/MPICC pointed at gpumpicc
cp "$SRC/examples/Makefile" "$SRC/examples/hello.c" "$SRC/examples/ring.c" .
GPUMPI_BACKEND=threads make -s MPICC="$G" >make.log 2>&1 || fail "make MPICC=gpumpicc failed: $(cat make.log)"
check_hello ./hello 3

# errors a user can act on
"$G" --backend=threads nosuchfile.c -o x 2>err.txt && fail "a missing source built"
grep -q "nosuchfile.c" err.txt || fail "a missing source is not named: $(cat err.txt)"
"$G" --backend=bogus x.c 2>err.txt && fail "an unknown backend was accepted"
grep -q "unknown backend 'bogus'" err.txt || fail "unknown backend message: $(cat err.txt)"
note "driver: all checks passed"
