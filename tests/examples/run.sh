#!/bin/sh
# The mini-apps in examples/: each built, unmodified, with gpumpicc (threads
# backend) and with MPICH's mpicc, run at small sizes over several rank
# counts. Every run must exit 0 and print "VERIFY PASS result=X"; the X of
# every run of a case (both MPIs, all rank counts) must agree within the
# app's tolerance: the apps are written so the result does not depend on
# the rank count. Where an app has several ways of computing the same thing
# (nbody's modes), the cases that differ only in that argument must agree
# with each other too.
#   run.sh BUILD_DIR SOURCE_DIR APP
# GPUMPI_NPS and MPICH_NPS change the rank counts.
BUILD=$(cd "$1" && pwd) SRC=$(cd "$2" && pwd) APP=$3
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
G="$BUILD/bin/gpumpicc --backend=threads"

# the cases: argument lists separated by ';', and the relative tolerance;
# MODE_ARG: the argument (field number) that picks a method, not a problem
NPS_G="1 2 4 7 64" NPS_M="1 2 4 7" MODE_ARG=
case $APP in
heat)
    printf 'dim 2\nn 24\nsteps 30\nr 0.2\nhalo sendrecv\ncheck_every 10\n' >"$W/small2d.in"
    printf '# nonblocking halos\ndim 3\nn 9\nsteps 20\nr 0.15\nhalo isend\n' >"$W/small3d.in"
    printf 'dim 2\nn 16\nsteps 10\ntol 0\n' >"$W/fail.in"
    CASES="small2d.in;small3d.in" TOL=1e-9 ;;
cg) CASES="12 3;20 2 500 1e-8" TOL=1e-6 ;;
bucketsort) CASES="20000 5 direct;20000 7 2level" TOL=0 ;;
nbody)
    # 2d: grids 1x1, 2x1, 2x2, 3x2, 7x1 and 8x8 (44 of 64 ranks hold bodies)
    CASES="130 4 1e-3 allgather;130 4 1e-3 ring;130 4 1e-3 2d;97 3 1e-3 allgather 7;97 3 1e-3 2d 7"
    TOL=1e-9 NPS_G="1 2 4 6 7 64" NPS_M="1 2 4 6 7" MODE_ARG=4 ;;
montecarlo) CASES="200000 3" TOL=0 ;;
taskfarm) CASES="150 50" TOL=0 ;;
*) fail "unknown app $APP" ;;
esac
GPUMPI_NPS=${GPUMPI_NPS:-$NPS_G}
MPICH_NPS=${MPICH_NPS:-$NPS_M}

# build both, each in its own copy of the example (the source stays clean)
cp -r "$SRC/examples/$APP" "$W/gp"
make -s -C "$W/gp" MPICC="$G" >"$W/build.log" 2>&1 || fail "$APP: make MPICC=gpumpicc failed: $(cat "$W/build.log")"
have_mpich=0
if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
    have_mpich=1
    cp -r "$SRC/examples/$APP" "$W/cpu"
    make -s -C "$W/cpu" MPICC=mpicc.mpich CFLAGS="-O2 -w" >"$W/build.log" 2>&1 ||
        fail "$APP: make MPICC=mpicc.mpich failed: $(cat "$W/build.log")"
else
    note "no MPICH here: gpumpi runs only"
fi

# one run: IMPL NP ARGS...; prints the result
run_app() {
    impl=$1 np=$2
    shift 2
    if [ "$impl" = gpumpi ]; then
        (cd "$W" && timeout 120 "$W/gp/$APP" "$@" ---gpumpi -n "$np") </dev/null >"$W/out" 2>&1
    else
        (cd "$W" && timeout 120 mpiexec.mpich -n "$np" "$W/cpu/$APP" "$@") </dev/null >"$W/out" 2>&1
    fi
    st=$?
    [ $st -eq 0 ] || fail "$APP $* under $impl at $np ranks: exit status $st: $(tail -5 "$W/out")"
    line=$(grep '^VERIFY ' "$W/out")
    case $line in
    "VERIFY PASS result="*) ;;
    *) fail "$APP $* under $impl at $np ranks: no VERIFY PASS: $(tail -5 "$W/out")" ;;
    esac
    echo "$line" | sed 's/^VERIFY PASS result=\([^ ]*\).*/\1/'
}

