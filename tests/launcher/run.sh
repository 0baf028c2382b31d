#!/bin/sh
# Launcher tests: options, every way a job ends, the deadlock watchdog, file
# I/O, clocks and environment, output integrity and throughput, --stats,
# gpumpirun. On the threads backend (CTest); on a GPU machine the same with
# GPUMPI_LAUNCHER_BACKEND=cuda, plus the case gpu_scale; there
# GPUMPI_LAUNCHER_PREBUILT=DIR takes the programs from DIR (tests/gpu/build.sh
# builds them; the GPU machine has no converter) instead of building them.
#   run.sh BUILD_DIR SOURCE_DIR CASE
BUILD=$1 SRC=$2 CASE=$3
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
T=$SRC/tests/launcher
# run BIN ARGS...: as checks.sh's, but a status of 124 is the watchdog's to
# give, so a hang is told by SIGKILL (137) instead
run() {
    OUT_TXT=$(mktemp -p "$W"); ERR_TXT=$(mktemp -p "$W")
    timeout -s KILL "${GPUMPI_TEST_TIMEOUT:-120}" "$@" >"$OUT_TXT" 2>"$ERR_TXT"
    STATUS=$?
    [ $STATUS -eq 137 ] && fail "$* was killed after ${GPUMPI_TEST_TIMEOUT:-120} s (hang?); stderr: $(head -c 2000 "$ERR_TXT")"
    return 0
}
BACKEND=${GPUMPI_LAUNCHER_BACKEND:-threads}
# build NAME [conformance]: one of this folder's programs, or of tests/conformance
build() {
    dir=$T prebuilt=$GPUMPI_LAUNCHER_PREBUILT
    [ "$2" = conformance ] && dir=$SRC/tests/conformance prebuilt=$GPUMPI_LAUNCHER_PREBUILT/../conformance
    if [ -n "$GPUMPI_LAUNCHER_PREBUILT" ]; then
        cp "$prebuilt/$1" "$W/$1" || fail "no prebuilt $1 in $prebuilt"
    elif [ "$BACKEND" = cuda ]; then
        "$BUILD/bin/gpumpicc" -O2 "$dir/$1.c" -o "$W/$1" || fail "gpumpicc could not build $1.c for the GPU"
    else
        "$BUILD/bin/gpumpicc" --backend=threads -O1 "$dir/$1.c" -o "$W/$1" || fail "gpumpicc could not build $1.c"
    fi
}

# Every rank's numbered lines (64 ranks, N_LINES each, default 1000) whole and in order in file $1.
check_lines() {
    awk -v n=64 -v lines="${N_LINES:-1000}" '
        $1 != "rank" || $3 != "line" || $5 != "of" || NF != 15 || $15 != "dog" { print "torn or malformed line " NR ": " $0; exit 1 }
        { r = $2; l = $4 + 0
          if (l != seen[r] + 0) { print "rank " r ": line " l " came when line " seen[r] + 0 " was due"; exit 1 }
          seen[r]++; total++ }
        END { if (total != n * lines) { print "got " total " lines, expected " n * lines; exit 1 } }' "$1" >"$W/why"
}
# status_is WHAT WANT: the last run's status
status_is() { [ "$STATUS" -eq "$2" ] || fail "$1: status $STATUS, expected $2; stderr: $(head -c 3000 "$ERR_TXT"); stdout: $(head -c 1000 "$OUT_TXT")"; }
# err_has WHAT TEXT: stderr holds the fixed string TEXT
err_has() { grep -qF -- "$2" "$ERR_TXT" || fail "$1: stderr lacks \"$2\": $(head -c 3000 "$ERR_TXT")"; }
out_has() { grep -qxF -- "$2" "$OUT_TXT" || fail "$1: stdout lacks the line \"$2\": $(head -c 3000 "$OUT_TXT")"; }

