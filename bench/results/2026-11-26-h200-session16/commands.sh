# The device commands of session 16's final runs (sh SCRIPT with the tarballs named carried).
# --- final_a.sh
#!/bin/sh
# session 16: the GPU suite on the final build; PARTS as the first argument
mkdir -p build && tar xJf .gpubuild/gputests.tar.xz -C build
sh tests/gpu/run.sh build/gpu-tests "$PWD" "$1" > $OUT/gpu_suite.txt 2>&1
echo "rc=$?" >> $OUT/gpu_suite.txt
tail -45 $OUT/gpu_suite.txt
# --- final_b.sh
#!/bin/sh
# session 16: benchmarks, main at the session's start (base, a0d31e6) and this session's build (new), one command
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/finalb.tar.xz -C $G
L=$OUT/benchmarks.txt
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" >/tmp/o 2>&1; rc=$?; grep -v "^barrier  \|^bcast8  \|^reduce8  \|^allreduce8  \|^gather8  \|^scatter8  " /tmp/o | tail -${TAIL:-20} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader >>$L
for b in base new; do TAIL=9 TL=90 t $G/$b/collectives 0 3 200 3 ---gpumpi -n 270336; done
TAIL=9 t $G/new/collectives 0 3 200 3 ---gpumpi -n 32768
for b in new base new; do TAIL=2 TL=40 t $G/$b/allpairs 8 3 ---gpumpi -n 1024; done
TAIL=2 TL=60 t $G/new/allpairs 8 3 ---gpumpi -n 4096
for b in base new; do for n in 32768 270336; do TAIL=2 t $G/$b/halo_anatomy 16 30 cart ---gpumpi -n $n; done; done
for b in base new; do TAIL=8 t $G/$b/pingpong 1000 4096 ---gpumpi -g 2 -b 1; TAIL=4 t $G/$b/p2p_cost 200 4 ---gpumpi -g 2 -b 1; done
TAIL=12 t $G/new/pingpong 200 1048576 ---gpumpi -n 2
echo FINAL_B_DONE >>$L
cat $L
# --- final_c.sh
#!/bin/sh
# session 16: the mini-apps side by side: session 15's build (base, 255cd99), this session's (new), Open MPI on 16 cores
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/finalc.tar.xz -C $G
OUT=$OUT/sbs SBS_BUDGET_S=420 GPU_NPS="32768 max" CPU_NPS=16 sh bench/side_by_side.sh run $G/base $G/new > /tmp/sbs_console.txt 2>&1
cp /tmp/sbs_console.txt $OUT/
cat $OUT/sbs/side_by_side.md
# final_a.sh ran twice: PARTS "programs conformance", then "largest launcher"
# --- final_d.sh
#!/bin/sh
# session 16: heat, cg and taskfarm at 270,336 ranks, base (255cd99) and new alternating
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/finalc.tar.xz -C $G
L=$OUT/alternating.txt
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
for r in 1 2; do for b in base new; do
  echo "== $b heat round $r: $(timeout 60 $G/$b/heat heat.in ---gpumpi -n 270336 2>&1 | grep 'heat: time')" >>$L
  echo "== $b cg round $r: $(timeout 60 $G/$b/cg 128 3 3000 1e-8 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L
  echo "== $b taskfarm round $r: $(timeout 60 $G/$b/taskfarm 100000 1000 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L
done; done
cat $L
# --- final_e.sh
#!/bin/sh
# session 16: heat, cg and taskfarm at 270,336 ranks: 255cd99 (base), a0d31e6 (start), this session (new), alternating
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/finalc.tar.xz -C $G; tar xJf .gpubuild/finale.tar.xz -C $G
L=$OUT/bisect.txt
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
for r in 1 2; do for b in base start new; do
  echo "== $b heat round $r: $(timeout 60 $G/$b/heat heat.in ---gpumpi -n 270336 2>&1 | grep 'heat: time')" >>$L
  echo "== $b cg round $r: $(timeout 60 $G/$b/cg 128 3 3000 1e-8 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L
  echo "== $b taskfarm round $r: $(timeout 60 $G/$b/taskfarm 100000 1000 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L
done; done
cat $L
# --- final_f.sh
#!/bin/sh
# session 16: after the longer sleeps of gp_rooted_wait (new2), against a0d31e6 (start) and the build before (new)
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/finalc.tar.xz -C $G; tar xJf .gpubuild/finale.tar.xz -C $G; tar xJf .gpubuild/finalf.tar.xz -C $G
L=$OUT/after_sleeps.txt
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
for r in 1 2; do for b in start new new2; do
  echo "== $b taskfarm round $r: $(timeout 60 $G/$b/taskfarm 100000 1000 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L
  echo "== $b cg round $r: $(timeout 60 $G/$b/cg 128 3 3000 1e-8 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L
done; done
for b in start new2; do echo "== $b heat: $(timeout 60 $G/$b/heat heat.in ---gpumpi -n 270336 2>&1 | grep 'heat: time')" >>$L; done
timeout 60 $G/new2/collectives 0 3 200 3 ---gpumpi -n 270336 2>&1 | grep "ranks=" >>$L
cat $L
# --- final_g.sh
#!/bin/sh
# session 16: gp_rooted_wait's sleeps proportional to the wait (new3) against a0d31e6 (start)
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/finale.tar.xz -C $G; tar xJf .gpubuild/finalg.tar.xz -C $G
L=$OUT/proportional.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
for r in 1 2; do for b in start new3; do
  echo "== $b taskfarm round $r: $(timeout 60 $G/$b/taskfarm 100000 1000 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L
done; done
for b in start new3; do echo "== $b cg: $(timeout 60 $G/$b/cg 128 3 3000 1e-8 ---gpumpi -n 270336 2>&1 | grep -i 'time' | head -1)" >>$L; done
for n in 32768 270336; do timeout 60 $G/new3/collectives 0 3 200 3 ---gpumpi -n $n 2>&1 | grep "^bcast8 r\|^reduce8 r" >>$L; done
cat $L
# --- v10.sh (the final library's conformance check)
#!/bin/sh
# session 16: the final library (gp_rooted_wait's proportional sleeps) on conformance programs
L=$OUT/final_conf.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
for t in bcast_reduce_small coll_basic coll_reproducible comm_split_dup; do for n in 4 7 65 4096; do
  echo "== $t $n: $(timeout 120 .gpubuild/v10/$t ---gpumpi -n $n 2>&1 | tail -1)" >>$L; done; done
echo "== bcast_reduce_small 270336: $(timeout 120 .gpubuild/v10/bcast_reduce_small ---gpumpi -n 270336 2>&1 | tail -1)" >>$L
cat $L
# --- v11.sh (review mend check)
#!/bin/sh
# session 16, review mend: one reduction path in shm_rooted, one count index
L=$OUT/mend.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
for n in 7 65 4096 4097 270336; do echo "== brs $n: $(timeout 90 .gpubuild/v11/bcast_reduce_small ---gpumpi -n $n 2>&1 | tail -1)" >>$L; echo "== brs_lib $n: $(timeout 90 .gpubuild/v11/bcast_reduce_small_lib ---gpumpi -n $n 2>&1 | tail -1)" >>$L; done
echo "== coll_reproducible 4096: $(timeout 90 .gpubuild/v11/coll_reproducible ---gpumpi -n 4096 2>&1 | tail -1)" >>$L
for n in 4096 270336; do timeout 90 .gpubuild/v11/collectives 0 3 200 3 ---gpumpi -n $n 2>&1 | grep "ranks=" >>$L; done
cat $L
