# The device commands of session 15's final runs (each ran as: sh SCRIPT, with the tarballs of
# gpumpi binaries it names carried: .gpubuild/final.tar.xz held main before the session as base/ and
# this session's build as new/, each with the six apps and bench/; gputests.tar.xz held build/gpu-tests).
# --- final_b.sh: the mini-apps side by side and the benchmarks
#!/bin/sh
# issue 25, session 15: the mini-apps side by side (main before this session, this session's build, Open MPI on 16 cores), then the benchmarks
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/final.tar.xz -C $G
D=$OUT
OUT=$D/sbs SBS_BUDGET_S=300 GPU_NPS="32768 max" CPU_NPS=16 sh bench/side_by_side.sh run $G/base $G/new > $D/sbs_console.txt 2>&1
L=$D/bench.txt
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" >/tmp/o 2>&1; rc=$?; grep -v "^barrier  \|^bcast8  \|^reduce8  \|^allreduce8  " /tmp/o | tail -${TAIL:-20} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader >>$L
for b in base new; do TAIL=8 t $G/$b/bench/collectives 0 3 200 3 ---gpumpi -n 270336; done
for b in base new; do TAIL=8 t $G/$b/bench/pingpong 1000 4096 ---gpumpi -g 2 -b 1; TAIL=12 t $G/$b/bench/pingpong 200 1048576 ---gpumpi -n 2; done
for np in 270336 32768; do for o in "" "--private auto"; do TAIL=2 t $G/new/bench/stencil 8 20 3 ---gpumpi -n $np $o; done; done
for np in 32768 270336; do TAIL=2 t $G/new/bench/halo_anatomy 16 30 cart ---gpumpi -n $np; done
TAIL=2 TL=40 t $G/new/bench/allpairs 8 3 ---gpumpi -n 1024
TAIL=2 TL=45 t $G/new/bench/allpairs 8 2 ---gpumpi -n 4096
echo FINAL_B_DONE >>$L
cat $D/sbs/side_by_side.md; cat $L
# --- final_a.sh: the GPU suite
#!/bin/sh
# the GPU suite on the final build
mkdir -p build && tar xJf .gpubuild/gputests.tar.xz -C build
sh tests/gpu/run.sh build/gpu-tests "$PWD" > $OUT/gpu_suite.txt 2>&1
echo "rc=$?" >> $OUT/gpu_suite.txt
tail -40 $OUT/gpu_suite.txt
