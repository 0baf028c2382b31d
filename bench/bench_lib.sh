# Shared by run_cpu.sh, run_threads.sh and gpu_run.sh (source it): runs each
# benchmark under `timeout` within an overall time budget, keeps its whole
# output in one results file, its figures (the machine-readable lines) in a
# records file, and its outcome in a status file; bench_summary prints the
# tables that compare the implementations.
#
#   bench_init DIR [BUDGET_S]     results in DIR; BUDGET_S 0 or unset: none
#   bench_run IMPL SHAPE TIMEOUT_S COMMAND...
#   bench_summary                 status and comparison tables on stdout
#
# A run is "ok" when it exits 0 and prints its "<name> verified:" line.

bench_init() {
    BENCH_DIR=$1
    mkdir -p "$BENCH_DIR"
    BENCH_LOG=$BENCH_DIR/bench_results.txt
    BENCH_REC=$BENCH_DIR/records.txt
    BENCH_STATUS=$BENCH_DIR/status.txt
    : >"$BENCH_LOG"
    : >"$BENCH_REC"
    : >"$BENCH_STATUS"
    BENCH_T0=$(date +%s)
    BENCH_BUDGET=${2:-0}
    BENCH_FAILED=0
}

# Seconds left of the budget (a large number when there is none).
bench_left() {
    if [ "$BENCH_BUDGET" -gt 0 ]; then
        echo $((BENCH_BUDGET - ($(date +%s) - BENCH_T0)))
    else
        echo 1000000
    fi
}

bench_run() {
    impl=$1 shape=$2 limit=$3
    shift 3
    left=$(bench_left)
    if [ "$left" -lt 20 ]; then
        printf 'skipped %s %s - %s\n' "$impl" "$shape" "$*" >>"$BENCH_STATUS"
        printf '\n=== %s %s: skipped, %s s of the time budget left: %s\n' "$impl" "$shape" "$left" "$*" | tee -a "$BENCH_LOG"
        return 0
    fi
    [ "$limit" -gt $((left - 10)) ] && limit=$((left - 10))
    printf '\n=== %s %s (limit %s s): %s\n' "$impl" "$shape" "$limit" "$*" | tee -a "$BENCH_LOG"
    out=$BENCH_DIR/.run.txt
    t0=$(date +%s)
    timeout -k 5 "$limit" "$@" >"$out" 2>&1
    rc=$?
    secs=$(($(date +%s) - t0))
    cat "$out" >>"$BENCH_LOG"
    # the figures, each line prefixed by who ran it and how
    grep -E '^(pingpong|barrier|bcast8|reduce8|allreduce8|gather8|scatter8|allreduce8_ref|iallreduce8|msgrate|stencil|halo_anatomy|allpairs|fanin) [a-z]+=' "$out" |
        sed "s|^|$impl $shape |" >>"$BENCH_REC"
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        st=TIMEOUT
    elif [ $rc -ne 0 ]; then
        st="FAILED($rc)"
    elif ! grep -qE '^[a-z0-9_]+ verified: ' "$out"; then
        st=UNVERIFIED
    else
        st=ok
    fi
    [ "$st" = ok ] || BENCH_FAILED=$((BENCH_FAILED + 1))
    printf '%s %s %s %s %s\n' "$st" "$impl" "$shape" "$secs" "$*" >>"$BENCH_STATUS"
    printf -- '--- %s, exit status %s, %s s\n' "$st" "$rc" "$secs" | tee -a "$BENCH_LOG"
    # a failure's own words, for the reader of the console
    [ "$st" = ok ] || grep -E 'FAILED|gpumpi:|rank [0-9]+:|error|Error' "$out" | head -5
    rm -f "$out"
    return 0
}