case $CASE in
options)
    build lines
    run "$W/lines" 1 ---gpumpi --help
    status_is --help 0
    for o in -n -g -b --device --stack --heap --private --timeout --time-limit --regroup --stats --tag-output -v GPUMPI_NP GPUMPI_TIMEOUT \
        GPUMPI_STACK GPUMPI_HEAP GPUMPI_PRIVATE GPUMPI_REGROUP; do
        grep -q -- "$o" "$OUT_TXT" || fail "--help does not mention $o"
    done
    for bad in "-x" "-n" "-n 0" "-n two" "--timeout -1" "--timeout abc" "--time-limit x" "--stack 12q" "--heap=" "-g 2" "--stats=1" \
        "--private -1" "--private 4q" "--private 1k" "--stack 0" "--regroup -5" "--regroup fast" \
        "-n 9 -g 2 -b 4" "--device -1"; do
        # shellcheck disable=SC2086 # the options are words on purpose
        run "$W/lines" 1 ---gpumpi $bad
        status_is "---gpumpi $bad" 2
        err_has "---gpumpi $bad" "usage:"
    done
    GPUMPI_TIMEOUT=x run "$W/lines" 1
    status_is "GPUMPI_TIMEOUT=x" 2
    err_has "GPUMPI_TIMEOUT=x" "GPUMPI_TIMEOUT"
    GPUMPI_REGROUP=-1 run "$W/lines" 1
    status_is "GPUMPI_REGROUP=-1" 2
    err_has "GPUMPI_REGROUP=-1" "--regroup (from GPUMPI_REGROUP) needs a number of microseconds >= 0"
    GPUMPI_NP=3 run "$W/lines" 2
    status_is GPUMPI_NP 0
    [ "$(wc -l <"$OUT_TXT")" -eq 6 ] || fail "GPUMPI_NP=3 did not run 3 ranks: $(cat "$OUT_TXT")"
    GPUMPI_NP=3 run "$W/lines" 1 ---gpumpi -n 5
    [ "$(wc -l <"$OUT_TXT")" -eq 5 ] || fail "-n 5 did not override GPUMPI_NP=3"
    run "$W/lines" 1 ---gpumpi -g 2 -b 3
    [ "$(wc -l <"$OUT_TXT")" -eq 6 ] || fail "-g 2 -b 3 did not run 6 ranks"
    run "$W/lines" 1 ---gpumpi --timeout=0 --stack=16k --heap=1g --regroup=0 -n 4
    status_is "--name=value options" 0
    [ "$(wc -l <"$OUT_TXT")" -eq 4 ] || fail "--name=value options: $(cat "$OUT_TXT")"
    note "options: --help, 16 malformed command lines refused with status 2, GPUMPI_* defaults, --name=value" ;;
