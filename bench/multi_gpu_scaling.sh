#!/bin/sh
# One job over several GPUs against one GPU (issues 27 and 28), on the GPU
# machine, in one command:
#   sh bench/multi_gpu_scaling.sh B [GPUS...]          (default GPUS: 1 2)
# B holds heat, cg, pingpong and collectives built for the GPU
# (`bench/side_by_side.sh build B` for the apps, gpumpicc -O2 for the two
# benchmarks). For each GPU count G (G launcher processes under mpirun, one
# GPU each; G = 1 alone):
#   - heat (dim 3, HEAT_N^3 points, 50 steps) and cg (CG_N 3 3000 1e-8) at
#     every per-GPU rank count in NPS; every run must print VERIFY PASS
#     with the result of the first;
#   - ping-pong between world rank 0 (GPU 0) and the first rank of the
#     last GPU, one rank a GPU: 8-byte half round trip, 1 MiB bandwidth;
#   - MPI_Barrier and 8-byte MPI_Allreduce over every resident rank of the
#     G GPUs (bench/collectives).
# Writes $OUT (default mgpu_out): runs.csv (every run) and table.md (each
# app's best time per GPU count and the speedup over one GPU, best against
# best and at the same total rank count).
# Environment: HEAT_N (512), CG_N (256), NPS ("32768 65536 131072"),
# MPIRUN (mpirun --allow-run-as-root --bind-to none), LIMIT (s a run, 120).
set -u
B=$(cd "$1" && pwd)
shift
GPUS=${*:-1 2}
HEAT_N=${HEAT_N:-512} CG_N=${CG_N:-256} NPS=${NPS:-"32768 65536 131072"} LIMIT=${LIMIT:-120}
MPIRUN=${MPIRUN:-"mpirun --allow-run-as-root --bind-to none"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUTD=${OUT:-mgpu_out}
mkdir -p "$OUTD"
OUTD=$(cd "$OUTD" && pwd)
LOG=$OUTD/log.txt
: >"$LOG"
echo "what,gpus,ranks_per_gpu,value,unit,status" >"$OUTD/runs.csv"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | tee -a "$LOG"
printf 'dim 3\nn %s\nsteps 50\nr 0.15\nhalo isend\n' "$HEAT_N" >"$OUTD/heat.in"

# launch G NP PROGRAM ARGS...: the program over G GPUs, NP ranks each
launch() {
    g=$1 np=$2
    shift 2
    if [ "$g" = 1 ]; then
        timeout "$LIMIT" "$@" ---gpumpi -n "$np"
    else
        # shellcheck disable=SC2086
        timeout "$LIMIT" $MPIRUN -np "$g" "$@" ---gpumpi -n "$np"
    fi
}
record() { echo "$1,$2,$3,$4,$5,$6" >>"$OUTD/runs.csv"; }
# a value from name=value in the lines of $out that match $1
field() { echo "$out" | grep -- "$1" | sed -n "s/.* $2=\([0-9.e+-]*\).*/\1/p" | head -1; }

MAX=$("$B/collectives" ---gpumpi -g 1000000 -b 128 2>&1 | sed -n 's/.*Use at most \([0-9]*\) ranks.*/\1/p')
echo "largest resident count a GPU: ${MAX:-unknown}" | tee -a "$LOG"
for g in $GPUS; do
    for app in heat cg; do
        for np in $NPS; do
            case $app in heat) args="$OUTD/heat.in" ;; *) args="$CG_N 3 3000 1e-8" ;; esac
            # shellcheck disable=SC2086
            out=$(cd "$OUTD" && launch "$g" "$np" "$B/$app" $args 2>&1)
            st=$?
            echo "== $app $g GPUs x $np: status $st" >>"$LOG"
            echo "$out" >>"$LOG"
            t=$(echo "$out" | sed -n "s/^$app: time \([0-9.e+-]*\) s.*/\1/p" | tail -1)
            res=$(echo "$out" | sed -n 's/^VERIFY PASS result=\([^ ]*\).*/\1/p')
            ref=$(sed -n "s/^$app-result,\(.*\)/\1/p" "$OUTD/results.tmp" 2>/dev/null)
            v=PASS
            if [ $st -ne 0 ] || [ -z "$res" ]; then v="FAILED($st)"
            elif [ -z "$ref" ]; then echo "$app-result,$res" >>"$OUTD/results.tmp"
            elif ! awk -v a="$ref" -v b="$res" 'BEGIN { d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= 1e-5 * s) }'; then
                v="WRONG($res, first $ref)"
            fi
            record "$app" "$g" "$np" "$t" s "$v"
            echo "$app on $g GPU(s) x $np ranks: ${t:-?} s $v"
        done
    done
    if [ "$g" -gt 1 ]; then
        out=$(launch "$g" 1 "$B/pingpong" 200 1048576 0 $((g - 1)) 3 2>&1)
        echo "$out" >>"$LOG"
        lat=$(field "bytes=8 " half_rtt_us_min) bw=$(field "bytes=1048576 " bw_GBs)
        record pingpong8_half_rtt "$g" 1 "$lat" us "rank 0 (GPU 0) to rank $((g - 1)) (GPU $((g - 1)))"
        record pingpong1MiB "$g" 1 "$bw" GB/s "rank 0 (GPU 0) to rank $((g - 1)) (GPU $((g - 1)))"
        echo "ping-pong GPU 0 to GPU $((g - 1)): 8 B ${lat:-?} us, 1 MiB ${bw:-?} GB/s"
    else
        out=$(launch 1 2 "$B/pingpong" 200 1048576 0 1 3 2>&1)
        echo "$out" >>"$LOG"
        lat=$(field "bytes=8 " half_rtt_us_min) bw=$(field "bytes=1048576 " bw_GBs)
        record pingpong8_half_rtt 1 2 "$lat" us "two ranks of one GPU"
        record pingpong1MiB 1 2 "$bw" GB/s "two ranks of one GPU"
        echo "ping-pong within one GPU: 8 B ${lat:-?} us, 1 MiB ${bw:-?} GB/s"
    fi
    if [ -n "$MAX" ]; then
        out=$(launch "$g" "$MAX" "$B/collectives" 0 3 200 3 2>&1)
        echo "$out" >>"$LOG"
        for op in barrier allreduce8 bcast8 reduce8; do
            us=$(field "^$op ranks=" us)
            record "$op" "$g" "$MAX" "$us" us "$(echo "$out" | grep -c '^collectives verified')"
            echo "$op over $g x $MAX ranks: ${us:-?} us"
        done
    fi
