#!/bin/sh
# One csmith seed: the random program built natively with gcc and with
# gpumpicc (threads backend, or the GPU with BACKEND=cuda), run as one rank;
# the checksums must match. Prints one line: "<seed> <verdict> <detail>".
# Verdicts: pass, skip (the native program itself fails or runs too long),
# and the failure classes convert, compile, run, mismatch.
#   one.sh GPUMPICC WORKDIR SEED [BACKEND]
G=$1 W=$2 S=$3 BACKEND=${4:-threads}
D=$W/$S
mkdir -p "$D"
CSMITH_INC=/usr/include/csmith
csmith --seed "$S" >"$D/p.c" 2>/dev/null || { echo "$S skip csmith failed"; exit 0; }
gcc -w -O1 -I$CSMITH_INC "$D/p.c" -o "$D/native" 2>"$D/native.err" || { echo "$S skip native build failed"; exit 0; }
want=$(timeout 10 "$D/native" 2>/dev/null) || { echo "$S skip native run failed or took over 10 s"; exit 0; }
if [ "$BACKEND" = cuda ]; then
    [ -x "$D/gpu" ] || { echo "$S compile no GPU binary (build with BACKEND=cuda-build first)"; exit 0; }
    got=$(timeout 120 "$D/gpu" ---gpumpi -n 1 2>"$D/run.err") || { echo "$S run $(head -c 300 "$D/run.err")"; exit 0; }
else
    if ! "$G" --backend="${BACKEND%-build}" -O1 -I$CSMITH_INC "$D/p.c" -o "$D/${BACKEND%-build}" >"$D/build.log" 2>&1; then
        if grep -q "gpumpi-convert\|: error: .*gpumpi" "$D/build.log" && ! grep -q "\.c:[0-9]*:[0-9]*: error: .*(-fpermissive\|expected\|invalid\|cannot\|no match)" "$D/build.log"; then
            echo "$S convert $(grep -m1 error "$D/build.log" | cut -c1-300)"
        else
            echo "$S compile $(grep -m1 error "$D/build.log" | cut -c1-300)"
        fi
        exit 0
    fi
    [ "$BACKEND" = cuda-build ] && { echo "$S built"; exit 0; }
    got=$(timeout 60 "$D/threads" ---gpumpi -n 1 2>"$D/run.err") || { echo "$S run $(head -c 300 "$D/run.err")"; exit 0; }
fi
if [ "$got" = "$want" ]; then echo "$S pass $want"; else echo "$S mismatch native \"$want\" gpumpi \"$got\""; fi
