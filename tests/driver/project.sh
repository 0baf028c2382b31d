#!/bin/sh
# A multi-directory project (a static library, a header with extern
# globals, two programs) built three ways with gpumpi -- make CC=gpumpicc,
# CMake with gpumpicc as the C compiler, and bear + mpicc then gpumpi-build --
# and each result compared with the same project under MPICH. Then the
# inputs gpumpi-build must refuse, each with one line naming the file.
#   project.sh BUILD_DIR SOURCE_DIR [BACKEND] [OUT_DIR]
# With OUT_DIR the programs of the three routes and MPICH's output are put
# there instead of run (tests/gpu/run.sh runs them on a GPU).
BUILD=$1 SRC=$2 BACKEND=${3:-threads} KEEP=$4
case $KEEP in /* | "") ;; *) KEEP=$PWD/$KEEP ;; esac
. "$SRC/tests/e2e/checks.sh"
G=$BUILD/bin/gpumpicc B=$BUILD/bin/gpumpi-build
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export GPUMPI_BACKEND=$BACKEND
for t in mpicc.mpich mpiexec.mpich bear cmake make ar; do
    command -v $t >/dev/null || fail "$t not found: run scripts/install-deps.sh"
done
fresh() { rm -rf "$W/$1" && cp -r "$SRC/tests/project" "$W/$1" && cd "$W/$1" || exit 1; }

# the reference: MPICH
fresh ref
make -s CC=mpicc.mpich >make.log 2>&1 || fail "the project does not build with mpicc: $(cat make.log)"
mpiexec.mpich -n 4 apps/sums >"$W/want_sums" && mpiexec.mpich -n 4 apps/weights 3 >"$W/want_weights" ||
    fail "the project does not run under MPICH"
grep -q "OK$" "$W/want_sums" || fail "sums under MPICH: $(cat "$W/want_sums")"

same() { # NAME SUMS WEIGHTS: both programs with 4 ranks print what MPICH's did
    if [ -n "$KEEP" ]; then
        d=$KEEP/$(echo "$1" | tr -c 'a-z\n' _)
        mkdir -p "$d" && cp "$2" "$3" "$W/want_sums" "$W/want_weights" "$d/" || fail "cannot keep $1's programs"
        note "$1: built, kept in $d"
        return
    fi
    run "$2" ---gpumpi -n 4
    [ $STATUS -eq 0 ] && cmp -s "$OUT_TXT" "$W/want_sums" || fail "$1: sums printed $(cat "$OUT_TXT" "$ERR_TXT")"
    run "$3" 3 ---gpumpi -n 4
    [ $STATUS -eq 0 ] && cmp -s "$OUT_TXT" "$W/want_weights" || fail "$1: weights printed $(cat "$OUT_TXT" "$ERR_TXT")"
    note "$1: both programs match MPICH"
}

# 1. make CC=gpumpicc (objects, an ar archive of gpumpicc objects, links by $(CC))
fresh make
make -s CC="$G" >make.log 2>&1 || fail "make CC=gpumpicc: $(cat make.log)"
same "make CC=gpumpicc" apps/sums apps/weights

# 2. CMake with gpumpicc as the C compiler
fresh cmake
cmake -S . -B b -DCMAKE_C_COMPILER="$G" >cmake.log 2>&1 || fail "cmake with gpumpicc: $(tail -30 cmake.log)"
cmake --build b >>cmake.log 2>&1 || fail "cmake --build with gpumpicc: $(tail -30 cmake.log)"
same "cmake with gpumpicc" b/sums b/weights

# 3. bear records an ordinary mpicc build; gpumpi-build rebuilds it for gpumpi
fresh bear
bear -- make -s CC=mpicc.mpich >bear.log 2>&1 && [ -s compile_commands.json ] || fail "bear -- make: $(cat bear.log)"
"$B" -j 2 >build.log 2>&1 || fail "gpumpi-build: $(cat build.log)"
same "bear + gpumpi-build" gpumpi/sums gpumpi/weights
"$B" -j 2 >again.log 2>&1 || fail "gpumpi-build again: $(cat again.log)"
[ -s again.log ] && fail "gpumpi-build rebuilt an unchanged project: $(cat again.log)"
sleep 1 && touch lib/sum.c
"$B" >touched.log 2>&1 || fail "gpumpi-build after touch: $(cat touched.log)"
grep -q "compiled 1 of 5 files" touched.log || fail "after touching one file: $(cat touched.log)"
sleep 1 && touch include/shared.h
"$B" >touched.log 2>&1 && grep -q "compiled 5 of 5 files" touched.log || fail "after touching the header: $(cat touched.log)"
note "gpumpi-build: nothing rebuilt when nothing changed, one file after touching it, all after the header"

# 4. what gpumpi-build refuses: one line naming the file, non-zero exit
refuse() { # WHAT PATTERN
    "$B" -p "$W/bad" >"$W/out" 2>"$W/err" && fail "gpumpi-build accepted $1"
    [ "$(wc -l <"$W/err")" -eq 1 ] && grep -Eq "$2" "$W/err" || fail "$1: expected one line /$2/, got: $(cat "$W/err" "$W/out")"
    note "refused $1: $(cat "$W/err")"
}
mkdir -p "$W/bad" && cd "$W/bad" || exit 1
refuse "a missing compile_commands.json" "bad/compile_commands.json: missing"
entry() { printf '[{"directory": "%s", "file": "%s", "arguments": ["cc", "-c", "%s"]}]\n' "$W/bad" "$1" "$1" >compile_commands.json; }
entry gone.c
refuse "an entry whose file does not exist" "bad/gone.c: listed in compile_commands.json but does not exist"
echo 'int main() { return 0; }' >prog.cpp && entry prog.cpp
refuse "a C++ source" "bad/prog.cpp: a C\+\+ or CUDA source"
echo '      end' >prog.f90 && entry prog.f90
refuse "a Fortran source" "bad/prog.f90: a Fortran source"
printf '#include <setjmp.h>\nint main(void) { jmp_buf b; return setjmp(b); }\n' >jump.c && entry jump.c
"$B" -p "$W/bad" >"$W/out" 2>"$W/err" && fail "gpumpi-build accepted a file that cannot be converted"
grep -q "jump.c:2:.*error: .*setjmp" "$W/err" && grep -q "gpumpi-build: .*jump.c: did not compile" "$W/err" ||
    fail "conversion error: $(cat "$W/err")"
note "refused a conversion error, naming jump.c"
# two files defining one function: the link error names both sources
printf 'int f(void) { return 1; }\nint main(void) { return f(); }\n' >one.c
printf 'int f(void) { return 2; }\n' >two.c
printf '[{"directory": "%s", "file": "one.c", "arguments": ["cc", "-c", "one.c"]},\n {"directory": "%s", "file": "two.c", "arguments": ["cc", "-c", "two.c"]}]\n' \
    "$W/bad" "$W/bad" >compile_commands.json
"$B" -p "$W/bad" >"$W/out" 2>"$W/err" && fail "gpumpi-build linked two definitions of f"
grep -q "'f' is defined in both $W/bad/\(one\|two\).c and $W/bad/\(one\|two\).c" "$W/err" ||
    fail "duplicate symbol: $(cat "$W/err")"
note "a duplicate symbol names both source files"
note "project: all checks passed"
