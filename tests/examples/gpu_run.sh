#!/bin/sh
# The mini-apps on the GPU at 4, 4096 and the largest co-resident rank
# count (rounded down to a multiple of 1024, so the process grids stay
# balanced). A rank's loops run at one GPU thread's pace, so one problem
# cannot suit both 4 ranks and 270,000: each app runs a small problem at
# 4 and 4096 ranks and a large one at 4096 and the largest count. Every run
# must print VERIFY PASS, and the two runs of a problem the same result
# (within the app's tolerance).
#   sh tests/examples/gpu_run.sh [BINDIR]
# BINDIR: the gpumpi binaries of `sh bench/side_by_side.sh build`
# (default .gpubuild/examples). SMALL, MID, LARGE change the three rank
# counts (default 4 4096 max). Results go to $OUT (or
# examples_gpu_out)/results.txt. Exit status 0 when all passed.
B=${1:-.gpubuild/examples}
case $B in /*) ;; *) B=$PWD/$B ;; esac
SMALL=${SMALL:-4} MID=${MID:-4096} LARGE=${LARGE:-max}
D=${OUT:-examples_gpu_out}
mkdir -p "$D"
D=$(cd "$D" && pwd)
LOG=$D/results.txt
: >"$LOG"
printf 'dim 2\nn 128\nsteps 20\nr 0.2\nhalo sendrecv\n' >"$D/heat2d_small.in"
printf 'dim 3\nn 32\nsteps 20\nr 0.15\nhalo isend\n' >"$D/heat3d_small.in"
printf 'dim 2\nn 600\nsteps 20\nr 0.2\nhalo sendrecv\n' >"$D/heat2d.in"
printf 'dim 3\nn 72\nsteps 20\nr 0.15\nhalo isend\n' >"$D/heat3d.in"
{
    echo "=== tests/examples/gpu_run.sh $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
    cat "$B/BUILD_INFO" 2>/dev/null
    nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null
} | tee -a "$LOG"

# app, tolerance, which rank counts (s: small and mid, l: mid and large), arguments
# nbody runs its 2d mode (a Dims_create grid, log-depth collectives; the
# ring would take one step per rank): 131,072 bodies are 8.4 M interactions
# per rank at 4096 ranks, and at 270,336 (a 528 x 512 grid, one body per
# rank) the 256 grid rows that hold bodies do 512 x 256 per force pass
cases() {
    cat <<'CASES'
heat 1e-9 s heat2d_small.in
heat 1e-9 s heat3d_small.in
cg 1e-5 s 32 3 2000 1e-6
bucketsort 0 s 262144 1 auto
nbody 1e-9 s 1024 1 1e-4 2d
montecarlo 0 s 10000000 1
taskfarm 0 s 5000 100
heat 1e-9 l heat2d.in
heat 1e-9 l heat3d.in
cg 1e-5 l 66 3 2000 1e-6
bucketsort 0 l 4194304 1 auto
nbody 1e-9 l 131072 1 1e-4 2d
montecarlo 0 l 1000000000 1
taskfarm 0 l 20000 100
CASES
}

cases | while read -r app tol which args; do
    if [ "$which" = s ]; then RANKS="$SMALL $MID"; else RANKS="$MID $LARGE"; fi
    [ -x "$B/$app" ] || { echo "FAIL $app: no $B/$app" | tee -a "$LOG"; echo x >>"$D/failed"; continue; }
    ref=
    for np in $RANKS; do
        if [ "$np" = max ]; then
            np=$("$B/$app" ---gpumpi -g 1000000 -b 128 2>&1 </dev/null | sed -n 's/.*Use at most \([0-9]*\) ranks.*/\1/p')
            [ -n "$np" ] || { echo "SKIP $app $args: the launcher states no largest count" | tee -a "$LOG"; continue; }
            [ "$np" -ge 2048 ] && np=$((np / 1024 * 1024))
        fi
        t0=$(date +%s)
        # shellcheck disable=SC2086
        (cd "$D" && timeout -k 5 300 "$B/$app" $args ---gpumpi -n "$np") </dev/null >"$D/out" 2>&1
        rc=$?
        secs=$(($(date +%s) - t0))
        { echo "--- $app $args at $np ranks: exit $rc, $secs s"; cat "$D/out"; } >>"$LOG"
        res=$(sed -n 's/^VERIFY PASS result=\([^ ]*\).*/\1/p' "$D/out")
        st=PASS
        if [ $rc -ne 0 ] || [ -z "$res" ]; then
            st="FAIL(exit $rc)"
        elif [ -z "$ref" ]; then
            ref=$res
        elif ! awk -v a="$ref" -v b="$res" -v t="$tol" 'BEGIN { if (t == 0) exit !(a == b); d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= t * s) }'; then
            st="FAIL(result $res, $ref at ${RANKS%% *} ranks)"
        fi
        [ "$st" = PASS ] || echo x >>"$D/failed"
        printf '%-6s %-10s %-22s %7s ranks %4s s  %s\n' "$st" "$app" "$args" "$np" "$secs" \
            "$(grep -E "^$app: time" "$D/out" | head -1)" | tee -a "$LOG"
        [ "$st" = PASS ] || grep -E 'VERIFY|gpumpi:|rank [0-9]+:' "$D/out" | head -3
    done
done
n=$(cat "$D/failed" 2>/dev/null | wc -l)
rm -f "$D/failed" "$D/out"
echo "$n run(s) failed; every output in $LOG"
[ "$n" -eq 0 ]
