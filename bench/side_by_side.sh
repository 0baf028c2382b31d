#!/bin/sh
# The mini-apps of examples/ under a CPU MPI and under gpumpi, side by side:
# same sources, same problem sizes; both runs must print VERIFY PASS and
# agree on the result; the table gives the times and the speedup.
#
#   sh bench/side_by_side.sh build [DIR]   gpumpi binaries into DIR (default
#                                          .gpubuild/examples), with GPUMPICC
#                                          (default build/bin/gpumpicc: CUDA)
#   sh bench/side_by_side.sh run [DIR...]  on the GPU machine: the binaries in
#                                          DIR, the CPU versions built there
#                                          from source with MPICC; several
#                                          DIRs (two builds of gpumpi, say
#                                          before and after a change) run
#                                          in turn, each labelled
#                                          gpumpi-<DIR's name>
#   sh bench/side_by_side.sh all [DIR]     both, on one machine
#
# Build where gpumpicc is, carry DIR (git-ignored .gpubuild/ needs `carry`),
# run on the device machine: nothing there needs nvcc.
# Environment:
#   MPICC     the CPU MPI's compiler wrapper (default mpicc); MPIRUN its
#             launcher (default: found beside it)
#   CPU_NPS   CPU process counts (default: nproc); the last is the one in
#             the table's speedup
#   GPU_NPS   gpumpi rank counts (default "1024 4096 32768 max"; max: the
#             largest co-resident count, asked of the launcher per app).
#             Not 4: at the large sizes a handful of GPU threads would take
#             minutes (each rank's loops run at one thread's pace); the
#             small-rank-count runs are the tests' business (tests/gpu)
#   APPS      which apps (default: all six)
#   SBS_SIZE  large (default, for a GPU machine) or small (a quick try, e.g.
#             with GPUMPICC="build/bin/gpumpicc --backend=threads")
#   SBS_REPS  runs of each app, build and rank count (default 3); the
#             table takes the fastest that passed, on either side (the CPU
#             side's times vary most: one run of heat on 16 cores took
#             0.23 s in one session and 0.33 s in the next)
#   SBS_BUDGET_S  overall time budget in seconds (default 540): runs that
#             would start past it are skipped
#   OUT       results directory (default sbs_out): side_by_side.md and .csv
#             (the table), runs.csv (every run), log.txt (every output);
#             bench/plot_side_by_side.sh OUT/runs.csv draws the plot
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
MODE=${1:-all}
[ $# -gt 0 ] && shift
BINS=
for d in "${@:-.gpubuild/examples}"; do
    case $d in /*) ;; *) d=$PWD/$d ;; esac
    BINS="$BINS $d"
done
[ "$MODE" = run ] || [ $# -le 1 ] || { echo "side_by_side: $MODE takes one DIR" >&2; exit 2; }
BIN=${BINS# }
BIN=${BIN%% *}
APPS=${APPS:-"heat cg bucketsort nbody montecarlo taskfarm"}
SBS_SIZE=${SBS_SIZE:-large}

# the problem of each app: its arguments (heat: an input file written
# into the run directory), and the relative tolerance when comparing the
# results of two runs (0: the same text)
app_args() {
    case $SBS_SIZE:$1 in
    large:heat) printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' >"$RUN/heat.in"; echo heat.in ;;
    large:cg) echo "128 3 3000 1e-8" ;;
    large:bucketsort) echo "67108864 1 auto" ;;
    large:nbody) echo "65536 2 1e-4 2d" ;;
    large:montecarlo) echo "10000000000 1" ;;
    large:taskfarm) echo "100000 1000" ;;
    small:heat) printf 'dim 3\nn 24\nsteps 20\nr 0.15\nhalo isend\n' >"$RUN/heat.in"; echo heat.in ;;
    small:cg) echo "16 3 500 1e-8" ;;
    small:bucketsort) echo "100000 1 auto" ;;
    small:nbody) echo "256 2 1e-4 2d" ;;
    small:montecarlo) echo "1000000 1" ;;
    small:taskfarm) echo "200 100" ;;
    *) echo "side_by_side: no problem for $1 at size $SBS_SIZE" >&2; exit 2 ;;
    esac
}
app_tol() {
    case $1 in heat | nbody) echo 1e-9 ;; cg) echo 1e-5 ;; *) echo 0 ;; esac
}

do_build() {
    G=${GPUMPICC:-$SRC/build/bin/gpumpicc}
    mkdir -p "$BIN"
    for a in $APPS; do
        rm -rf "$BIN/src-$a"
        cp -r "$SRC/examples/$a" "$BIN/src-$a"
        make -s -C "$BIN/src-$a" clean >/dev/null 2>&1
        echo "== building $a with $G"
        # shellcheck disable=SC2086
        make -s -C "$BIN/src-$a" MPICC="$G" || { echo "side_by_side: $a did not build with $G"; exit 1; }
        mv "$BIN/src-$a/$a" "$BIN/$a"
        rm -rf "$BIN/src-$a"
    done
    {
        echo "built $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname) with $G"
        echo "commit $(git -C "$SRC" rev-parse HEAD 2>/dev/null)$(git -C "$SRC" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
    } >"$BIN/BUILD_INFO"
    cat "$BIN/BUILD_INFO"
}

# --- running
T0=$(date +%s)
budget_left() { echo $((${SBS_BUDGET_S:-540} - ($(date +%s) - T0))); }

# the CPU MPI's launcher and the flags it needs here (as bench_lib.sh)
cpu_setup() {
    CC_=${MPICC:-mpicc}
    command -v "$CC_" >/dev/null 2>&1 || { echo "side_by_side: no $CC_ here: CPU runs skipped" | tee -a "$LOG"; CC_=; return; }
    MPIRUN_=${MPIRUN:-}
    if [ -z "$MPIRUN_" ]; then
        case $CC_ in
        *mpicc.mpich) MPIRUN_=mpiexec.mpich ;;
        *mpicc.openmpi) MPIRUN_=mpirun.openmpi ;;
        *)
            d=$(dirname "$(command -v "$CC_")")
            for c in "$d/mpirun" "$d/mpiexec" mpirun mpiexec; do
                command -v "$c" >/dev/null 2>&1 && { MPIRUN_=$c; break; }
            done ;;
        esac
    fi
    MPIFLAGS=
    CPU_IMPL=cpu-mpi
    case $("$MPIRUN_" --version 2>&1 | head -3) in
    *"Open MPI"* | *OpenRTE*)
        CPU_IMPL=openmpi
        MPIFLAGS="--oversubscribe --bind-to none --mca btl_vader_single_copy_mechanism none"
        [ "$(id -u)" = 0 ] && MPIFLAGS="$MPIFLAGS --allow-run-as-root"
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
    *HYDRA* | *MPICH*) CPU_IMPL=mpich ;;
    esac
    echo "CPU MPI: $CC_ with $MPIRUN_ $MPIFLAGS ($CPU_IMPL)" | tee -a "$LOG"
    mkdir -p "$RUN/cpu"
    for a in $APPS; do
        rm -rf "$RUN/cpu/src-$a"
        cp -r "$SRC/examples/$a" "$RUN/cpu/src-$a"
        make -s -C "$RUN/cpu/src-$a" clean >/dev/null 2>&1
        if make -s -C "$RUN/cpu/src-$a" MPICC="$CC_" CFLAGS="-O2 -w" >>"$LOG" 2>&1; then
            mv "$RUN/cpu/src-$a/$a" "$RUN/cpu/$a"
        else
            echo "side_by_side: $a did not build with $CC_ (see $LOG)" | tee -a "$LOG"
        fi
    done
}

# one run: IMPL APP RANKS LIMIT COMMAND...; appends a line to runs.csv
one_run() {
    impl=$1 app=$2 np=$3 limit=$4
    shift 4
    left=$(budget_left)
    if [ "$left" -lt 15 ]; then
        echo "== $impl $app $np ranks: skipped, $left s of the budget left" | tee -a "$LOG"
        echo "$app,\"$ARGS\",$impl,$np,,SKIPPED,," >>"$OUTD/runs.csv"
        return
    fi
    [ "$limit" -gt $((left - 5)) ] && limit=$((left - 5))
    echo "== $impl $app $np ranks (limit $limit s): $*" | tee -a "$LOG"
    (cd "$RUN" && timeout -k 5 "$limit" "$@") </dev/null >"$RUN/out" 2>&1
    rc=$?
    cat "$RUN/out" >>"$LOG"
    t=$(sed -n "s/^$app: time \([0-9.e+-]*\) s.*/\1/p" "$RUN/out" | tail -1)
    res=$(sed -n 's/^VERIFY PASS result=\([^ ]*\).*/\1/p' "$RUN/out")
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then st=TIMEOUT
    elif [ $rc -ne 0 ]; then st="FAILED($rc)"
    elif [ -z "$res" ]; then st=UNVERIFIED
    else st=PASS; fi
    echo "-- $st, $rc, time ${t:--} s, result ${res:--}" | tee -a "$LOG"
    [ "$st" = PASS ] || grep -E 'VERIFY|gpumpi:|rank [0-9]+:|rror' "$RUN/out" | head -5
    echo "$app,\"$ARGS\",$impl,$np,$t,$st,$res," >>"$OUTD/runs.csv"
}