endings)
    build endings
    run "$W/endings" return ---gpumpi -n 4
    status_is "return 3 from main" 3
    # as MPICH's mpiexec: a status returned from main is not reported (-v names the rank)
    [ -s "$ERR_TXT" ] && fail "return 3 from main: stderr is not empty: $(head -c 3000 "$ERR_TXT")"
    run "$W/endings" return ---gpumpi -n 4 -v
    status_is "return 3 from main, -v" 3
    err_has "return, -v" "gpumpi: rank 2 exited with status 3"
    run "$W/endings" exit ---gpumpi -n 4
    status_is "exit(5)" 5
    err_has exit "gpumpi: rank 1 called exit(5)"
    out_has exit "rank 1 before exit"
    grep -q "passed the barrier" "$OUT_TXT" && fail "exit(5): other ranks went on"
    [ "$(tail -n 1 "$ERR_TXT")" = "gpumpi: rank 1 called exit(5)" ] || fail "exit: the reason is not the last line"
    run "$W/endings" exit0 ---gpumpi -n 4
    status_is "exit(0) after MPI_Finalize" 0
    [ "$(grep -c "exits$" "$OUT_TXT")" -eq 4 ] || fail "exit0: $(cat "$OUT_TXT")"
    run "$W/endings" abort ---gpumpi -n 4
    status_is "abort()" 134
    err_has abort "gpumpi: rank 1 called abort()"
    out_has abort "rank 1 before abort"
    run "$W/endings" assert ---gpumpi -n 4
    status_is "failed assert" 134
    err_has assert "rank 2: $T/endings.c:69: main: Assertion \`x == 1' failed."
    run "$W/endings" mpi_abort ---gpumpi -n 4
    status_is "MPI_Abort" 7
    err_has mpi_abort "rank 3: MPI_Abort called with error code 7"
    run "$W/endings" segv ---gpumpi -n 4
    status_is "a fault" 139
    if [ "$BACKEND" = cuda ]; then
        err_has segv "gpumpi: the GPU stopped the ranks: "
        err_has segv "cudaErrorIllegalAddress"
    else
        err_has segv "gpumpi: rank 1: segmentation fault (signal 11)"
    fi
    run "$W/endings" atexit ---gpumpi -n 3
    status_is atexit 0
    for r in 0 1 2; do
        [ "$(grep "^rank $r atexit" "$OUT_TXT" | tr '\n' '|')" = "rank $r atexit second|rank $r atexit first|" ] ||
            fail "atexit: rank $r's handlers: $(cat "$OUT_TXT")"
    done
    mkdir "$W/files"
    run "$W/endings" files "$W/files" ---gpumpi -n 3
    status_is "unclosed files" 0
    for r in 0 1 2; do
        grep -qx "rank $r wrote this and never closed the file" "$W/files/unclosed$r.txt" || fail "rank $r's unclosed file was not flushed"
    done
    for call in rank size allreduce; do
        fn=MPI_Comm_$call
        [ $call = allreduce ] && fn=MPI_Allreduce
        run "$W/endings" before_init $call ---gpumpi -n 3
        status_is "$fn before MPI_Init" 16
        grep -qx "rank [0-2]: $fn: called before MPI_Init" "$ERR_TXT" ||
            fail "$fn before MPI_Init: stderr lacks the line \"rank R: $fn: called before MPI_Init\": $(cat "$ERR_TXT")"
        grep -q "outside MPI returned" "$OUT_TXT" && fail "$fn before MPI_Init returned: $(cat "$OUT_TXT")"
        run "$W/endings" after_finalize $call ---gpumpi -n 3
        status_is "$fn after MPI_Finalize" 16
        grep -qx "rank 1: $fn: called after MPI_Finalize" "$ERR_TXT" ||
            fail "$fn after MPI_Finalize: stderr lacks the line \"rank 1: $fn: called after MPI_Finalize\": $(cat "$ERR_TXT")"
        grep -q "outside MPI returned" "$OUT_TXT" && fail "$fn after MPI_Finalize returned: $(cat "$OUT_TXT")"
    done
    note "endings: return 3, exit(5), exit(0), abort 134, assert 134 (file, line, expression), MPI_Abort 7, SIGSEGV 139, atexit order, unclosed files flushed, MPI_Comm_rank/size and MPI_Allreduce before MPI_Init and after MPI_Finalize stop with status 16" ;;
watchdog)
    build deadlock
    start=$(date +%s)
    run "$W/deadlock" ring ---gpumpi -n 8 --timeout 2
    status_is "deadlock ring" 124
    err_has ring "gpumpi: deadlock: every rank still running has been blocked in MPI for"
    err_has ring "gpumpi:   ranks 0-6: MPI_Recv from rank+1 (tag 0, MPI_COMM_WORLD)"
    err_has ring "gpumpi:   rank 7: MPI_Recv from rank 0 (tag 0, MPI_COMM_WORLD)"
    [ $(($(date +%s) - start)) -lt 15 ] || fail "the watchdog took too long"
    run "$W/deadlock" ring ---gpumpi -n 8 --timeout 1 --service-thread
    status_is "deadlock ring, --service-thread" 124
    err_has ring_thread "gpumpi:   rank 7: MPI_Recv from rank 0 (tag 0, MPI_COMM_WORLD)"
    run "$W/deadlock" ring ---gpumpi -n 64 --timeout 1
    status_is "deadlock ring, 64 ranks" 124
    err_has ring64 "gpumpi:   ranks 0-62: MPI_Recv from rank+1 (tag 0, MPI_COMM_WORLD)"
    run "$W/deadlock" mixed ---gpumpi -n 5 --timeout 1
    status_is "deadlock mixed" 124
    err_has mixed "gpumpi:   rank 0: MPI_Barrier (MPI_COMM_WORLD)"
    err_has mixed "gpumpi:   ranks 1-4: MPI_Recv from rank 0 (tag 5, MPI_COMM_WORLD)"
    run "$W/deadlock" nbc ---gpumpi -n 4 --timeout 1
    status_is "deadlock in a nonblocking collective" 124
    err_has nbc "gpumpi:   rank 0: MPI_Recv from rank 1 (tag 5, MPI_COMM_WORLD)"
    err_has nbc "gpumpi:   ranks 1-2: MPI_Wait: MPI_Iallreduce #0 phase 0 Recv from rank 0 (MPI_COMM_WORLD)"
    run "$W/deadlock" compute 3 ---gpumpi -n 8 --timeout 1
    status_is "a long computation" 0
    out_has compute "compute: done, v 1"
    grep -q deadlock "$ERR_TXT" && fail "a computing rank was reported as a deadlock"
    GPUMPI_TEST_TIMEOUT=20 run timeout 4 "$W/deadlock" ring ---gpumpi -n 4 --timeout 0
    [ "$STATUS" -eq 124 ] && ! grep -q "gpumpi: deadlock" "$ERR_TXT" || fail "--timeout 0 did not turn the watchdog off"
    # the job's time limit (mpiexec's MPIEXEC_TIMEOUT): a rank computing is ended too.
    # One rank a block: on the GPU a rank computing without a pause holds
    # back the ranks of its warp, which then cannot even say where they wait
    # (with -n 4 all four read "running")
    MPIEXEC_TIMEOUT=2 run "$W/deadlock" compute 30 ---gpumpi -g 4 -b 1
    status_is "MPIEXEC_TIMEOUT=2" 124
    err_has "MPIEXEC_TIMEOUT=2" "gpumpi: time limit: the job ran for"
    err_has "MPIEXEC_TIMEOUT=2" "gpumpi:   rank 0: running (not blocked in MPI)"
    err_has "MPIEXEC_TIMEOUT=2" "gpumpi:   ranks 1-3: MPI_Recv from rank 0 (tag 1, MPI_COMM_WORLD)"
    note "watchdog: ring, mixed and nonblocking-collective deadlocks reported with calls and peers (status 124); 3 s of computing is not a deadlock; --timeout 0 is off; MPIEXEC_TIMEOUT ends a computing job (124)" ;;
