#!/bin/sh
# The benchmarks build for the GPU (nvcc, sm_90 machine code): what
# bench/build_gpu_binaries.sh makes for bench/gpu_run.sh, and the
# standalone diagnostics (malloc_bench, primitives/). Exit 77 (skipped)
# when gpumpi was configured without the CUDA toolkit.
#   gpu_build.sh BUILD_DIR SOURCE_DIR
BUILD=$1 SRC=$2
. "$SRC/tests/e2e/checks.sh"
if grep -q '^#define GPUMPI_NVCC ""' "$BUILD/driver/gpumpi_config.h"; then
    echo "skipped: the CUDA toolkit (nvcc) was not found when gpumpi was configured"
    exit 77
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
for p in pingpong collectives msgrate iallreduce stencil halo_anatomy allpairs fanin; do
    "$BUILD/bin/gpumpicc" -O2 "$SRC/bench/$p.c" -o "$W/$p" || fail "gpumpicc could not build bench/$p.c for the GPU"
    python3 "$SRC/tests/gpu/fatbin_contents.py" "$W/$p" | grep -qx "elf sm_90" || fail "$p has no sm_90 machine code"
    note "built bench/$p.c for the GPU"
done
NVCC=$(sed -n 's/^#define GPUMPI_NVCC "\(.*\)"/\1/p' "$BUILD/driver/gpumpi_config.h")
"$NVCC" -std=c++17 -rdc=true -arch=sm_90 -O3 -maxrregcount=32 -I"$SRC/runtime/include" -I"$SRC/libc-shim/include" \
    -I"$SRC/runtime/src" -I"$SRC/libc-shim/src" "$SRC/bench/malloc_bench.cu" "$SRC/libc-shim/src/malloc.cu" \
    "$SRC/libc-shim/src/malloc_private.cu" "$SRC/libc-shim/src/format.cu" "$SRC/libc-shim/src/strerror.cu" \
    "$SRC/libc-shim/src/string.cu" -o "$W/malloc_bench" || fail "bench/malloc_bench.cu does not build with nvcc"
note "built bench/malloc_bench.cu for the GPU"
for p in sync_costs tree_barrier; do
    "$NVCC" -O2 -arch=sm_90 -rdc=true "$SRC/bench/primitives/$p.cu" -o "$W/$p" || fail "bench/primitives/$p.cu does not build with nvcc"
    note "built bench/primitives/$p.cu for the GPU"
done
