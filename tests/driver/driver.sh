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
# link errors in the user's terms: files and C names, main for the entry point
printf 'int foo(void) { return 1; }\nint main(void) { return foo(); }\n' >a.c
printf 'int foo(void) { return 2; }\nint bar(void);\nint main(void) { return bar(); }\n' >b.c
printf 'int bar(void);\nint main(void) { return bar(); }\n' >c.c
"$G" --backend=threads a.c b.c -o two 2>err.txt && fail "two mains linked"
grep -qx "gpumpicc: 'main' is defined in both a.c and b.c: one program has one main; link each program's files separately" err.txt &&
    grep -qx "gpumpicc: 'foo' is defined in both a.c and b.c" err.txt || fail "duplicate symbols: $(cat err.txt)"
grep -q "_Z\|/tmp/gpumpicc" err.txt && fail "raw linker output shown: $(cat err.txt)"
"$G" --backend=threads c.c -o missing 2>err.txt && fail "a missing function linked"
grep -qx "gpumpicc: 'bar' is used in c.c but defined in none of the files linked" err.txt || fail "missing symbol: $(cat err.txt)"
note "link errors name the files and the C symbols"

# objects linked without gpumpicc: the linker names the fix
"$G" --backend=threads -c a.c -o a.o || fail "gpumpicc -c a.c failed"
cc a.o -o plain 2>err.txt && fail "a gpumpicc object linked with plain cc"
grep -q "undefined reference to .gpumpi_link_this_object_with_gpumpicc_or_gpumpi_build" err.txt ||
    fail "cc a.o: the error does not say to link with gpumpicc: $(cat err.txt)"
note "gpumpicc objects linked by plain cc fail naming gpumpicc"

# -MD/-MF, -M, @file, -fopenmp
mkdir -p inc && echo 'int twice(int);' >inc/util.h
printf '#include "util.h"\nint twice(int x) { return 2 * x; }\n' >util.c
echo "-Iinc -O1 -fopenmp" >flags.rsp
"$G" --backend=threads @flags.rsp -MD -MP -c util.c 2>err.txt || fail "@file -MD -c failed: $(cat err.txt)"
grep -q "note: ignoring -fopenmp" err.txt || fail "-fopenmp without a note: $(cat err.txt)"
grep -q "^util.o: util.c" util.d && grep -q "inc/util.h" util.d && grep -q "^$W/inc/util.h:" util.d ||
    fail "util.d: $(cat util.d)"
"$G" --backend=threads -Iinc -MM util.c >deps.txt && grep -q "^util.o: util.c" deps.txt && [ ! -e util2.o ] ||
    fail "-MM: $(cat deps.txt)"
note "-MD -MP -MF -MM, @file and -fopenmp work"
# -fsanitize: the host compiler instruments the ranks on the threads
# backend; the GPU build refuses it and says what to use instead
"$G" --backend=threads -g -fsanitize=address "$SRC/tests/programs/out_of_bounds.c" -o oob 2>err.txt ||
    fail "-fsanitize=address on the threads backend did not build: $(cat err.txt)"
./oob ---gpumpi -n 2 >out.txt 2>err.txt || fail "-fsanitize=address: a clean run failed: $(head -20 err.txt)"
./oob past ---gpumpi -n 2 >out.txt 2>err.txt && fail "-fsanitize=address: the out-of-bounds write went unseen"
grep -q "stack-buffer-overflow" err.txt && grep -q "out_of_bounds.c:" err.txt ||
    fail "-fsanitize=address: no report naming the line: $(head -20 err.txt)"
if ! grep -q '^#define GPUMPI_NVCC ""' "$BUILD/driver/gpumpi_config.h"; then
    "$G" -fsanitize=address "$SRC/tests/programs/out_of_bounds.c" -o oob_gpu 2>err.txt && fail "-fsanitize accepted for the GPU"
    grep -q "needs the threads backend" err.txt || fail "-fsanitize for the GPU: $(cat err.txt)"
fi
note "-fsanitize=address: instruments the ranks on the threads backend (an overflow is reported with its line), refused for the GPU"
note "driver: all checks passed"