files)
    build file_io
    if [ "$BACKEND" = cuda ] && ! command -v mpicc.mpich >/dev/null; then
        note "files: no MPICH on this GPU machine; the threads-backend run checks file_io.c under MPICH"
    else
        command -v mpicc.mpich >/dev/null || fail "mpicc.mpich not found: install Debian's mpich"
        mpicc.mpich -O1 -w "$T/file_io.c" -o "$W/file_io_mpich" || fail "file_io.c does not build with MPICH"
        for n in 1 3 4; do
            mkdir "$W/m$n"
            out=$(timeout 120 mpiexec.mpich -n $n "$W/file_io_mpich" "$W/m$n" 2>&1)
            echo "$out" | grep -qx " No Errors" || fail "file_io under MPICH with $n processes: $out"
        done
    fi
    for n in 1 2 7 64; do
        mkdir "$W/g$n"
        run "$W/file_io" "$W/g$n" ---gpumpi -n $n
        status_is "file_io at $n ranks" 0
        out_has "file_io at $n ranks" " No Errors"
        [ -z "$(ls "$W/g$n")" ] || fail "file_io left files behind: $(ls "$W/g$n")"
    done
    note "files: round trips (own file, shared file, tmpfile, rename, remove): No Errors under gpumpi (1, 2, 7, 64)$([ -n "$(command -v mpicc.mpich)" ] && echo " and MPICH (1, 3, 4)")"
    build hostcall_rt
    run "$W/hostcall_rt" 2000 ---gpumpi -n 16
    status_is hostcall_rt 0
    out_has hostcall_rt "hostcall_rt: answers right"
    note "$BACKEND backend: $(cat "$ERR_TXT")" ;;
stdin)
    build stdin_read
    seq 1 5000 >"$W/numbers"
    run sh -c "\"\$0\" ---gpumpi -n 8 <\"\$1\"" "$W/stdin_read" "$W/numbers"
    status_is stdin 0
    out_has stdin "stdin: 5000 lines, sum 12502500, then end of file"
    out_has stdin "stdin: other ranks saw end of file"
    note "stdin: rank 0 read 5000 lines; the other ranks saw end of file" ;;
clocks)
    build clocks_env
    for n in 1 7 64; do
        GPUMPI_TEST_VALUE="alpha=beta gamma" run "$W/clocks_env" "$(date +%s)" ---gpumpi -n $n
        status_is "clocks_env at $n ranks" 0
        out_has "clocks_env at $n ranks" " No Errors"
    done
    note "clocks and environment: getenv, time, gettimeofday, clock_gettime, clock agree with the host at 1, 7, 64 ranks" ;;
