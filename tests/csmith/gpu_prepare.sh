#!/bin/sh
# Prepares csmith programs for a GPU machine, which has nvcc but no libclang:
# for each seed whose native build runs, converts it with gpumpi-convert into
# OUT/SEED.cu (headers in OUT/SEED.cu.d) and records the native checksum in
# OUT/expected.txt. gpu_run.sh then compiles and runs them there.
#   gpu_prepare.sh CONVERT OUT FIRST COUNT
CONVERT=$1 OUT=$2 FIRST=$3 COUNT=$4
mkdir -p "$OUT"
: >"$OUT/expected.txt"
for s in $(seq "$FIRST" $((FIRST + COUNT - 1))); do
    csmith --seed "$s" >"$OUT/$s.c" 2>/dev/null || continue
    gcc -w -O1 -I/usr/include/csmith "$OUT/$s.c" -o "$OUT/native" 2>/dev/null || continue
    sum=$(timeout 10 "$OUT/native" 2>/dev/null) || continue
    "$CONVERT" -I/usr/include/csmith "$OUT/$s.c" -o "$OUT/$s.cu" || { echo "$s: gpumpi-convert failed"; continue; }
    echo "$s $sum" >>"$OUT/expected.txt"
done
rm -f "$OUT/native" "$OUT"/*.c
echo "prepared $(wc -l <"$OUT/expected.txt") programs in $OUT"
