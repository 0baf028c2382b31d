#!/bin/sh
# make install: the installed tools work from any directory, after the tree
# is moved, and a CMake project finds gpumpi with find_package and builds
# with its toolchain file; gpumpirun runs a program like mpirun.
#   install.sh BUILD_DIR SOURCE_DIR
BUILD=$1 SRC=$2
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export GPUMPI_BACKEND=threads
cmake --install "$BUILD" --prefix "$W/first" >"$W/install.log" 2>&1 || fail "cmake --install: $(cat "$W/install.log")"
mv "$W/first" "$W/prefix" # nothing may point back at where it was installed, or at the build tree
P=$W/prefix
for f in bin/gpumpicc bin/gpumpi-build bin/gpumpi-convert bin/gpumpirun lib/gpumpi/libgpumpi_threads.a \
    include/gpumpi/runtime/mpi.h include/gpumpi/libc/stdio.h.cuh lib/cmake/gpumpi/gpumpiConfig.cmake; do
    [ -e "$P/$f" ] || fail "not installed: $f"
done
cd "$W" || exit 1
"$P/bin/gpumpicc" -show "$SRC/examples/ring.c" -o ring >show.txt || fail "installed gpumpicc -show failed"
grep -q "$BUILD\|$SRC/runtime\|$SRC/libc-shim" show.txt && fail "installed gpumpicc uses the build tree: $(cat show.txt)"
grep -q "$P/bin/gpumpi-convert" show.txt && grep -q "$P/bin/../lib/gpumpi/libgpumpi_threads.a" show.txt ||
    fail "installed gpumpicc does not use the installed tree: $(cat show.txt)"
"$P/bin/gpumpicc" "$SRC/examples/ring.c" -o ring || fail "installed gpumpicc could not build ring.c"
run "$P/bin/gpumpirun" -np 5 ./ring 2
[ $STATUS -eq 0 ] && grep -qx "ring: 5 ranks, 2 laps, token 30: OK" "$OUT_TXT" ||
    fail "gpumpirun -np 5 ./ring 2: $(cat "$OUT_TXT" "$ERR_TXT")"
note "installed tools work from another directory after the tree moved; gpumpirun -np 5 runs 5 ranks"

cp -r "$SRC/tests/project" proj && cd proj || exit 1
cmake -S . -B b -DCMAKE_PREFIX_PATH="$P" -DCMAKE_TOOLCHAIN_FILE="$P/lib/cmake/gpumpi/gpumpi-toolchain.cmake" \
    >cmake.log 2>&1 && cmake --build b >>cmake.log 2>&1 || fail "CMake with the installed package: $(tail -30 cmake.log)"
grep -q "WARNING" cmake.log && fail "CMake warned: $(cat cmake.log)"
(cd b && ctest --output-on-failure >ctest.log 2>&1) || fail "ctest of the project: $(cat b/ctest.log)"
grep -q "2 tests passed\|100% tests passed, 0 tests failed out of 2" b/ctest.log || fail "ctest ran: $(cat b/ctest.log)"
note "find_package(gpumpi) and its toolchain file build the project; gpumpi_add_test runs it with 4 ranks"