# within TOL of the reference (relative; 0: the same text)
same() {
    if [ "$TOL" = 0 ]; then
        [ "$1" = "$2" ]
    else
        awk -v a="$1" -v b="$2" -v t="$TOL" 'BEGIN { d = a - b; if (d < 0) d = -d; s = a < 0 ? -a : a; exit !(d <= t * s) }'
    fi
}

echo "$CASES" | tr ';' '\n' >"$W/cases"
while read -r args; do
    ref=
    runs=
    # shellcheck disable=SC2086
    for np in $GPUMPI_NPS; do
        r=$(run_app gpumpi "$np" $args) || exit 1
        [ -n "$ref" ] || ref=$r
        same "$ref" "$r" || fail "$APP $args: gpumpi at $np ranks gave $r, $ref at ${GPUMPI_NPS%% *}"
        runs="$runs gpumpi/$np"
    done
    if [ $have_mpich = 1 ]; then
        # shellcheck disable=SC2086
        for np in $MPICH_NPS; do
            r=$(run_app mpich "$np" $args) || exit 1
            same "$ref" "$r" || fail "$APP $args: MPICH at $np ranks gave $r, gpumpi $ref"
            runs="$runs mpich/$np"
        done
    fi
    note "$APP $args: VERIFY PASS, result $ref (tolerance $TOL) at$runs"
    if [ -n "$MODE_ARG" ]; then
        # the same problem by another method: the first such case's result
        problem=$(echo "$args" | awk -v f="$MODE_ARG" '{ $f = "-"; print }')
        other=$(awk -v p="$problem" -F'|' '$1 == p { print $2 " " $3; exit }' "$W/refs" 2>/dev/null)
        if [ -n "$other" ]; then
            same "${other%% *}" "$ref" || fail "$APP $args gave $ref, ${other#* } gave ${other%% *}"
            note "$APP $args: the same result as ${other#* }"
        else
            echo "$problem|$ref|$args" >>"$W/refs"
        fi
    fi
done <"$W/cases"

# the verification can fail: heat asked for an impossible accuracy
if [ "$APP" = heat ]; then
    (cd "$W" && timeout 60 "$W/gp/heat" fail.in ---gpumpi -n 3) >"$W/out" 2>&1 && fail "heat with tol 0 passed"
    grep -q '^VERIFY FAIL' "$W/out" || fail "heat with tol 0: no VERIFY FAIL line: $(cat "$W/out")"
    note "heat: an impossible tolerance gives VERIFY FAIL and a non-zero status"
fi

# the apps with a CMakeLists build with CMake and gpumpicc as the compiler
if [ -f "$SRC/examples/$APP/CMakeLists.txt" ] && command -v cmake >/dev/null; then
    GPUMPI_BACKEND=threads cmake -S "$SRC/examples/$APP" -B "$W/cmake" -DCMAKE_C_COMPILER="$BUILD/bin/gpumpicc" \
        >"$W/build.log" 2>&1 && GPUMPI_BACKEND=threads cmake --build "$W/cmake" >>"$W/build.log" 2>&1 ||
        fail "$APP: the CMake build with gpumpicc failed: $(tail -20 "$W/build.log")"
    first=$(echo "$CASES" | cut -d';' -f1)
    mv "$W/gp/$APP" "$W/gp/$APP.make"
    cp "$W/cmake/$APP" "$W/gp/$APP"
    # shellcheck disable=SC2086
    r=$(run_app gpumpi 3 $first) || exit 1
    note "$APP: built with CMake (CMAKE_C_COMPILER=gpumpicc), VERIFY PASS at 3 ranks, result $r"
fi
note "$APP: all runs passed"