output)
    build lines
    start=$(date +%s.%N)
    run "$W/lines" 1000 ---gpumpi -n 64
    end=$(date +%s.%N)
    status_is "64 x 1000 lines" 0
    check_lines "$OUT_TXT" || fail "output: $(cat "$W/why")"
    rate=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", 64000 / (e - s) }')
    note "output: 64 ranks x 1000 lines, none lost, torn or out of order; $rate lines/s end to end ($BACKEND backend, launch included); $(cat "$ERR_TXT")"
    run "$W/lines" 200 stderr ---gpumpi -n 64
    status_is "64 x 200 stderr lines" 0
    grep -v "^lines: " "$ERR_TXT" >"$W/err_lines"
    N_LINES=200 check_lines "$W/err_lines" || fail "stderr: $(cat "$W/why")"
    note "stderr: 64 ranks x 200 lines, each written in three pieces, arrive whole and in order"
    run "$W/lines" 3 ---gpumpi -n 4 --tag-output
    status_is "--tag-output" 0
    for r in 0 1 2 3; do
        [ "$(grep -c "^\[1,$r\]<stdout>:rank $r line [0-2] of 3: the quick" "$OUT_TXT")" -eq 3 ] || fail "--tag-output: rank $r: $(cat "$OUT_TXT")"
    done
    grep -q "^\[1,0\]<stderr>:lines: 4 ranks" "$ERR_TXT" || fail "--tag-output: stderr not tagged: $(cat "$ERR_TXT")"
    [ "$(wc -l <"$OUT_TXT")" -eq 12 ] || fail "--tag-output: extra lines"
    note "--tag-output: every line starts [1,RANK]<stdout>: or [1,RANK]<stderr>:"
    # the host's part on a thread of its own (GPU; the threads backend
    # takes the option and serves as it always does)
    run "$W/lines" 300 ---gpumpi -n 64 --service-thread
    status_is "--service-thread" 0
    N_LINES=300 check_lines "$OUT_TXT" || fail "--service-thread: $(cat "$W/why")"
    note "--service-thread: 64 ranks x 300 lines, none lost, torn or out of order" ;;
stats)
    build stats_prog
    run "$W/stats_prog" ---gpumpi -n 4 --stats
    status_is "--stats" 0
    for r in 0 1 2 3; do
        grep -q "^gpumpi stats: rank $r: sent 10 (1000 bytes), received 10 (1000 bytes), " "$ERR_TXT" ||
            fail "--stats: rank $r: $(cat "$ERR_TXT")"
    done
    grep -Eq "^gpumpi stats: messages sent +10 +10.0 +10 " "$ERR_TXT" || fail "--stats summary: $(cat "$ERR_TXT")"
    grep -Eq "^gpumpi stats: bytes received +1000 +1000.0 +1000 " "$ERR_TXT" || fail "--stats summary: $(cat "$ERR_TXT")"
    run "$W/stats_prog" ---gpumpi -n 4
    grep -q "gpumpi stats" "$ERR_TXT" && fail "stats printed without --stats"
    note "stats: 10 messages and 1000 bytes each way per rank counted" ;;
gpumpirun)
    build lines
    run "$BUILD/bin/gpumpirun" -np 3 --tag-output "$W/lines" 2
    status_is "gpumpirun -np 3 --tag-output" 0
    [ "$(grep -c '^\[1,[0-2]\]<stdout>:rank' "$OUT_TXT")" -eq 6 ] || fail "gpumpirun: $(cat "$OUT_TXT" "$ERR_TXT")"
    run "$BUILD/bin/gpumpirun" -n 2 --timeout 5 --stats "$W/lines" 1
    status_is "gpumpirun --timeout 5 --stats" 0
    err_has "gpumpirun --stats" "gpumpi stats: 2 ranks"
    run "$BUILD/bin/gpumpirun" --bogus "$W/lines"
    status_is "gpumpirun --bogus" 2
    build clocks_env
    run "$BUILD/bin/gpumpirun" -np 3 -x "GPUMPI_TEST_VALUE=alpha=beta gamma" --bind-to core "$W/clocks_env"
    status_is "gpumpirun -x" 0
    out_has "gpumpirun -x" " No Errors"
    note "gpumpirun: -np, -n, --tag-output, --timeout, --stats passed on; -x exports; placement options ignored; unknown options refused" ;;
