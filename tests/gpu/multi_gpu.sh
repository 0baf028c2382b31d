#!/bin/sh
# Several GPUs in one job (issue 27), on a machine with two or more: one
# launcher process per GPU under the host MPI's mpirun, one MPI_COMM_WORLD.
# B holds the programs built for the GPU (conf/: the conformance programs;
# hello, pingpong, collectives). Prints what it measured; fails at the
# first program that does not print " No Errors".
#   multi_gpu.sh B [PROCS] [RANKS_PER_GPU...]
B=$1 P=${2:-2}
shift 2 2>/dev/null || shift $#
COUNTS=${*:-4 1024}
MPIRUN="mpirun --allow-run-as-root --bind-to none -np $P"
failed=""
$MPIRUN "$B/hello" ---gpumpi -n 2 -v 2>&1 | grep -v "^gpumpi: per rank\|^gpumpi: globals" | head -20
for n in $COUNTS; do
    for path in "$B"/conf/*; do
        t=$(basename "$path")
        out=$(timeout 120 $MPIRUN "$path" ---gpumpi -n "$n" 2>&1)
        st=$?
        if [ $st -ne 0 ] || ! echo "$out" | grep -qx " No Errors"; then
            failed="$failed $t@${P}x$n"
            echo "FAILED $t at $P x $n: status $st"
            echo "$out" | head -c 1500
        fi
    done
    echo "-- conformance at $P GPUs x $n ranks: $(ls "$B/conf" | wc -l) programs run"
done
[ -z "$failed" ] && echo "-- every conformance program: No Errors" || echo "-- failed:$failed"