bench_summary() {
    echo
    echo "=== runs (status, implementation, shape, seconds, command)"
    sed 's/^/  /' "$BENCH_STATUS"
    echo "  $BENCH_FAILED run(s) not ok"
    bench_table pingpong "ping-pong: half round trip, us (median of batches; min in brackets)" '$1 "/" $2' \
        'fmt("%.2f", v["half_rtt_us_med"]) "(" fmt("%.2f", v["half_rtt_us_min"]) ")"' bytes
    bench_table pingpong "ping-pong: bandwidth, GB/s (bytes / median half round trip)" '$1 "/" $2' \
        'fmt("%.3f", v["bw_GBs"])' bytes
    bench_table 'barrier|bcast8|reduce8|allreduce8|gather8|scatter8' \
        "collectives: us per call (largest per-rank mean; best of the measurements)" '$1' 'fmt("%.2f", v["us"])' ranks
    bench_table 'allreduce8_ref|iallreduce8' \
        "8-byte MPI_Iallreduce + MPI_Wait against MPI_Allreduce (iallreduce.c): us per call (best)" '$1' \
        'fmt("%.2f", v["us"])' ranks
    bench_table msgrate "message rate: million messages/s over all ranks (best of the measurements)" '$1' \
        'fmt("%.3f", v["Mmsgs_best"])' ranks
    bench_table stencil "stencil: Gcell/s of the whole step / of the sweep alone, halo us per step (best)" '$1 "/" $2' \
        'fmt("%.3g", v["gcells"]) " / " fmt("%.3g", v["sweep_gcells"]) ", " fmt("%.0f", v["halo_us"])' ranks
    bench_table halo_anatomy \
        "halo exchange (6 faces): us per exchange, Irecv x6 + Isend x6 + Waitall = total (mean over ranks)" \
        '$1 "/" $2' \
        'fmt("%.0f", v["irecv_us"]) "+" fmt("%.0f", v["isend_us"]) "+" fmt("%.0f", v["waitall_us"]) "=" fmt("%.0f", v["total_us"])' \
        ranks
    bench_table allpairs "all-pairs exchange: seconds (slowest rank, best)" '$1' 'fmt("%.4f", v["s_best"])' ranks
}

# bench_table OPS TITLE COLUMN CELL ROWKEY: a titled bench_pivot table, if
# any record's name matches OPS.
bench_table() {
    grep -qE " ($1) " "$BENCH_REC" || return 0
    echo
    echo "=== $2"
    bench_pivot "$1" "$3" "$4" "$5"
}

# bench_pivot OPS COLUMN CELL ROWKEY: one table of the records whose name
# matches OPS; rows by name and ROWKEY (numeric order), columns by the awk
# expression COLUMN ($1 implementation, $2 shape), both in the order they
# first appear, cells by the awk
# expression CELL over v[key] (the record's key=value pairs).
bench_pivot() {
    awk -v ops="^($1)\$" -v rowkey="$4" '
        function fmt(f, x) { return sprintf(f, x) }
        $3 ~ ops {
            delete v
            for (i = 4; i <= NF; i++) { k = $i; sub(/=.*/, "", k); x = $i; sub(/^[^=]*=/, "", x); v[k] = x }
            col = ('"$2"')
            if (!(col in seen)) { seen[col] = 1; cols[++nc] = col }
            if (!($3 in opi)) opi[$3] = ++nops
            printf "%04d\t%012d\t%s\t%s\t%s\n", opi[$3], v[rowkey], $3, col, ('"$3"')
        }
        END { for (c = 1; c <= nc; c++) printf "~cols\t%012d\t%s\n", c, cols[c] }
    ' "$BENCH_REC" | sort -t "$(printf '\t')" -k1,1 -k2,2 | awk -F '\t' -v rowkey="$4" '
        $1 == "~cols" { cols[++nc] = $3; next }
        { key = $3 "\t" $2; if (!(key in have)) { have[key] = 1; rows[++nr] = key } cell[key, $4] = $5 }
        END {
            printf "  %-11s %10s", "", rowkey
            for (c = 1; c <= nc; c++) printf " %20s", cols[c]
            printf "\n"
            for (r = 1; r <= nr; r++) {
                split(rows[r], p, "\t")
                printf "  %-11s %10d", p[1], p[2] + 0
                for (c = 1; c <= nc; c++) { x = ((rows[r], cols[c]) in cell) ? cell[rows[r], cols[c]] : "-"; printf " %20s", x }
                printf "\n"
            }
        }'
}

# Benchmark arguments (see each program's header). BENCH_QUICK=1: small
# ones, for the smoke tests.
if [ "${BENCH_QUICK:-0}" = 1 ]; then
    PP_ARGS=${PP_ARGS:-"200 65536"} CO_ARGS=${CO_ARGS:-"0 3 20"} MR_ARGS=${MR_ARGS:-"20 16 8 3"}
else
    PP_ARGS=${PP_ARGS:-"1000 4194304"} CO_ARGS=${CO_ARGS:-"0 3 200"} MR_ARGS=${MR_ARGS:-"100 32 8 3"}
fi

