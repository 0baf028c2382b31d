#!/bin/sh
# Smoke test of the benchmarks on gpumpi's threads backend (seconds on two
# cores): builds them with gpumpicc --backend=threads, runs each at small
# rank counts with small arguments, and fails unless every run verified its
# data and printed its figures; a planted wrong byte must be caught.
#   sh bench/run_threads.sh BUILD_DIR [OUTDIR]
# With BENCH_QUICK=0 it runs the full-size arguments instead.
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
DIR=${2:-$(mktemp -d)}
: "${BENCH_QUICK:=1}"
export BENCH_QUICK
. "$SRC/bench/bench_lib.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
bench_init "$DIR" 0
BIN=$DIR/bin
mkdir -p "$BIN"
for p in pingpong collectives msgrate p2p_cost iallreduce stencil halo_anatomy allpairs fanin; do
    "$BUILD/bin/gpumpicc" --backend=threads -O2 "$SRC/bench/$p.c" -o "$BIN/$p" || fail "gpumpicc could not build bench/$p.c"
done
T=threads
# shellcheck disable=SC2086
{
    bench_run $T 2ranks 60 "$BIN/pingpong" $PP_ARGS ---gpumpi -n 2
    bench_run $T 2ranks 60 "$BIN/p2p_cost" 50 4 ---gpumpi -n 2
    bench_run $T 5ranks 60 "$BIN/pingpong" $PP_ARGS ---gpumpi -n 5
    bench_run $T 4ranks 60 "$BIN/collectives" $CO_ARGS ---gpumpi -n 4
    bench_run $T 64ranks 60 "$BIN/collectives" 20 2 1 2 ---gpumpi -n 64
    bench_run $T 4ranks 60 "$BIN/iallreduce" $CO_ARGS ---gpumpi -n 4
    bench_run $T 2ranks 60 "$BIN/msgrate" $MR_ARGS ---gpumpi -n 2
    bench_run $T 7ranks 60 "$BIN/msgrate" $MR_ARGS ---gpumpi -n 7
    bench_run $T 8ranks 60 "$BIN/stencil" 6 5 2 ---gpumpi -n 8 --private 0
    bench_run $T 8ranks-private 60 "$BIN/stencil" 6 5 2 ---gpumpi -n 8 --private 64k
    bench_run $T 12ranks 60 "$BIN/halo_anatomy" 16 5 cart ---gpumpi -n 12
    bench_run $T 12ranks-world 60 "$BIN/halo_anatomy" 16 5 world ---gpumpi -n 12
    bench_run $T 16ranks 60 "$BIN/allpairs" 16 2 ---gpumpi -n 16
    bench_run $T 33ranks 60 "$BIN/fanin" 4 24 2 ---gpumpi -n 33
}
bench_summary
[ "$BENCH_FAILED" -eq 0 ] || fail "$BENCH_FAILED run(s) not ok: $(grep -v '^ok' "$BENCH_STATUS")"

# every figure is there and is a number (times above zero)
R=$BENCH_REC
for shape in 2ranks 5ranks; do
    for bytes in 0 8 64 512 4096 65536; do
        grep -q "^$T $shape pingpong .* bytes=$bytes .*half_rtt_us_med=[0-9.]* bw_GBs=[0-9.]*\$" "$R" ||
            fail "no ping-pong figures for $bytes bytes at $shape"
    done
done
for n in 4 64; do
    for op in barrier bcast8 reduce8 allreduce8 gather8 scatter8; do
        grep -q "^$T ${n}ranks $op ranks=$n calls=[0-9]* reps=[0-9]* us=[0-9.]* us_med=[0-9.]*\$" "$R" ||
            fail "no $op figures at $n ranks"
    done
done
for op in allreduce8_ref iallreduce8; do
    grep -q "^$T 4ranks $op ranks=4 calls=[0-9]* reps=[0-9]* us=[0-9.]* us_med=[0-9.]*\$" "$R" || fail "no $op figures at 4 ranks"
done
grep -q "^$T 7ranks msgrate ranks=7 pairs=3 .*Mmsgs_best=[0-9.]*" "$R" || fail "no message-rate figures at 7 ranks"
for shape in 8ranks 8ranks-private; do
    grep -q "^$T $shape stencil ranks=8 n=6 gcells=[0-9.e+-]* sweep_gcells=[0-9.e+-]* halo_us=[0-9.]*\$" "$R" ||
        fail "no stencil figures at $shape"
done
for shape in 12ranks:cart 12ranks-world:world; do
    grep -q "^$T ${shape%:*} halo_anatomy ranks=12 count=16 comm=${shape#*:} irecv_us=[0-9.]* .*total_max=[0-9.]*\$" "$R" ||
        fail "no halo_anatomy figures ($shape)"
done
grep -q "^$T 16ranks allpairs ranks=16 bytes=16 s_best=[0-9.]* s_med=[0-9.]*\$" "$R" || fail "no allpairs figures"
grep -q "^$T 33ranks fanin ranks=33 msgs=4 bytes=24 rep=1 s=[0-9.]* msgs_per_s=[0-9]* " "$R" || fail "no fan-in figures"
awk '{ for (i = 4; i <= NF; i++) if ($i ~ /^(half_rtt_us_min|half_rtt_us_med|us|us_med|Mmsgs_best|Mmsgs_med)=/) {
           x = $i; sub(/^[^=]*=/, "", x); if (x + 0 <= 0) { print "not above zero: " $0; bad = 1 } } }
     END { exit bad }' "$R" || fail "a figure is not above zero"
grep -q "^pingpong verified: " "$BENCH_LOG" && grep -q "^collectives verified: " "$BENCH_LOG" &&
    grep -q "^msgrate verified: " "$BENCH_LOG" && grep -q "^iallreduce verified: " "$BENCH_LOG" ||
    fail "a verified line is missing"

# the checks catch a wrong byte: rank 1 corrupts its 512-byte messages
out=$(timeout 60 "$BIN/pingpong" 20 4096 0 1 2 512 ---gpumpi -n 2 2>&1)
st=$?
[ $st -ne 0 ] && echo "$out" | grep -q "pingpong: FAILED on rank 0: wrong payload byte (message of 512 bytes" ||
    fail "a corrupted payload byte went unnoticed (status $st): $out"
echo "-- a corrupted byte is caught: $(echo "$out" | grep FAILED)"
echo "-- bench smoke test passed; results in $BENCH_LOG"
