#!/bin/sh
# Several GPUs in one job (issue 27), on a machine with two or more: one
# launcher process per GPU under the host MPI's mpirun, one MPI_COMM_WORLD.
# B holds the programs built for the GPU (bench/build_kit.sh makes one;
# conformance/: the conformance programs;
# hello). Prints what it checked; ends with the list of failures, status 1
# if any.
#   multi_gpu.sh B [PROCS] [RANKS_PER_GPU...]
# A count "max" is the largest resident count of each program, and runs
# only the programs the one-GPU suite runs there (LARGEST, or $PROGRAMS).
B=$1 P=${2:-2}
shift 2 2>/dev/null || shift $#
COUNTS=${*:-4 1024}
MPIRUN="mpirun --allow-run-as-root --bind-to none -np $P"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
LARGEST=${PROGRAMS:-"p2p_nonblocking p2p_send_reuse p2p_small allreduce_small coll_basic comm_split_dup nbc_basic \
    nbc_stress mprobe status_request attr_finalize info_comm errh_codes errh_return type_darray_contents graph_topo \
    neighbor_coll private_memory bcast_reduce_small"}
failed=""
$MPIRUN "$B/hello" ---gpumpi -n 2 -v 2>&1 | grep -v "^gpumpi: per rank\|^gpumpi: globals" | head -20
# every rank's line arrives whole, from every GPU's launcher process
n=1024
out=$($MPIRUN "$B/hello" ---gpumpi -n $n 2>/dev/null)
whole=$(echo "$out" | grep -cE "^Hello from rank [0-9]+ of $((P * n)) on .+$")
ranks=$(echo "$out" | sed -n 's/^Hello from rank \([0-9]*\) of .*/\1/p' | sort -un | wc -l)
echo "-- hello at $P x $n: $whole whole lines, $ranks ranks, $(echo "$out" | wc -l) lines"
[ "$whole" -eq $((P * n)) ] && [ "$ranks" -eq $((P * n)) ] || failed="$failed hello-lines@${P}x$n"
for n in $COUNTS; do
    progs=$(ls "$B/conformance")
    [ "$n" = max ] && progs=$LARGEST
    t0=$(date +%s)
    for t in $progs; do
        path=$B/conformance/$t
        k=$n
        [ "$n" = max ] && k=$("$path" ---gpumpi -g 1000000 -b 128 2>&1 | sed -n 's/.*Use at most \([0-9]*\) ranks.*/\1/p')
        t1=$(date +%s)
        out=$(timeout 300 $MPIRUN "$path" ---gpumpi -n "$k" 2>&1)
        st=$?
        # at full occupancy each one's time: a slow run and a stuck one differ here
        [ "$n" = max ] && echo "$t at $P x $k: $(($(date +%s) - t1)) s, status $st"
        if [ $st -ne 0 ] || ! echo "$out" | grep -qx " No Errors"; then
            failed="$failed $t@${P}x$k"
            echo "FAILED $t at $P x $k: status $st"
            echo "$out" | head -c 1500
        fi
    done
    echo "-- conformance at $P GPUs x $n ranks: $(echo $progs | wc -w) programs run in $(($(date +%s) - t0)) s"
done
[ -z "$failed" ] && echo "-- every check passed" && exit 0
echo "-- failed:$failed"
exit 1