# bench_cpu MPICC BINDIR NPROCS...: builds the benchmarks with MPICC into
# BINDIR and runs each at every process count with the matching launcher
# (MPIRUN overrides it). The implementation is named after the MPI found
# (openmpi, mpich). Open MPI run as root needs --allow-run-as-root, more
# processes than cores need --oversubscribe, and in containers its
# shared-memory single-copy path (CMA) is often refused, so it is turned
# off; if a probe run still fails, the ob1/vader transports are forced.
bench_cpu() {
    cc=$1 bin=$2
    shift 2
    if ! command -v "$cc" >/dev/null 2>&1; then
        printf 'skipped cpu-mpi - no %s on this machine\n' "$cc" >>"$BENCH_STATUS"
        echo "=== CPU MPI: no $cc on this machine, skipped" | tee -a "$BENCH_LOG"
        return 0
    fi
    mpirun=${MPIRUN:-}
    if [ -z "$mpirun" ]; then
        case $cc in
        *mpicc.mpich) mpirun=mpiexec.mpich ;;
        *mpicc.openmpi) mpirun=mpirun.openmpi ;;
        *)
            d=$(dirname "$(command -v "$cc")")
            for c in "$d/mpirun" "$d/mpiexec" mpirun mpiexec; do
                if command -v "$c" >/dev/null 2>&1; then mpirun=$c; break; fi
            done
            ;;
        esac
    fi
    ver=$("$mpirun" --version 2>&1 | head -3)
    flags=
    case $ver in
    *"Open MPI"* | *OpenRTE*)
        impl=openmpi
        flags="--oversubscribe --mca btl_vader_single_copy_mechanism none"
        [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        ;;
    *HYDRA* | *MPICH*) impl=mpich ;;
    *) impl=cpu-mpi ;;
    esac
    {
        echo "=== CPU MPI: $cc with $mpirun ($impl)"
        echo "$ver"
        "$cc" -show 2>/dev/null || "$cc" --showme 2>/dev/null
    } >>"$BENCH_LOG"
    mkdir -p "$bin"
    for p in pingpong collectives msgrate iallreduce; do
        if ! "$cc" -O2 "$SRC/bench/$p.c" -o "$bin/$p" >>"$BENCH_LOG" 2>&1; then
            printf 'FAILED(build) %s - - %s\n' "$impl" "$cc $p.c" >>"$BENCH_STATUS"
            BENCH_FAILED=$((BENCH_FAILED + 1))
            echo "=== CPU MPI: $p did not build with $cc" | tee -a "$BENCH_LOG"
            return 0
        fi
    done
    # a probe: 2 processes, a few 8-byte round trips
    # shellcheck disable=SC2086
    if ! timeout -k 5 60 "$mpirun" $flags -n 2 "$bin/pingpong" 10 8 >>"$BENCH_LOG" 2>&1; then
        if [ "$impl" = openmpi ]; then
            flags="$flags --mca pml ob1 --mca btl self,vader"
            echo "=== the probe failed: now with $flags" >>"$BENCH_LOG"
        fi
        if ! timeout -k 5 60 "$mpirun" $flags -n 2 "$bin/pingpong" 10 8 >>"$BENCH_LOG" 2>&1; then
            printf 'FAILED(probe) %s - - %s\n' "$impl" "$mpirun $flags -n 2 pingpong" >>"$BENCH_STATUS"
            BENCH_FAILED=$((BENCH_FAILED + 1))
            echo "=== CPU MPI: $mpirun cannot run 2 processes here (see the log); CPU runs skipped" | tee -a "$BENCH_LOG"
            return 0
        fi
    fi
    for np in "$@"; do
        # shellcheck disable=SC2086
        bench_run $impl ${np}procs 120 "$mpirun" $flags -n "$np" "$bin/pingpong" $PP_ARGS
    done
    for np in "$@"; do
        # shellcheck disable=SC2086
        bench_run $impl ${np}procs 120 "$mpirun" $flags -n "$np" "$bin/collectives" $CO_ARGS
    done
    for np in "$@"; do
        # shellcheck disable=SC2086
        bench_run $impl ${np}procs 120 "$mpirun" $flags -n "$np" "$bin/msgrate" $MR_ARGS
    done
    for np in "$@"; do
        # shellcheck disable=SC2086
        bench_run $impl ${np}procs 120 "$mpirun" $flags -n "$np" "$bin/iallreduce" $CO_ARGS
    done
}
