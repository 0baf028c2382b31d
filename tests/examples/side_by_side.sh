#!/bin/sh
# bench/side_by_side.sh end to end at small sizes: the threads backend in
# place of CUDA, MPICH as the CPU MPI; every run passes and matches, the
# table has a row per app and rank count, and the plot is drawn.
#   side_by_side.sh BUILD_DIR SOURCE_DIR
BUILD=$(cd "$1" && pwd) SRC=$(cd "$2" && pwd)
. "$SRC/tests/e2e/checks.sh"
command -v mpicc.mpich >/dev/null || { echo "skipped: no MPICH"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
OUT=$W/out SBS_SIZE=small MPICC=mpicc.mpich CPU_NPS="1 2" GPU_NPS="3 8 max" \
    GPUMPICC="$BUILD/bin/gpumpicc --backend=threads" sh "$SRC/bench/side_by_side.sh" all "$W/bin" >"$W/log" 2>&1 ||
    fail "side_by_side.sh failed: $(tail -30 "$W/log")"
rows=$(grep -c '^| [a-z]* | `' "$W/out/side_by_side.md")
[ "$rows" = 12 ] || fail "expected 12 table rows (6 apps x 2 rank counts): $(cat "$W/out/side_by_side.md")"
grep '^| [a-z]* | `' "$W/out/side_by_side.md" | grep -v '| PASS / PASS | yes |$' && fail "a row did not pass or match"
[ "$(awk -F, 'NR > 1' "$W/out/side_by_side.csv" | wc -l)" = 12 ] || fail "side_by_side.csv: $(cat "$W/out/side_by_side.csv")"
note "side_by_side: 6 apps, gpumpi (threads) at 3 and 8 ranks, MPICH at 1 and 2: all PASS, results match"
if command -v gnuplot >/dev/null; then
    sh "$SRC/bench/plot_side_by_side.sh" "$W/out/runs.csv" "$W/plot.png" >/dev/null || fail "plot_side_by_side.sh failed"
    [ -s "$W/plot.png" ] || fail "no plot"
    note "plot drawn"
else
    note "no gnuplot here: the plot was not tried"
fi