stack)
    # the GPU build measures the stack (no GPU needed); the threads backend
    # has no figure and says so
    build stack_need
    run "$W/stack_need" ---gpumpi -n 2 -v
    status_is "stack_need (threads)" 0
    if [ "$BACKEND" != cuda ]; then
        err_has "stack -v" "stack per rank 16384 bytes (the default: the build measured nothing)"
        if grep -q '^#define GPUMPI_NVCC ""' "$BUILD/driver/gpumpi_config.h"; then
            echo "skipped: gpumpi was configured without the CUDA toolkit"
            exit 77
        fi
        "$BUILD/bin/gpumpicc" -O2 "$T/stack_need.c" -o "$W/stack_gpu" 2>"$W/gpu.err" || fail "GPU build: $(cat "$W/gpu.err")"
        [ -s "$W/gpu.err" ] && fail "the GPU build printed: $(cat "$W/gpu.err")"
        info=$(strings "$W/stack_gpu" | grep "^GPUMPI-BUILD-STACK:")
        bytes=$(echo "$info" | sed 's/^GPUMPI-BUILD-STACK:\([0-9]*\).*/\1/')
        [ -n "$bytes" ] && [ "$bytes" -ge 40000 ] && [ "$bytes" -lt 60000 ] || fail "recorded stack: $info"
        case $info in *" r") ;; *) fail "recursion not flagged: $info" ;; esac
        note "stack: the GPU build records $bytes bytes for main's 40,000-byte array, recursion flagged; threads: the default"
    else
        err_has "stack -v" "the program's deepest chain of frames"
        note "stack: $(grep "stack per rank" "$ERR_TXT")"
    fi ;;
private)
    # each rank's private memory (--private): -v gives its size and where
    # the globals went; the program's buffers and globals are right with
    # the backend's size (the default), off, too small to use (everything
    # in the shared heap), and from GPUMPI_PRIVATE
    build private_memory conformance
    run "$W/private_memory" ---gpumpi -n 5 -v
    status_is "private default" 0
    out_has "private default" " No Errors"
    err_has "private default -v" "malloc takes blocks of 1k up to half of it there first"
    err_has "private default -v" "bytes per rank, in its private memory (each rank fills its own)"
    run "$W/private_memory" ---gpumpi -n 5 -v --private 0
    status_is "--private 0" 0
    out_has "--private 0" " No Errors"
    err_has "--private 0 -v" "no private memory (--private 0, or too little memory for it: malloc takes every block from the shared heap)"
    err_has "--private 0 -v" "bytes per rank, in shared memory"
    run "$W/private_memory" ---gpumpi -n 5 -v --private auto
    status_is "--private auto" 0
    out_has "--private auto" " No Errors"
    err_has "--private auto -v" "malloc takes blocks of 1k up to half of it there first"
    if [ "$BACKEND" = cuda ]; then
        # a heap the user asked for comes first: one that takes most of
        # the free memory leaves none for private memory, and says so
        free_mib=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits -i "${CUDA_VISIBLE_DEVICES:-0}" | head -1)
        run "$W/private_memory" ---gpumpi -n 5 -v --heap $((free_mib * 17 / 20))m
        status_is "--heap 85% of free" 0
        out_has "--heap 85% of free" " No Errors"
        err_has "--heap 85% of free -v" "no private memory (--private 0, or too little memory for it"
    fi
    run "$W/private_memory" ---gpumpi -n 5 -v --private 8k
    status_is "--private 8k" 0
    out_has "--private 8k" " No Errors"
    err_has "--private 8k -v" "private memory 8192 bytes"
    run "$W/private_memory" ---gpumpi -n 2 --private 4k
    status_is "--private 4k" 2
    err_has "--private 4k" "--private needs 0 (off), auto or at least 8192 bytes (8k): 4k"
    export GPUMPI_PRIVATE=64k
    run "$W/private_memory" ---gpumpi -n 3 -v
    unset GPUMPI_PRIVATE
    status_is "GPUMPI_PRIVATE=64k" 0
    out_has "GPUMPI_PRIVATE=64k" " No Errors"
    err_has "GPUMPI_PRIVATE=64k -v" "private memory 65536 bytes"
    note "private: No Errors by default (auto), off, auto, 8k and with GPUMPI_PRIVATE=64k; -v as expected; 4k refused" ;;
