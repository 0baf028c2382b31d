#!/bin/sh
# Nsight Compute on a whole gpumpi program: the rank kernel's counters in
# one pass (no replay). Replaying the kernel cannot work here: the ranks
# talk to the launcher's host thread while they run, and session 16's
# application replay hung at the first pass. So each set below is a few
# raw counters that the GPU collects at once; a set ncu cannot fit in one
# pass is reported and skipped, not replayed.
#
#   sh bench/ncu_profile.sh OUTDIR PROGRAM ARGS... ---gpumpi --service-thread ...
#
# --service-thread is needed: ncu holds the launching thread until the
# kernel ends, and without it that thread is the one serving the ranks.
# Writes OUTDIR/ncu_<set>.csv (ncu's --csv) and OUTDIR/ncu_<set>.log for
# each set: instructions and cycles (how busy the schedulers are, how
# divergent the lanes), memory (L1 and L2 traffic by kind: global, local),
# and stalls (what the warps wait on, per issued instruction).
set -u
OUT=$1
shift
mkdir -p "$OUT"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
LIMIT=${NCU_LIMIT_S:-150}
run_set() {
    name=$1 metrics=$2
    shift 2
    echo "== ncu $name: $*"
    timeout "$LIMIT" "$NCU" --replay-mode kernel --cache-control none --clock-control none \
        -k regex:gp_rank_kernel -c 1 --csv --metrics "$metrics" "$@" >"$OUT/ncu_$name.csv" 2>"$OUT/ncu_$name.log"
    rc=$?
    # a profiled run that hung outlives ncu, holding the GPU (by its process
    # name: a pattern on whole command lines would match this script's)
    pkill -9 -x "$(basename "$1" | cut -c1-15)" 2>/dev/null
    echo "-- rc $rc ($(grep -c . "$OUT/ncu_$name.csv") lines)"
    grep -E '"(sm|smsp|l1tex|lts|dram|gpu)__' "$OUT/ncu_$name.csv" | awk -F'","' '{print $(NF-2), $(NF-1), $NF}' | tr -d '"'
}
run_set issue gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_active.avg,sm__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__issue_active.avg.per_cycle_active,smsp__warps_active.avg.per_cycle_active "$@"
run_set memory l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors.sum,lts__t_requests.sum,dram__bytes.sum "$@"
run_set stalls smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio "$@"