done
rm -f "$OUTD/results.tmp"

# the table: each app's best passing time per GPU count, the speedup over
# one GPU's best, and over one GPU at the same total rank count
{
    echo "| app | GPUs | best time (s) | at ranks per GPU | speedup, best against one GPU best | speedup at the same total ranks |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: |"
    awk -F, '
    NR == 1 || ($1 != "heat" && $1 != "cg") || $6 != "PASS" { next }
    { k = $1 SUBSEP $2; if (!(k in best) || $4 + 0 < best[k] + 0) { best[k] = $4; at[k] = $3 }
      t[$1 SUBSEP $2 SUBSEP $2 * $3] = $4; apps[$1] = 1; gpus[$2] = 1 }
    END {
        for (a in apps) for (g in gpus) {
            k = a SUBSEP g
            if (!(k in best)) continue
            one = best[a SUBSEP 1]
            same = t[a SUBSEP 1 SUBSEP g * at[k]]
            printf "| %s | %s | %s | %s | %s | %s |\n", a, g, best[k], at[k],
                one != "" ? sprintf("%.2fx", one / best[k]) : "-",
                same != "" ? sprintf("%.2fx (%s s on one GPU)", same / best[k], same) : "-"
        }
    }' "$OUTD/runs.csv" | sort
} >"$OUTD/table.md"
cat "$OUTD/table.md"
grep -q 'FAILED\|WRONG' "$OUTD/runs.csv" && { echo "multi_gpu_scaling: some runs failed (runs.csv)"; exit 1; }
exit 0
