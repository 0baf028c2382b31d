#!/bin/sh
# One end-to-end test on the threads backend: build a program with gpumpicc
# --backend=threads and run its check.
#   run_threads.sh BUILD_DIR SOURCE_DIR CASE
BUILD=$1 SRC=$2 CASE=$3
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
build() { "$BUILD/bin/gpumpicc" --backend=threads -O1 "$1" -o "$W/$2" || fail "gpumpicc could not build $1"; }

# The reference for cpi: MPICH's own cpi with the same process count.
mpich_cpi_line() {
    command -v mpicc.mpich >/dev/null || fail "mpicc.mpich not found: install Debian's mpich (the test compares with it)"
    [ -x "$W/cpi_mpich" ] || mpicc.mpich -O2 /usr/share/doc/mpich/examples/cpi.c -o "$W/cpi_mpich" -lm || fail "mpicc.mpich failed"
    mpiexec.mpich -n "$1" "$W/cpi_mpich" | grep "^pi is approximately"
}

MPICH_EXAMPLES=/usr/share/doc/mpich/examples
case $CASE in
hello) build "$SRC/examples/hello.c" hello && check_hello "$W/hello" 1 && check_hello "$W/hello" 4 && check_hello "$W/hello" 64 ;;
hellow)
    [ -f $MPICH_EXAMPLES/hellow.c ] || fail "$MPICH_EXAMPLES/hellow.c missing: install mpich-doc"
    build $MPICH_EXAMPLES/hellow.c hellow && check_hellow "$W/hellow" 4 && check_hellow "$W/hellow" 16 ;;
ring) build "$SRC/examples/ring.c" ring && for n in 1 2 5 64; do check_ring "$W/ring" $n 3; done ;;
cpi)
    [ -f $MPICH_EXAMPLES/cpi.c ] || fail "$MPICH_EXAMPLES/cpi.c missing: install mpich-doc"
    build $MPICH_EXAMPLES/cpi.c cpi
    for n in 1 2 4 8; do
        ref=$(mpich_cpi_line $n) && [ -n "$ref" ] || fail "MPICH's cpi gave no result with $n processes"
        check_cpi "$W/cpi" $n "$ref"
    done ;;
exit_status) build "$SRC/tests/programs/exit_status.c" p && check_exit_status "$W/p" ;;
truncate) build "$SRC/tests/programs/truncate.c" p && check_truncate "$W/p" ;;
abort) build "$SRC/tests/programs/abort.c" p && check_abort "$W/p" ;;
printmany) build "$SRC/tests/programs/printmany.c" p && check_printmany "$W/p" 64 200 ;;
p2p) build "$SRC/tests/programs/p2p_semantics.c" p && for n in 1 2 3 8 17 64; do check_p2p "$W/p" $n; done ;;
live_output) build "$SRC/tests/programs/live_output.c" p && check_live_output "$W/p" ;;
multifile)
    "$BUILD/bin/gpumpicc" --backend=threads "$SRC/tests/programs/multifile/main.c" "$SRC/tests/programs/multifile/work.c" \
        -o "$W/p" || fail "gpumpicc could not build two files into one program"
    check_multifile "$W/p" 3 ;;
semantics)
    # converted constructs that must also behave as in C, not only compile
    build "$SRC/tests/converter/golden/designators.c" d && expect_line designators "$W/d" 3 "designators ok"
    build "$SRC/tests/converter/golden/block_extern.c" b && expect_line block_extern "$W/b" 2 "counter 3"
    build "$SRC/tests/converter/golden/static_locals.c" s && expect_line static_locals "$W/s" 3 "static locals 11 13 100 101"
    note "designated initializers, block-scope externs and static locals behave as in C" ;;
complex)
    # a converted program with complex arithmetic prints what gcc's build prints
    build "$SRC/tests/programs/complex_math.c" c
    cc -O2 "$SRC/tests/programs/complex_math.c" -o "$W/native" -lm || fail "cc could not build complex_math.c"
    "$W/native" >"$W/native.out" && "$W/c" ---gpumpi -n 1 >"$W/c.out" || fail "complex_math failed"
    diff "$W/native.out" "$W/c.out" || fail "complex_math: the converted program's output differs from gcc's (above)"
    note "complex arithmetic and functions print as with gcc" ;;
envp) build "$SRC/tests/converter/golden/main_envp.c" p && check_envp "$W/p" ;;
globals)
    "$BUILD/bin/gpumpicc" --backend=threads "$SRC/tests/programs/globals/main.c" "$SRC/tests/programs/globals/other.c" \
        -o "$W/p" || fail "gpumpicc could not build the globals test"
    for n in 1 2 7 64; do check_globals "$W/p" $n; done
    # each rank's globals in its private memory (the default), filled by
    # the rank itself (pointers between globals relocated into it); in a
    # small one, and in the shared heap
    for p in 8k 0; do
        export GPUMPI_PRIVATE=$p
        for n in 2 7; do check_globals "$W/p" $n; done
    done
    unset GPUMPI_PRIVATE ;;
mpich)
    # the examples are plain MPI: they build and pass under a CPU MPI too
    command -v mpicc.mpich >/dev/null || fail "mpicc.mpich not found: install Debian's mpich"
    mpicc.mpich "$SRC/examples/ring.c" -o "$W/ring" && mpicc.mpich "$SRC/examples/hello.c" -o "$W/hello" ||
        fail "the examples do not build with mpicc.mpich"
    mpiexec.mpich -n 3 "$W/ring" 2 | grep -qx "ring: 3 ranks, 2 laps, token 12: OK" || fail "ring under MPICH"
    [ "$(mpiexec.mpich -n 3 "$W/hello" | grep -c "^Hello from rank")" -eq 3 ] || fail "hello under MPICH"
    note "examples build and run under MPICH" ;;
*) fail "unknown case $CASE" ;;
esac
