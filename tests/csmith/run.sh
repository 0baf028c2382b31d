#!/bin/sh
# Differential testing with csmith: seeds FIRST .. FIRST+COUNT-1, each random
# program run natively and through gpumpi (one rank), checksums compared.
# Prints every non-passing seed and a summary; exits 1 if any seed failed.
#   run.sh GPUMPICC FIRST COUNT [BACKEND] [JOBS]
G=$1 FIRST=$2 COUNT=$3 BACKEND=${4:-threads} JOBS=${5:-$(nproc)}
command -v csmith >/dev/null || { echo "FAIL: csmith not found: install Debian's csmith and libcsmith-dev"; exit 1; }
[ -f /usr/include/csmith/csmith.h ] || { echo "FAIL: csmith.h not found: install libcsmith-dev"; exit 1; }
W=${CSMITH_WORKDIR:-$(mktemp -d)}
mkdir -p "$W"
seq "$FIRST" $((FIRST + COUNT - 1)) | xargs -P "$JOBS" -I{} sh "$(dirname "$0")/one.sh" "$G" "$W" {} "$BACKEND" >"$W/results.txt"
sort -n "$W/results.txt" >"$W/sorted.txt"
grep -v " pass \| skip \| built$" "$W/sorted.txt"
pass=$(grep -c " pass " "$W/sorted.txt")
skip=$(grep -c " skip " "$W/sorted.txt")
fail=$(grep -vc " pass \| skip \| built$" "$W/sorted.txt")
echo "csmith: $pass passed, $fail failed, $skip skipped (the native program failed) of $COUNT seeds from $FIRST; work in $W"
for class in convert compile run mismatch; do
    n=$(grep -c "^[0-9]* $class " "$W/sorted.txt")
    [ "$n" -gt 0 ] && echo "  $class: $n"
done
[ -z "$CSMITH_WORKDIR" ] && [ "$fail" -eq 0 ] && rm -rf "$W"
[ "$fail" -eq 0 ]
