#!/bin/sh
# Builds the benchmarks with a CPU MPI's compiler wrapper and runs them with
# its launcher (found next to the wrapper, or MPIRUN) at the given process
# counts; results, figures and the comparison tables go to OUTDIR.
#   sh bench/run_cpu.sh [MPICC [OUTDIR [NPROCS...]]]
# Defaults: mpicc, bench_cpu_out, 2 and 16 processes. BENCH_QUICK=1 for
# small arguments; PP_ARGS, CO_ARGS, MR_ARGS override each program's.
# Exit status: 0 when every run verified its data, 77 without MPICC.
SRC=$(cd "$(dirname "$0")/.." && pwd)
CC_=${1:-mpicc}
DIR=${2:-bench_cpu_out}
if [ $# -gt 2 ]; then shift 2; else set -- 2 16; fi
command -v "$CC_" >/dev/null || { echo "skipped: no $CC_ on this machine"; exit 77; }
. "$SRC/bench/bench_lib.sh"
bench_init "$DIR" "${BENCH_BUDGET_S:-0}"
bench_cpu "$CC_" "$DIR/bin" "$@"
bench_summary | tee -a "$BENCH_LOG"
echo "results: $BENCH_LOG"
[ "$BENCH_FAILED" -eq 0 ]