same() {
    if [ "$3" = 0 ]; then [ "$1" = "$2" ]
    else awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= t * s) }'; fi
}

do_run() {
    OUTD=${OUT:-sbs_out}
    mkdir -p "$OUTD"
    OUTD=$(cd "$OUTD" && pwd)
    RUN=$OUTD/run
    mkdir -p "$RUN"
    LOG=$OUTD/log.txt
    : >"$LOG"
    echo "app,problem,impl,ranks,time_s,verify,result,match" >"$OUTD/runs.csv"
    {
        echo "=== side_by_side.sh $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), size $SBS_SIZE"
        for b in $BINS; do echo "$b:"; cat "$b/BUILD_INFO" 2>/dev/null; done
        nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader 2>/dev/null
        echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
    } | tee -a "$LOG"
    cpu_setup
    CPU_NPS=${CPU_NPS:-$(nproc)}
    GPU_NPS=${GPU_NPS:-"1024 4096 32768 max"}
    REPS=${SBS_REPS:-3}
    for a in $APPS; do
        ARGS=$(app_args "$a")
        for b in $BINS; do
            label=gpumpi
            [ "$BINS" = " $b" ] || label=gpumpi-$(basename "$b")
            [ -x "$b/$a" ] || { echo "side_by_side: no $b/$a: run the build step" | tee -a "$LOG"; continue; }
            for np in $GPU_NPS; do
                if [ "$np" = max ]; then
                    np=$("$b/$a" ---gpumpi -g 1000000 -b 128 2>&1 | sed -n 's/.*Use at most \([0-9]*\) ranks.*/\1/p')
                    [ -n "$np" ] || { echo "== $a: the launcher states no largest rank count here (threads backend?): max skipped" | tee -a "$LOG"; continue; }
                fi
                for _ in $(seq "$REPS"); do
                    # shellcheck disable=SC2086
                    one_run "$label" "$a" "$np" 240 "$b/$a" $ARGS ---gpumpi -n "$np"
                done
            done
        done
        if [ -n "$CC_" ] && [ -x "$RUN/cpu/$a" ]; then
            for np in $CPU_NPS; do
                for _ in $(seq "$REPS"); do
                    # shellcheck disable=SC2086
                    one_run "$CPU_IMPL" "$a" "$np" 240 "$MPIRUN_" $MPIFLAGS -n "$np" "$RUN/cpu/$a" $ARGS
                done
            done
        fi
    done
    summarize
}

