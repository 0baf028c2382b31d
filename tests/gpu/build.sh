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
mkdir -p "$OUT"
for src in examples/hello.c examples/ring.c tests/programs/exit_status.c tests/programs/truncate.c \
    tests/programs/abort.c tests/programs/printmany.c tests/programs/p2p_semantics.c tests/programs/live_output.c \
    tests/converter/golden/main_envp.c tests/converter/golden/designators.c tests/converter/golden/block_extern.c \
    tests/converter/golden/static_locals.c \
    /usr/share/doc/mpich/examples/cpi.c /usr/share/doc/mpich/examples/hellow.c; do
    case $src in /*) path=$src ;; *) path=$SRC/$src ;; esac
    name=$(basename "$src" .c)
    "$BUILD/bin/gpumpicc" -O2 "$path" -o "$OUT/$name" || fail "gpumpicc could not build $src for the GPU"
    $LIST "$OUT/$name" | grep -qx "elf sm_90" || fail "$name has no linked sm_90 machine code"
    note "built $name for the GPU"
done
# every conformance program
mkdir -p "$OUT/conformance"
for path in "$SRC"/tests/conformance/*.c; do
    t=$(basename "$path" .c)
    "$BUILD/bin/gpumpicc" -O2 "$path" -o "$OUT/conformance/$t" || fail "gpumpicc could not build $t for the GPU"
    $LIST "$OUT/conformance/$t" | grep -qx "elf sm_90" || fail "$t has no linked sm_90 machine code"
done
note "built $(ls "$OUT/conformance" | wc -l) conformance programs for the GPU"
# the launcher tests' programs (run.sh runs their cases with these)
mkdir -p "$OUT/launcher"
for path in "$SRC"/tests/launcher/*.c; do
    p=$(basename "$path" .c)
    "$BUILD/bin/gpumpicc" -O2 "$path" -o "$OUT/launcher/$p" || fail "gpumpicc could not build $p for the GPU"
done
note "built the launcher tests' programs for the GPU"
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
# the test project through all three routes, for the GPU
rm -rf "$OUT/project"
sh "$SRC/tests/driver/project.sh" "$BUILD" "$SRC" cuda "$OUT/project" >"$OUT/project.log" 2>&1 ||
    fail "the test project did not build for the GPU: $(tail -20 "$OUT/project.log")"
note "the test project built for the GPU three ways"
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
# references for cpi from a CPU MPI, for the GPU run to compare with
if command -v mpicc.mpich >/dev/null; then
    mpicc.mpich -O2 /usr/share/doc/mpich/examples/cpi.c -o "$OUT/cpi_mpich" -lm
    for n in 4 8; do mpiexec.mpich -n $n "$OUT/cpi_mpich" | grep "^pi is approximately" >"$OUT/cpi_ref_$n.txt"; done
fi
note "GPU binaries in $OUT"
