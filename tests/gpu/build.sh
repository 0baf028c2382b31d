#!/bin/sh
# Builds every test program for the GPU with nvcc (no GPU needed) into
# OUT_DIR and checks that each carries Hopper machine code and PTX. Exit 77
# (skipped) when gpumpi was configured without the CUDA toolkit.
#   build.sh BUILD_DIR SOURCE_DIR OUT_DIR
BUILD=$1 SRC=$2 OUT=$3
. "$SRC/tests/e2e/checks.sh"
if grep -q '^#define GPUMPI_NVCC ""' "$BUILD/driver/gpumpi_config.h"; then
    echo "skipped: the CUDA toolkit (nvcc) was not found when gpumpi was configured"
    exit 77
fi
NVCC=$(sed -n 's/^#define GPUMPI_NVCC "\(.*\)"/\1/p' "$BUILD/driver/gpumpi_config.h")
LIST="python3 $SRC/tests/gpu/fatbin_contents.py"
# build_each DIR SOURCE...: one program a source, built on every core at
# once (nvcc is one process; alone, this test took 580 s on CI's two
# cores), each checked for Hopper machine code. Fails naming every one
# that did not build.
build_each() {
    dir=$1
    shift
    mkdir -p "$dir"
    printf '%s\n' "$@" | xargs -d '\n' -n 1 -P "$(nproc)" sh -c '
        dir=$1 build=$2 list=$3 src=$4
        name=$(basename "$src" .c)
        "$build/bin/gpumpicc" -O2 "$src" -o "$dir/$name" 2>"$dir/$name.err" || { echo "$name: $(tail -5 "$dir/$name.err")"; exit 1; }
        $list "$dir/$name" | grep -qx "elf sm_90" || { echo "$name has no linked sm_90 machine code"; exit 1; }
        rm -f "$dir/$name.err"' _ "$dir" "$BUILD" "$LIST" >"$dir.failures" ||
        fail "gpumpicc could not build these for the GPU: $(cat "$dir.failures")"
}
mkdir -p "$OUT"
build_each "$OUT" "$SRC"/examples/hello.c "$SRC"/examples/ring.c "$SRC"/tests/programs/exit_status.c "$SRC"/tests/programs/truncate.c \
    "$SRC"/tests/programs/abort.c "$SRC"/tests/programs/printmany.c "$SRC"/tests/programs/p2p_semantics.c "$SRC"/tests/programs/live_output.c \
    "$SRC"/tests/converter/golden/main_envp.c "$SRC"/tests/converter/golden/designators.c "$SRC"/tests/converter/golden/block_extern.c \
    "$SRC"/tests/converter/golden/static_locals.c \
    /usr/share/doc/mpich/examples/cpi.c /usr/share/doc/mpich/examples/hellow.c
note "built the examples and test programs for the GPU"
# every conformance program
build_each "$OUT/conformance" "$SRC"/tests/conformance/*.c
note "built $(ls "$OUT/conformance" | wc -l) conformance programs for the GPU"
# the launcher tests' programs (run.sh runs their cases with these)
build_each "$OUT/launcher" "$SRC"/tests/launcher/*.c
note "built the launcher tests' programs for the GPU"
# the test project through all three routes, for the GPU, beside the
# builds below (69 s of one core)
rm -rf "$OUT/project"
sh "$SRC/tests/driver/project.sh" "$BUILD" "$SRC" cuda "$OUT/project" >"$OUT/project.log" 2>&1 &
project=$!
"$BUILD/bin/gpumpicc" -O2 "$SRC/tests/programs/multifile/main.c" "$SRC/tests/programs/multifile/work.c" \
    -o "$OUT/multifile" || fail "gpumpicc could not build two files into one GPU program"
"$BUILD/bin/gpumpicc" -O2 "$SRC/tests/programs/globals/main.c" "$SRC/tests/programs/globals/other.c" \
    -o "$OUT/globals" || fail "gpumpicc could not build the globals test for the GPU"
# nvcc's refusal of an element address comes with gpumpicc's advice
if "$BUILD/bin/gpumpicc" "$SRC/tests/programs/element_address.c" -o "$OUT/element_address" 2>"$OUT/element_address.err"; then
    note "nvcc 13 now takes &grid[0][0][7] in a device initializer: the note in gpumpicc.c may go"
else
    grep -q "gpumpicc: note: nvcc could not compute an address" "$OUT/element_address.err" ||
        fail "no advice after nvcc's dynamic-initialization error: $(cat "$OUT/element_address.err")"
    note "nvcc's dynamic-initialization error comes with gpumpicc's advice"
fi
# each compiled object carries Hopper machine code and PTX
"$BUILD/bin/gpumpicc" -c "$SRC/examples/ring.c" -o "$OUT/ring.o" || fail "gpumpicc -c failed"
$LIST --section __nv_relfatbin "$OUT/ring.o" >"$OUT/ring.o.images"
grep -qx "elf sm_90" "$OUT/ring.o.images" && grep -qx "ptx compute_90" "$OUT/ring.o.images" ||
    fail "ring.o should carry sm_90 machine code and compute_90 PTX, has: $(cat "$OUT/ring.o.images")"
note "objects carry sm_90 machine code and compute_90 PTX"
"$NVCC" -std=c++17 -rdc=true -arch=sm_90 -maxrregcount=32 -I"$SRC/runtime/include" -I"$SRC/libc-shim/include" \
    -I"$SRC/libc-shim/src" "$SRC/tests/gpu/format_on_gpu.cu" "$SRC/libc-shim/src/format.cu" \
    "$SRC/libc-shim/src/strerror.cu" -o "$OUT/format_on_gpu" ||
    fail "format_on_gpu did not build"
"$NVCC" -std=c++17 -rdc=true -arch=sm_90 -maxrregcount=32 -I"$SRC/runtime/include" -I"$SRC/libc-shim/include" \
    -I"$SRC/libc-shim/src" "$SRC/tests/gpu/libc_on_gpu.cu" "$SRC/libc-shim/src/strtod.cu" "$SRC/libc-shim/src/int_parse.cu" \
    "$SRC/libc-shim/src/scan.cu" "$SRC/libc-shim/src/ctype.cu" "$SRC/libc-shim/src/sort.cu" "$SRC/libc-shim/src/rand.cu" \
    "$SRC/libc-shim/src/string.cu" -o "$OUT/libc_on_gpu" || fail "libc_on_gpu did not build"
wait $project || fail "the test project did not build for the GPU: $(tail -20 "$OUT/project.log")"
note "the test project built for the GPU three ways"
# references for cpi from a CPU MPI, for the GPU run to compare with
if command -v mpicc.mpich >/dev/null; then
    mpicc.mpich -O2 /usr/share/doc/mpich/examples/cpi.c -o "$OUT/cpi_mpich" -lm
    for n in 4 8; do mpiexec.mpich -n $n "$OUT/cpi_mpich" | grep "^pi is approximately" >"$OUT/cpi_ref_$n.txt"; done
fi
note "GPU binaries in $OUT"