procs)
    # one job over several launcher processes (issue 27): MPICH's mpiexec
    # starts P processes of N ranks each, one MPI_COMM_WORLD of P*N ranks
    command -v mpiexec.mpich >/dev/null || fail "mpiexec.mpich not found: install Debian's mpich"
    M="mpiexec.mpich -n 2"
    build endings
    build deadlock
    build lines
    build stats_prog
    run $M "$W/endings" mpi_abort ---gpumpi -n 2
    status_is "MPI_Abort in a rank of process 1" 7
    err_has "MPI_Abort, 2 processes" "rank 3: MPI_Abort called with error code 7"
    run $M "$W/endings" segv ---gpumpi -n 1
    status_is "a fault in a rank of process 1" 139
    err_has "segv, 2 processes" "gpumpi: rank 1: segmentation fault (signal 11)"
    run $M "$W/endings" return ---gpumpi -n 2 -v
    status_is "rank 2 (process 1) returns 3" 3
    err_has "return, 2 processes" "gpumpi: rank 2 exited with status 3"
    err_has "-v, process 0" "gpumpi: launcher process 0 of 2 (MPICH, pid "
    err_has "-v, process 0" ") runs world ranks 0 to 1 of 4"
    err_has "-v, process 1" ") runs world ranks 2 to 3 of 4"
    [ "$(grep -c "exited with status" "$ERR_TXT")" -eq 1 ] || fail "return, 2 processes: the failure is reported more than once"
    # a deadlock spanning both processes: process 0's watchdog sees every rank
    start=$(date +%s)
    run $M "$W/deadlock" ring ---gpumpi -n 4 --timeout 2
    status_is "deadlock ring over 2 processes" 124
    err_has "ring, 2 processes" "gpumpi: deadlock: every rank still running has been blocked in MPI for"
    err_has "ring, 2 processes" "gpumpi:   ranks 0-6: MPI_Recv from rank+1 (tag 0, MPI_COMM_WORLD)"
    err_has "ring, 2 processes" "gpumpi:   rank 7: MPI_Recv from rank 0 (tag 0, MPI_COMM_WORLD)"
    [ $(($(date +%s) - start)) -lt 20 ] || fail "the watchdog took too long over 2 processes"
    # three processes, rank 0 in a barrier and the others, in all three, waiting for it
    run mpiexec.mpich -n 3 "$W/deadlock" mixed ---gpumpi -n 2 --timeout 1
    status_is "deadlock mixed over 3 processes" 124
    err_has "mixed, 3 processes" "gpumpi:   ranks 1-5: MPI_Recv from rank 0 (tag 5, MPI_COMM_WORLD)"
    # each process's output whole and in order, lines never cut into each other's
    run $M "$W/lines" 1000 ---gpumpi -n 32
    status_is "2 x 32 ranks x 1000 lines" 0
    check_lines "$OUT_TXT" || fail "output of 2 processes: $(cat "$W/why")"
    run $M "$W/lines" 2 ---gpumpi -n 2 --tag-output
    for r in 0 1 2 3; do
        [ "$(grep -c "^\[1,$r\]<stdout>:rank $r line [0-1] of 2: the quick" "$OUT_TXT")" -eq 2 ] || fail "--tag-output, 2 processes: rank $r: $(cat "$OUT_TXT")"
    done
    run $M "$W/stats_prog" ---gpumpi -n 2 --stats
    status_is "--stats, 2 processes" 0
    for r in 0 1 2 3; do
        [ "$(grep -c "^gpumpi stats: rank $r: sent 10 (1000 bytes), received 10 (1000 bytes), " "$ERR_TXT")" -eq 1 ] ||
            fail "--stats, 2 processes: rank $r: $(cat "$ERR_TXT")"
    done
    # the processes must agree
    run mpiexec.mpich -n 1 "$W/lines" 1 ---gpumpi -n 2 : -n 1 "$W/lines" 1 ---gpumpi -n 3
    status_is "-n 2 and -n 3" 2
    err_has "-n 2 and -n 3" "gpumpi: launcher process 1 runs 3 ranks (-n) but process 0 runs 2: give every process of the job the same ---gpumpi options"
    run mpiexec.mpich -n 1 "$W/lines" 1 ---gpumpi -n 2 : -n 1 "$W/endings" ---gpumpi -n 2
    status_is "two programs" 2
    err_has "two programs" "gpumpi: launcher process 1 runs another program or other arguments than process 0"
    GPUMPI_HOST_MPI_LIB=/nonexistent/libmpich.so run $M "$W/lines" 1 ---gpumpi -n 2
    status_is "no host MPI library" 1
    err_has "no host MPI library" "but cannot load its library: /nonexistent/libmpich.so"
    note "procs: over 2 and 3 launcher processes: MPI_Abort (7) and a fault (139) in process 1 end the job, a rank's status is the job's, -v maps ranks to processes, the watchdog reports deadlocks spanning processes (124), 64000 lines whole and in order, --tag-output, --stats over all ranks; different -n, different programs and a missing host MPI refused with a reason" ;;
