#!/bin/sh
# An autotools project (tests/driver/autotools: AC_PROG_CC's C11 check,
# AC_CHECK_HEADERS, AC_CHECK_FUNCS, AC_CHECK_LIB, libtool building a
# library) configured and built unmodified with CC=gpumpicc alone, and the
# same with MPICH's mpicc: configure must find the same things (config.h,
# but for <dlfcn.h>, which gpumpi does not have: a rank cannot load
# libraries) and the program must print what MPICH's did with 4 ranks.
# The generated files are made here (autoreconf), never committed.
#   autotools.sh BUILD_DIR SOURCE_DIR
BUILD=$1 SRC=$2
. "$SRC/tests/e2e/checks.sh"
G=$BUILD/bin/gpumpicc
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
for t in autoreconf libtoolize automake mpicc.mpich mpiexec.mpich make; do
    command -v $t >/dev/null || fail "$t not found: run scripts/install-deps.sh"
done
cp -r "$SRC/tests/driver/autotools" "$W/src" && cd "$W/src" || exit 1
autoreconf -fi >"$W/autoreconf.log" 2>&1 || fail "autoreconf -fi: $(cat "$W/autoreconf.log")"

build() { # DIR CC: configure and make a copy of the project in DIR
    cp -r "$W/src" "$W/$1" && cd "$W/$1" || exit 1
    ./configure CC="$2" >configure.out 2>&1 || fail "configure CC=$2: $(tail -20 configure.out; tail -60 config.log)"
    make >make.log 2>&1 || fail "make with CC=$2: $(tail -40 make.log)"
}

build mpich mpicc.mpich
mpiexec.mpich -n 4 ./ring >"$W/want" 2>&1 || fail "the project does not run under MPICH: $(cat "$W/want")"
grep -q "token 106" "$W/want" || fail "under MPICH: $(cat "$W/want")"

GPUMPI_BACKEND=threads build gpumpi "$G"
grep -q "option to enable C11 features... none needed" configure.out ||
    fail "configure found no C11 in gpumpicc: $(grep 'C11\|C99' configure.out)"
grep -v HAVE_DLFCN_H "$W/mpich/config.h" >"$W/want.h"
grep -v HAVE_DLFCN_H config.h >"$W/got.h"
diff "$W/want.h" "$W/got.h" >"$W/config.diff" || fail "configure with gpumpicc found other things than with mpicc: $(cat "$W/config.diff")"
note "configure CC=gpumpicc: the same config.h as with mpicc (but <dlfcn.h>)"
grep -q "libtool: link: ar" make.log || fail "libtool did not build the library: $(cat make.log)"
run ./ring ---gpumpi -n 4
[ $STATUS -eq 0 ] && cmp -s "$OUT_TXT" "$W/want" || fail "ring printed $(cat "$OUT_TXT" "$ERR_TXT"), MPICH $(cat "$W/want")"
note "./configure && make with CC=gpumpicc (libtool library, threads backend): 4 ranks print what MPICH's do"
