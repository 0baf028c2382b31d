#!/bin/sh
# The benchmarks on a GPU machine, in one command: gpumpi binaries built
# elsewhere (sh bench/build_gpu_binaries.sh bench -> .gpubuild/bench), and
# the same sources built here with this machine's CPU MPI for comparison.
#   sh bench/gpu_run.sh [BINDIR [MAX_RANKS]]
# BINDIR defaults to .gpubuild/bench. MAX_RANKS: the rank count for the
# largest collectives run; by default the largest co-resident count, which
# the launcher states when refused a launch too large; 0 skips that run.
# Results go to $OUT (or bench_out): bench_results.txt (every run's whole
# output and the summary), records.txt (the figures), status.txt. Every run
# has a time limit, and all of them share BENCH_BUDGET_S (default 420 s):
# runs that would start past it are skipped, so a hang cannot eat the
# device time. Order: most wanted first, the risky large runs last.
# COLL_RANKS, MR_RANKS and PP_WIDE (the rank count of the ping-pong with
# idle ranks) change the rank counts; with threads-backend binaries and
# small counts the script can be tried out on any machine.
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-.gpubuild/bench}
MAX=${2:-}
DIR=${OUT:-bench_out}
. "$SRC/bench/bench_lib.sh"
bench_init "$DIR" "${BENCH_BUDGET_S:-420}"
G=gpumpi
COLL_RANKS=${COLL_RANKS:-"4 1024 4096 32768"}
MR_RANKS=${MR_RANKS:-"1024 32768"}
PP_WIDE=${PP_WIDE:-4096}
{
    echo "=== gpu_run.sh $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
    cat "$B/BUILD_INFO" 2>/dev/null
    nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader 2>&1
    echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
    echo "arguments: pingpong $PP_ARGS; collectives $CO_ARGS; msgrate $MR_ARGS"
} | tee -a "$BENCH_LOG"
for p in pingpong collectives msgrate p2p_cost iallreduce stencil halo_anatomy allpairs; do
    [ -x "$B/$p" ] || { echo "no $B/$p: run sh bench/build_gpu_binaries.sh bench where gpumpicc is, carry $B" | tee -a "$BENCH_LOG"; exit 1; }
done

# shellcheck disable=SC2086
{
    # ping-pong: ranks in different blocks, then in one block (one warp)
    bench_run $G 2blocks 90 "$B/pingpong" $PP_ARGS ---gpumpi -v -g 2 -b 1
    bench_run $G 1block 90 "$B/pingpong" $PP_ARGS ---gpumpi -v -g 1 -b 2
    # large messages with the copy service beside the ranks (blocks of whole warps)
    bench_run $G 2x128 90 "$B/pingpong" $PP_ARGS 0 255 ---gpumpi -v -g 2 -b 128
    # what one call costs when nobody waits, beside the half round trip
    bench_run $G 2blocks 30 "$B/p2p_cost" 200 4 ---gpumpi -v -g 2 -b 1
    # the CPU MPI here, from source
    bench_cpu "${MPICC:-mpicc}" /tmp/gpumpi_bench_cpu 2 16
    # collectives over all ranks
    for n in $COLL_RANKS; do
        bench_run $G ${n}ranks 90 "$B/collectives" $CO_ARGS ---gpumpi -v -n $n
    done
    if [ -z "$MAX" ]; then
        MAX=$(timeout -k 5 30 "$B/collectives" ---gpumpi -g 1000000 -b 128 2>&1 | sed -n 's/.*Use at most \([0-9]*\) ranks.*/\1/p')
        echo "largest co-resident rank count in blocks of 128: ${MAX:-unknown}" | tee -a "$BENCH_LOG"
    fi
    # at the largest count too the call count is fitted to 200 ms: with a few
    # calls the ranks' spread out of the call before lands in the figure
    # (H100, 270,336 ranks: barrier 20.8 us per call over 30 calls, 8.6 us
    # over 15,849)
    [ -n "$MAX" ] && [ "$MAX" -gt 0 ] && bench_run $G ${MAX}ranks 180 "$B/collectives" 0 3 200 3 ---gpumpi -v -n $MAX
    # 8-byte MPI_Iallreduce + MPI_Wait against MPI_Allreduce, over all
    # ranks, 200 calls a measurement: fitted to the blocking call's time
    # the count made the nonblocking one (66x slower: 343 us at 4,096 ranks
    # on an H200) run past the limits at 4,096 and 32,768 ranks, and take
    # the budget of everything after it (session 20)
    for n in $COLL_RANKS; do
        bench_run $G ${n}ranks 90 "$B/iallreduce" 200 3 200 2 ---gpumpi -v -n $n
    done
    [ -n "$MAX" ] && [ "$MAX" -gt 0 ] && bench_run $G ${MAX}ranks 180 "$B/iallreduce" 3 3 1 2 ---gpumpi -v -n $MAX
    # message rate, pairs rank ^ 1
    bench_run $G 2blocks 60 "$B/msgrate" $MR_ARGS ---gpumpi -v -g 2 -b 1
    # ping-pong between ranks 0 and the last while all others wait in a barrier
    bench_run $G ${PP_WIDE}ranks 90 "$B/pingpong" 1000 65536 ---gpumpi -v -n $PP_WIDE
    for n in $MR_RANKS; do
        bench_run $G ${n}ranks 120 "$B/msgrate" 20 16 8 3 ---gpumpi -v -n $n
    done
    # issue 25's workload figures: the stencil (each rank's own blocks, in
    # the shared heap and in private memory), the halo exchange's phases,
    # and the all-pairs exchange (its limits are the issue's targets, x20)
    for n in 32768 $MAX; do
        bench_run $G ${n}ranks 90 "$B/stencil" 8 20 3 ---gpumpi -v -n $n --private 0
        bench_run $G ${n}ranks-private 90 "$B/stencil" 8 20 3 ---gpumpi -v -n $n --private auto
        bench_run $G ${n}ranks 60 "$B/halo_anatomy" 16 30 cart ---gpumpi -v -n $n
    done
    bench_run $G 1024ranks 30 "$B/allpairs" 8 3 ---gpumpi -v -n 1024
    bench_run $G 4096ranks 60 "$B/allpairs" 8 2 ---gpumpi -v -n 4096
}
bench_summary | tee -a "$BENCH_LOG"
echo "total $(($(date +%s) - BENCH_T0)) s; results in $BENCH_LOG"