gpu_scale)
    # on a GPU: every resident rank prints one line; the occupancy refusal
    # fires one block past the limit, with the numbers
    [ "$BACKEND" = cuda ] || fail "gpu_scale needs GPUMPI_LAUNCHER_BACKEND=cuda (and a GPU)"
    build lines
    max=$(largest_resident "$W/lines")
    [ -n "$max" ] || fail "no refusal message for a shape far too big"
    start=$(date +%s.%N)
    run "$W/lines" 1 ---gpumpi -n "$max"
    end=$(date +%s.%N)
    status_is "$max ranks printing a line each" 0
    [ "$(grep -c "^rank [0-9]* line 0 of 1: the quick brown fox jumps over the lazy dog$" "$OUT_TXT")" -eq "$max" ] ||
        fail "$max ranks: $(wc -l <"$OUT_TXT") lines"
    [ "$(cut -d' ' -f2 "$OUT_TXT" | sort -n | uniq | wc -l)" -eq "$max" ] || fail "$max ranks: a rank's line is missing"
    note "gpu_scale: $max ranks printed a line each in $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }') s (launch included); $(cat "$ERR_TXT")"
    blocks=$((max / 128))
    run "$W/lines" 1 ---gpumpi -g $((blocks + 1)) -b 128
    status_is "one block past the limit" 2
    err_has "one block past" "Use at most $max ranks."
    run "$W/lines" 1 ---gpumpi -g $blocks -b 128
    status_is "exactly the limit" 0
    note "gpu_scale: $blocks blocks of 128 run, $((blocks + 1)) are refused with the numbers"
    # a small job: one rank a block, each alone in its warp, and the copy service beside them
    run "$W/lines" 1 ---gpumpi -n 5 -v
    status_is "-n 5" 0
    err_has "-n 5" "launching 5 blocks of 1 rank (32 threads) for 5 ranks"
    err_has "-n 5" "gpumpi: copy service: 32 extra blocks (32 warps)"
    # L1 left for local memory: the 37 blocks need one block's shared memory an SM
    err_has "-n 5" "an SM for 1 block; the rest of L1's array for caching (carveout hint "
    ! grep -qF "none, the driver's choice" "$ERR_TXT" || fail "-n 5: the launcher dropped its L1 hint: $(cat "$ERR_TXT")"
    [ "$(grep -c "^rank [0-4] line 0 of 1: the quick brown fox jumps over the lazy dog$" "$OUT_TXT")" -eq 5 ] ||
        fail "-n 5: $(cat "$OUT_TXT")"
    # blocks of ranks that are not whole warps: the rest of the last warp leaves, the copy service still runs
    run "$W/lines" 1 ---gpumpi -g 3 -b 40 -v
    status_is "-g 3 -b 40" 0
    err_has "-g 3 -b 40" "launching 3 blocks of 40 ranks (64 threads) for 120 ranks"
    err_has "-g 3 -b 40" "gpumpi: copy service: 16 extra blocks (32 warps)"
    [ "$(grep -c "^rank [0-9]* line 0 of 1: the quick brown fox jumps over the lazy dog$" "$OUT_TXT")" -eq 120 ] ||
        fail "-g 3 -b 40: $(wc -l <"$OUT_TXT") lines"
    [ "$(cut -d' ' -f2 "$OUT_TXT" | sort -n | uniq | wc -l)" -eq 120 ] || fail "-g 3 -b 40: a rank's line is missing"
    note "gpu_scale: -n 5 runs one rank in each of 5 blocks of 32 threads (shared memory for one block an SM, L1 the rest), -g 3 -b 40 in blocks of 64 threads, both with a copy service of 32 warps" ;;
*) fail "unknown case $CASE" ;;
esac
