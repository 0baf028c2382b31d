# Output checks shared by the threads-backend tests and the GPU runs.
# Each check runs a built program and fails with a message saying what was
# wrong. Source this file; BIN arguments are paths to built programs.

fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }

# run BIN ARGS... : output in $OUT_TXT, stderr in $ERR_TXT, status in $STATUS
run() {
    OUT_TXT=$(mktemp); ERR_TXT=$(mktemp)
    timeout "${GPUMPI_TEST_TIMEOUT:-120}" "$@" >"$OUT_TXT" 2>"$ERR_TXT"
    STATUS=$?
    [ $STATUS -eq 124 ] && fail "$* timed out (hang?); stderr: $(head -c 2000 "$ERR_TXT")"
    return 0
}

# expect_line NAME BIN N LINE: BIN with N ranks exits 0 and prints LINE.
expect_line() {
    run "$2" ---gpumpi -n "$3"
    [ $STATUS -eq 0 ] || fail "$1 with $3 ranks: status $STATUS: $(cat "$OUT_TXT" "$ERR_TXT")"
    grep -qxF "$4" "$OUT_TXT" || fail "$1 with $3 ranks: $(cat "$OUT_TXT")"
}

# largest_resident BIN: the most ranks BIN can run at once, from the
# launcher's refusal of a shape far too big (blocks of 128).
largest_resident() {
    "$1" ---gpumpi -g 1000000 -b 128 2>&1 | sed -n 's/.*Use at most \([0-9]*\) ranks.*/\1/p'
}

# check_hello BIN N: every rank greets once; rank 0 echoes the arguments.
check_hello() {
    run "$1" alpha "two words" ---gpumpi -n "$2"
    [ $STATUS -eq 0 ] || fail "hello exited with $STATUS: $(cat "$ERR_TXT")"
    r=0
    while [ $r -lt "$2" ]; do
        c=$(grep -c "^Hello from rank $r of $2 on ." "$OUT_TXT")
        [ "$c" = 1 ] || fail "hello: rank $r greeted $c times"
        r=$((r + 1))
    done
    [ "$(wc -l <"$OUT_TXT")" -eq $(($2 + 2)) ] || fail "hello: unexpected lines: $(cat "$OUT_TXT")"
    grep -qx "argument 1: alpha" "$OUT_TXT" && grep -qx "argument 2: two words" "$OUT_TXT" ||
        fail "hello: arguments did not reach rank 0: $(cat "$OUT_TXT")"
    note "hello: $2 ranks greeted once each, arguments arrived"
}

# check_hellow BIN N: MPICH's hellow.c.
check_hellow() {
    run "$1" ---gpumpi -n "$2"
    [ $STATUS -eq 0 ] || fail "hellow exited with $STATUS: $(cat "$ERR_TXT")"
    r=0
    while [ $r -lt "$2" ]; do
        grep -qx "Hello world from process $r of $2" "$OUT_TXT" || fail "hellow: no line from rank $r"
        r=$((r + 1))
    done
    [ "$(wc -l <"$OUT_TXT")" -eq "$2" ] || fail "hellow: extra output: $(cat "$OUT_TXT")"
    note "hellow: $2 lines"
}

# check_ring BIN N LAPS [launcher options]: the token sum after LAPS laps.
check_ring() {
    bin=$1 n=$2 laps=$3
    shift 3
    run "$bin" "$laps" ---gpumpi -n "$n" "$@"
    [ $STATUS -eq 0 ] || fail "ring exited with $STATUS: $(cat "$ERR_TXT") $(cat "$OUT_TXT")"
    want=$((laps * n * (n + 1) / 2))
    grep -qx "ring: $n ranks, $laps laps, token $want: OK" "$OUT_TXT" ||
        fail "ring: expected token $want after $laps laps of $n ranks, got: $(cat "$OUT_TXT")"
    note "ring: $n ranks, $laps laps, token $want; $(sed -n 's/ring: \(.* per lap\).*/\1/p' "$OUT_TXT")"
}

# check_cpi BIN N REFERENCE: MPICH's cpi; REFERENCE is the "pi is
# approximately ..." line a CPU MPI printed with N processes.
check_cpi() {
    run "$1" ---gpumpi -n "$2"
    [ $STATUS -eq 0 ] || fail "cpi exited with $STATUS: $(cat "$ERR_TXT")"
    got=$(grep "^pi is approximately" "$OUT_TXT")
    [ "$got" = "$3" ] || fail "cpi with $2 ranks printed \"$got\", the CPU MPI printed \"$3\""
    [ "$(grep -c "^Process [0-9]* of $2 is on ." "$OUT_TXT")" -eq "$2" ] || fail "cpi: missing Process lines"
    note "cpi: $2 ranks: $got (same as the CPU MPI)"
}