# the table: each gpumpi build and rank count beside the CPU at the last
# CPU count, each the fastest of its runs that passed (a row's verify is
# its worst run's); the match column compares every passing run with the
# app's first
summarize() {
    cpu_last=$(echo "$CPU_NPS" | awk '{ print $NF }')
    : >"$OUTD/match.tmp"
    for a in $APPS; do
        tol=$(app_tol "$a")
        ref=$(awk -F, -v a="$a" '$1 == a && $6 == "PASS" { print $7; exit }' "$OUTD/runs.csv")
        awk -F, -v a="$a" '$1 == a { print $4 " " $3 " " $6 " " $7 }' "$OUTD/runs.csv" |
            while read -r np impl st res; do
                m=-
                if [ "$st" = PASS ] && [ -n "$ref" ]; then
                    if same "$ref" "$res" "$tol"; then m=yes; else m=NO; fi
                fi
                echo "$a,$impl,$np,$m" >>"$OUTD/match.tmp"
            done
    done
    awk -F, 'NR == FNR { m[$1 "," $2 "," $3] = $4; next }
         FNR == 1 { print; next }
         { k = $1 "," $3 "," $4; sub(/,[^,]*$/, "," (k in m ? m[k] : "-")); print }' \
        "$OUTD/match.tmp" "$OUTD/runs.csv" >"$OUTD/runs.tmp" && mv "$OUTD/runs.tmp" "$OUTD/runs.csv"
    rm -f "$OUTD/match.tmp"
    awk -F, -v cpunp="$cpu_last" '
        NR == 1 { next }
        # best: the time so far (t, empty if none passed) and status (s,
        # PASS while every run passed) with this run folded in
        function best_t(t, s) { return $6 == "PASS" && (t == "" || $5 + 0 < t + 0) ? $5 : t }
        function best_s(s) { return s == "" || s == "PASS" ? $6 : s }
        function worst_m(m) { return m == "NO" || $8 == "NO" ? "NO" : m == "-" || $8 == "-" ? "-" : "yes" }
        $3 ~ /^gpumpi/ {
            k = $1 SUBSEP $3 SUBSEP $4
            if (!(k in row)) { row[k] = ++n; app[n] = $1; prob[n] = $2; gb[n] = $3; gnp[n] = $4; gm[n] = $8 }
            i = row[k]; gt[i] = best_t(gt[i]); gst[i] = best_s(gst[i]); gm[i] = worst_m(gm[i])
        }
        $3 !~ /^gpumpi/ && $4 == cpunp {
            if (!($1 in cm)) cm[$1] = $8
            ct[$1] = best_t(ct[$1]); cst[$1] = best_s(cst[$1]); cm[$1] = worst_m(cm[$1]); cimpl = $3
        }
        END {
            print "app,problem,cpu_mpi,cpu_ranks,gpu_build,gpu_ranks,cpu_time_s,gpu_time_s,speedup,cpu_verify,gpu_verify,results_match" > csv
            printf "| app | problem | CPU ranks (%s) | gpumpi build | GPU ranks | CPU time (s) | GPU time (s) | speedup | verify CPU / GPU | results match |\n", cimpl
            print "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- | --- |"
            for (i = 1; i <= n; i++) {
                a = app[i]; c = (a in ct) ? ct[a] : ""; sp = ""
                if (c != "" && gt[i] != "" && gt[i] > 0) sp = sprintf("%.2f", c / gt[i])
                match_ = (gm[i] == "yes" && cm[a] == "yes") ? "yes" : (gm[i] == "NO" || cm[a] == "NO") ? "NO" : "-"
                printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", a, prob[i], cimpl, (a in ct) ? cpunp : "", gb[i], gnp[i], c, gt[i], sp, (a in cst) ? cst[a] : "-", gst[i], match_ > csv
                gsub(/"/, "", prob[i])
                printf "| %s | `%s` | %s | %s | %s | %s | %s | %s | %s / %s | %s |\n", a, prob[i], (a in ct) ? cpunp : "-", gb[i], gnp[i], c == "" ? "-" : c, gt[i] == "" ? "-" : gt[i], sp == "" ? "-" : sp, (a in cst) ? cst[a] : "-", gst[i], match_
            }
        }' csv="$OUTD/side_by_side.csv" "$OUTD/runs.csv" >"$OUTD/side_by_side.md"
    echo
    cat "$OUTD/side_by_side.md"
    bad=$(awk -F, 'NR > 1 && ($6 != "PASS" || $8 == "NO")' "$OUTD/runs.csv" | wc -l)
    echo
    echo "$bad run(s) not PASS or not matching; every run in $OUTD/runs.csv, outputs in $LOG; total $(($(date +%s) - T0)) s"
    [ "$bad" -eq 0 ]
}

case $MODE in
build) do_build ;;
run) do_run ;;
all) do_build && do_run ;;
*) echo "usage: side_by_side.sh build|run|all [DIR]" >&2; exit 2 ;;
esac
