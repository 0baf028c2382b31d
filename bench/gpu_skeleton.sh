#!/bin/sh
# Runs the walking-skeleton checks on a GPU machine from binaries built
# elsewhere (bench/build_gpu_binaries.sh), and times the ring at the largest
# rank count the occupancy check allows. Usage: bench/gpu_skeleton.sh BINDIR
B=${1:-.gpubuild}
say() { printf '\n=== %s\n' "$*"; }
run() { echo "+ $*"; "$@"; echo "exit status $?"; }

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
say "small runs"
run $B/hello one "two words" ---gpumpi -g 2 -b 2
run $B/cpi ---gpumpi -g 2 -b 2
run $B/ring 10 ---gpumpi -g 2 -b 2
run $B/cpi ---gpumpi -n 8

say "the occupancy limit"
$B/ring 1 ---gpumpi -v -g 1000000 -b 128 2>&1 | tee /tmp/refusal.txt
MAX=$(sed -n 's/.*Use at most \([0-9]*\) ranks.*/\1/p' /tmp/refusal.txt)
PER=$(sed -n 's/.*holds at most \([0-9]*\) blocks.*/\1/p' /tmp/refusal.txt)
echo "largest co-resident rank count with 128-thread blocks: $MAX ($PER blocks)"
[ -n "$MAX" ] || exit 1

say "largest run: ring and cpi at $MAX ranks"
run timeout 300 $B/ring 3 ---gpumpi -v -g $PER -b 128
run timeout 300 $B/cpi ---gpumpi -g $PER -b 128 | tail -3
say "one block over the limit"
run timeout 60 $B/ring 1 ---gpumpi -g $((PER + 1)) -b 128
say "other shapes at the limit"
for b in 32 256 1024; do
  $B/ring 1 ---gpumpi -g 100000000 -b $b 2>&1 | sed -n 's/.*\(holds at most.*\)/\1/p'
done