# check_exit_status BIN: rank 2 returns 3: the job's status, with nothing
# on stderr (as MPICH's mpiexec); -v names the rank.
check_exit_status() {
    run "$1" ---gpumpi -n 4
    [ $STATUS -eq 3 ] || fail "exit_status: job status $STATUS, expected 3"
    [ -s "$ERR_TXT" ] && fail "exit_status: stderr is not empty: $(cat "$ERR_TXT")"
    run "$1" ---gpumpi -n 4 -v
    [ $STATUS -eq 3 ] || fail "exit_status: job status $STATUS with -v, expected 3"
    grep -q "rank 2 exited with status 3" "$ERR_TXT" || fail "exit_status: -v: no message naming rank 2: $(cat "$ERR_TXT")"
    note "exit_status: status 3, silent; -v names rank 2"
}

# check_truncate BIN: the truncation is reported with both sizes.
check_truncate() {
    run "$1" ---gpumpi -n 2
    [ $STATUS -ne 0 ] || fail "truncate: the job succeeded"
    grep -q "^rank 1: MPI_Recv: message truncated (got 80 bytes, buffer 40)" "$ERR_TXT" ||
        fail "truncate: unexpected message: $(cat "$ERR_TXT")"
    grep -q "returned" "$OUT_TXT" && fail "truncate: the truncated receive returned"
    note "truncate: status $STATUS, $(head -1 "$ERR_TXT")"
}

# check_abort BIN: MPI_Abort(..., 42) ends everything with status 42.
check_abort() {
    run "$1" ---gpumpi -n 4
    [ $STATUS -eq 42 ] || fail "abort: job status $STATUS, expected 42"
    grep -qx "rank 1 aborting" "$OUT_TXT" || fail "abort: output before the abort was lost"
    note "abort: status 42"
}

# check_printmany BIN N LINES: N*LINES whole lines, each rank's in order.
check_printmany() {
    run "$1" "$3" ---gpumpi -n "$2"
    [ $STATUS -eq 0 ] || fail "printmany exited with $STATUS"
    awk -v n="$2" -v lines="$3" '
        $1 != "rank" || $3 != "line" || $6 != "end" || NF != 6 { print "malformed line " NR ": " substr($0, 1, 80); exit 1 }
        {
            r = $2; l = $4
            if (l != seen[r] + 0) { print "rank " r ": line " l " arrived when line " seen[r] + 0 " was due"; exit 1 }
            want = (l % 10 == 0) ? 300 : 20
            if (length($5) != want || $5 + 0 != r) { print "rank " r " line " l ": payload mangled"; exit 1 }
            seen[r]++; total++
        }
        END {
            if (total != n * lines) { print "got " total " lines, expected " n * lines; exit 1 }
        }' "$OUT_TXT" >"$OUT_TXT.why" || fail "printmany: $(cat "$OUT_TXT.why")"
    [ "$(grep -c "^rank [0-9]* done$" "$ERR_TXT")" -eq "$2" ] || fail "printmany: stderr lines lost"
    note "printmany: $(($2 * $3)) lines whole and in order"
}

# check_p2p BIN N: point-to-point and collective semantics.
check_p2p() {
    expect_line p2p_semantics "$1" "$2" "p2p_semantics: OK"
    note "p2p_semantics: $2 ranks OK"
}

# check_live_output BIN: "started" must arrive a good while before
# "finished" (the program computes for 2 s between them).
check_live_output() {
    OUT_TXT=$(mktemp)
    timeout "${GPUMPI_TEST_TIMEOUT:-120}" "$1" ---gpumpi -n 4 |
        while IFS= read -r line; do echo "$(date +%s.%N) $line"; done >"$OUT_TXT"
    t1=$(awk '$2 == "started" { print $1 }' "$OUT_TXT")
    t2=$(awk '$2 == "finished" { print $1 }' "$OUT_TXT")
    [ -n "$t1" ] && [ -n "$t2" ] || fail "live_output: lines missing: $(cat "$OUT_TXT")"
    awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b - a >= 1.0) }' ||
        fail "live_output: \"started\" arrived only $(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }') s before \"finished\": output is held back"
    note "live_output: the first line arrived $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", b - a }') s before the last"
}

# check_multifile BIN N: two translation units linked into one program.
check_multifile() {
    expect_line multifile "$1" "$2" "sum of 1..1000 = 500500.0"
    note "multifile: $2 ranks OK"
}

# check_globals BIN N: per-rank globals, static locals, __thread.
check_globals() {
    expect_line globals "$1" "$2" "globals: OK"
    note "globals: $2 ranks each with their own copies"
}

# check_envp BIN: main's third parameter carries the environment.
check_envp() {
    GPUMPI_TEST_VAR=1 run "$1" x ---gpumpi -n 3
    [ $STATUS -eq 0 ] || fail "main_envp: status $STATUS: $(cat "$OUT_TXT" "$ERR_TXT")"
    [ "$(grep -cx "argc 2, GPUMPI_TEST_VAR seen" "$OUT_TXT")" -eq 3 ] || fail "main_envp: $(cat "$OUT_TXT")"
    note "main_envp: every rank sees the environment"
}
