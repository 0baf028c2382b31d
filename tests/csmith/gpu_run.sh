#!/bin/sh
# On a GPU machine: compiles the programs gpu_prepare.sh converted, links
# them with the runtime, runs each as 1 rank and as RANKS ranks, and
# compares every rank's checksum with the native one.
#   gpu_run.sh DIR LIBDIR [RANKS]
D=$1 L=$2 RANKS=${3:-64}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
NVCC=${NVCC:-nvcc}
# (a program built by an earlier, interrupted run is not built again)
cut -d' ' -f1 "$D/expected.txt" | xargs -P "$(nproc)" -I{} sh -c "
    [ -x '$D/{}.bin' ] && exit 0
    '$NVCC' -x cu -std=c++17 -rdc=true -arch=sm_90 -maxrregcount=32 -O1 -w -I'$SRC/runtime/include' \
        -I'$SRC/libc-shim/include' -include gpumpi/platform.h -c '$D/{}.cu' -o '$D/{}.o' >'$D/{}.log' 2>&1 &&
    '$NVCC' -rdc=true -arch=sm_90 '$D/{}.o' '$L/libgpumpi_cuda.a' -o '$D/{}.bin' >>'$D/{}.log' 2>&1"
pass=0 fail=0
while read -r seed sum; do
    if [ ! -x "$D/$seed.bin" ]; then
        echo "$seed compile $(grep -m1 error "$D/$seed.log" | cut -c1-200)"; fail=$((fail + 1)); continue
    fi
    one=$(timeout 120 "$D/$seed.bin" ---gpumpi -n 1 2>&1)
    many=$(timeout 300 "$D/$seed.bin" ---gpumpi -n "$RANKS" 2>&1 | sort | uniq -c | sed 's/^ *//')
    if [ "$one" = "$sum" ] && [ "$many" = "$RANKS $sum" ]; then
        pass=$((pass + 1))
    else
        echo "$seed mismatch native \"$sum\" gpu 1 rank \"$one\" $RANKS ranks \"$many\""; fail=$((fail + 1))
    fi
done <"$D/expected.txt"
echo "csmith on the GPU: $pass passed, $fail failed (each as 1 rank and as $RANKS ranks)"
[ "$fail" -eq 0 ]
