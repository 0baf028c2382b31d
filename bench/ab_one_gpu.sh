#!/bin/sh
# Two kits (bench/build_kit.sh) side by side on one GPU, alternating, so
# that run-to-run spread shows: ping-pong across blocks and within a warp,
# collectives, heat (both halo kinds) and cg. Prints one line per figure,
# tagged with the kit's name; whole outputs go to $OUT/ab_NAME.log. A run
# that fails (heat and cg exit non-zero when their check fails) says so.
#   sh bench/ab_one_gpu.sh KIT_DIR_A KIT_DIR_B [ROUNDS]
A=$1 B=$2 ROUNDS=${3:-2}
O=${OUT:-.}
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
W=$(mktemp -d)
printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' >"$W/h256i.in"
printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo sendrecv\n' >"$W/h256s.in"
printf 'dim 3\nn 512\nsteps 50\nr 0.15\nhalo isend\n' >"$W/h512i.in"
t() { # name kit label command...
    k=$1 label=$2
    shift 2
    s=$(date +%s.%N)
    out=$(timeout 120 "$@" 2>&1)
    st=$?
    e=$(date +%s.%N)
    echo "== $label: $* (status $st, $(awk "BEGIN {print $e - $s}") s)" >>"$O/ab_$k.log"
    echo "$out" >>"$O/ab_$k.log"
    echo "$out" | grep -E "$FILTER" | sed "s/^/$k $label: /"
    [ $st -eq 0 ] || echo "$k $label: FAILED status $st"
}
for r in $(seq "$ROUNDS"); do
    for K in "$A" "$B"; do
        k=$(basename "$K")
        FILTER="bytes=(8|64|512|4096) "
        t "$k" "pp-blocks" "$K/pingpong" 1000 4096 ---gpumpi -g 2 -b 1
        t "$k" "pp-warp" "$K/pingpong" 1000 4096 ---gpumpi -g 1 -b 2
        FILTER="ranks=32768 calls"
        [ "$r" = 1 ] && t "$k" "coll32768" "$K/collectives" 0 3 200 3 ---gpumpi -n 32768
        FILTER="time|VERIFY|converged|iterations"
        t "$k" "heat256i@32768" "$K/heat" "$W/h256i.in" ---gpumpi -n 32768
        t "$k" "heat256s@32768" "$K/heat" "$W/h256s.in" ---gpumpi -n 32768
        t "$k" "heat512i@65536" "$K/heat" "$W/h512i.in" ---gpumpi -n 65536
        t "$k" "cg128@32768" "$K/cg" 128 3 3000 1e-8 ---gpumpi -n 32768
    done
done
rm -rf "$W"
