# The device commands of session 17 (sh SCRIPT with .gpubuild/s17 carried; probes.txt labels each probe by its script)
# --- p1.sh
#!/bin/sh
G=/tmp/g; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p1.tar.xz -C $G
L=$OUT/p1.txt
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 60 "$@" 2>&1 | grep -v "residual\|input" >>$L; echo "-- wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
(cd $G/src && mpicc -O2 *.c -o $G/heatcpu -lm)
t mpirun --allow-run-as-root -np 16 $G/heatcpu heat.in
for n in 4096 32768 270336; do t $G/heatp heat.in ---gpumpi -n $n; done
t $G/heatp heat.in ---gpumpi -n 32768 --private 64k
t $G/heatp heat.in ---gpumpi -n 270336 --private 16k
t $G/heatp heat.in ---gpumpi -n 8192
t $G/heatp heat.in ---gpumpi -n 65536
for n in 32768 270336; do t $G/halo_anatomy 64 30 cart ---gpumpi -n $n; done
t mpirun --allow-run-as-root -np 16 $G/heatcpu heat.in
cat $L
# --- p10.sh
#!/bin/sh
G=/tmp/g10; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p10.tar.xz -C $G
L=$OUT/p10.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep "heat: time\|nbody: time\|pipe:\|regroup\|VERIFY\|lanes\|ring:\|time" /tmp/o | tail -${TAIL:-30} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for n in 32 1024 4096; do t $G/base/pipe 200 ---gpumpi -n $n; t $G/new_pipe 200 ---gpumpi -n $n; t $G/tune/pipe 200 ---gpumpi -n $n --stats; done
for n in 32768 270336; do t $G/new_heat_r0 heat.in ---gpumpi -n $n; t $G/tune/heat_r0 heat.in ---gpumpi -n $n --stats; done
for n in 32768 270336; do t $G/base/nbody 65536 2 1e-4 2d ---gpumpi -n $n; t $G/new_nbody 65536 2 1e-4 2d ---gpumpi -n $n; t $G/tune/nbody 65536 2 1e-4 2d ---gpumpi -n $n; done
for n in 32768; do t $G/base/cg 128 3 3000 1e-8 ---gpumpi -n $n; t $G/new_cg 128 3 3000 1e-8 ---gpumpi -n $n; t $G/tune/cg 128 3 3000 1e-8 ---gpumpi -n $n --stats; done
for n in 32 4096; do t $G/base/ring ---gpumpi -n $n; t $G/tune/ring ---gpumpi -n $n; done
cat $L
# --- p11.sh
#!/bin/sh
G=/tmp/g10; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p10.tar.xz -C $G
L=$OUT/p11.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep "pipe:\|regroup" /tmp/o | tail -${TAIL:-30} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for n in 1024 4096; do t $G/base/pipe 200 ---gpumpi -n $n; for r in 0 20 200 2000; do t $G/tune/pipe 200 ---gpumpi -n $n --regroup $r; done; done
cat $L
# --- p12.sh
#!/bin/sh
G=/tmp/g12; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p12.tar.xz -C $G
L=$OUT/p12.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep "heat: time\|nbody: time\|pipe:\|regroup\|VERIFY FAIL\|lanes" /tmp/o | tail -${TAIL:-30} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for n in 32 1024 4096; do t $G/base/pipe 200 ---gpumpi -n $n; t $G/new/pipe 200 ---gpumpi -n $n --stats; done
for n in 32768 270336; do t $G/new/heat_r0 heat.in ---gpumpi -n $n --stats; done
for n in 32768 270336; do t $G/base/nbody 65536 2 1e-4 2d ---gpumpi -n $n; t $G/new/nbody 65536 2 1e-4 2d ---gpumpi -n $n; done
cat $L
# --- p13a.sh
#!/bin/sh
# session 17: micro-benchmarks, main at the session's start (base, 0072914) and this session's build (new), one command
G=/tmp/g13; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p13.tar.xz -C $G
L=$OUT/benchmarks.txt
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" >/tmp/o 2>&1; rc=$?; grep -v "^barrier  \|^bcast8  \|^reduce8  \|^allreduce8  \|^gather8  \|^scatter8  \|residual\|input\|ranks as" /tmp/o | tail -${TAIL:-20} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for b in base new; do TAIL=9 TL=90 t $G/$b/collectives 0 3 200 3 ---gpumpi -n 270336; done
for b in base new; do TAIL=9 t $G/$b/collectives 0 3 200 3 ---gpumpi -n 32768; done
for b in base new; do TAIL=2 TL=40 t $G/$b/allpairs 8 3 ---gpumpi -n 1024; TAIL=2 t $G/$b/allpairs 8 3 ---gpumpi -n 4096; done
for b in base new; do for n in 32768 270336; do TAIL=2 t $G/$b/halo_anatomy 64 30 cart ---gpumpi -n $n; done; done
for b in base new; do TAIL=8 t $G/$b/pingpong 1000 4096 ---gpumpi -g 2 -b 1; TAIL=8 t $G/$b/pingpong 1000 4096 ---gpumpi -n 2; done
for b in base new; do TAIL=4 t $G/$b/pingpong 200 1048576 ---gpumpi -n 2; done
for b in base new; do for n in 32 1024 4096; do TAIL=1 t $G/$b/pipe 200 ---gpumpi -n $n; done; done
TAIL=1 t $G/new/pipe 200 ---gpumpi -n 1024 --regroup 0
for n in 4096 32768 270336; do TAIL=12 t $G/new/heat_r0 heat.in ---gpumpi -n $n --stats; done
TAIL=9 t $G/new/heat_r0 heat.in ---gpumpi -n 32768 --private 64k
TAIL=9 t $G/new/heat_r0 heat.in ---gpumpi -n 32768 --regroup 0
for c in warp_regroup coll_gather_scatter coll_basic bcast_reduce_small p2p_nonblocking nbc_basic; do TAIL=2 t $G/new/c_$c ---gpumpi -n 4096; done
for c in coll_gather_scatter coll_basic bcast_reduce_small p2p_nonblocking; do TAIL=2 TL=120 t $G/new/c_$c ---gpumpi -n 270336; done
TAIL=2 t $G/new/c_warp_regroup ---gpumpi -g 1024 -b 4
echo P13A_DONE >>$L
cat $L
# --- p13b.sh
#!/bin/sh
# session 17: the mini-apps side by side: main at the session's start (base, 0072914), this session's (new), Open MPI on 16 cores
G=/tmp/g13; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p13.tar.xz -C $G
OUT=$OUT/sbs SBS_BUDGET_S=500 GPU_NPS="32768 max" CPU_NPS=16 sh bench/side_by_side.sh run $G/base $G/new > /tmp/sbs_console.txt 2>&1
cp /tmp/sbs_console.txt $OUT/
cat $OUT/sbs/side_by_side.md
G=/tmp/g13
st=$(date +%s); timeout 240 $G/new/c_coll_gather_scatter ---gpumpi -n 4096 > /tmp/cgs.txt 2>&1; echo "c_coll_gather_scatter 4096: rc=$? $(($(date +%s) - st)) s: $(tail -1 /tmp/cgs.txt)" | tee $OUT/cgs.txt
# --- p14.sh
#!/bin/sh
G=/tmp/g13; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p13.tar.xz -C $G
L=$OUT/p14.txt
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" >/tmp/o 2>&1; rc=$?; head -c 6000 /tmp/o >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
TL=40 t $G/new/c_coll_gather_scatter ---gpumpi -n 4096 --regroup 0
TL=40 t $G/new/c_coll_gather_scatter ---gpumpi -n 4096 --timeout 15
TL=40 t $G/new/c_coll_gather_scatter ---gpumpi -n 1024 --stats
cat $L | cut -c1-300 | head -150
# --- p2.sh
#!/bin/sh
G=/tmp/g2; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p2.tar.xz -C $G
L=$OUT/p2.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 60 "$@" 2>&1 | grep -v "residual\|input\|ranks as" >>$L; echo "-- wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for n in 4096 32768 270336; do for v in 0 1; do t $G/heat_s$v heat.in ---gpumpi -n $n; done; done
cat $L
# --- p3.sh
#!/bin/sh
G=/tmp/g3; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p3.tar.xz -C $G
L=$OUT/p3.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 60 "$@" 2>&1 | grep -v "residual\|input\|ranks as" >>$L; echo "-- wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for n in 32768 270336 4096; do
  for us in 0 5 20 100; do GPUMPI_REGROUP_US=$us t $G/heat_r0 heat.in ---gpumpi -n $n; done
  t $G/heat_e0 heat.in ---gpumpi -n $n
  t $G/heat_e1 heat.in ---gpumpi -n $n
done
cat $L
# --- p4.sh
#!/bin/sh
G=/tmp/g4; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p4.tar.xz -C $G
L=$OUT/p4.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 60 "$@" 2>&1 | grep -v "residual\|input\|ranks as" >>$L; echo "-- wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for n in 32768 270336 4096; do
  for us in 0 200 2000 10000; do echo "REGROUP_US=$us" >> $L; GPUMPI_REGROUP_US=$us t $G/heat_r0 heat.in ---gpumpi -n $n; done
done
cat $L
# --- p5a.sh
#!/bin/sh
G=/tmp/g5; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p5.tar.xz -C $G
L=$OUT/p5a.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep -v "residual\|input\|ranks as\|^barrier  \|^bcast8  \|^reduce8  \|^allreduce8  \|^gather8  \|^scatter8  " /tmp/o | tail -${TAIL:-14} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for n in 4096 32768 65536 270336; do t $G/heat_r0 heat.in ---gpumpi -n $n; done
t $G/heat_r0 heat.in ---gpumpi -n 32768 --private 64k
t $G/heat_r0 heat.in ---gpumpi -n 4096 --private 160k
for b in base new; do
  TAIL=9 TL=90 t $G/$b/collectives 0 3 200 3 ---gpumpi -n 270336
  TAIL=8 t $G/$b/pingpong 1000 4096 ---gpumpi -g 2 -b 1
  TAIL=8 t $G/$b/pingpong 1000 4096 ---gpumpi -n 2
  TAIL=4 t $G/$b/pingpong 200 1048576 ---gpumpi -n 2
  TAIL=2 t $G/$b/allpairs 8 3 ---gpumpi -n 1024
  TAIL=2 t $G/$b/allpairs 8 3 ---gpumpi -n 4096
  for n in 32768 270336; do TAIL=2 t $G/$b/halo_anatomy 64 30 cart ---gpumpi -n $n; done
  for n in 32 4096; do TAIL=3 t $G/$b/ring ---gpumpi -n $n; done
done
cat $L
# --- p5b.sh
#!/bin/sh
G=/tmp/g5; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p5.tar.xz -C $G
OUT=$OUT/sbs SBS_BUDGET_S=500 GPU_NPS="32768 max" CPU_NPS=16 sh bench/side_by_side.sh run $G/base $G/new > /tmp/sbs_console.txt 2>&1
cp /tmp/sbs_console.txt $OUT/
cat $OUT/sbs/side_by_side.md
# --- p6.sh
#!/bin/sh
G=/tmp/g6; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p6.tar.xz -C $G
L=$OUT/p6.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep -v "residual\|input\|ranks as\|phase\|longest" /tmp/o | tail -${TAIL:-30} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for us in 2000 20000; do
  GPUMPI_REGROUP_US=$us t $G/heat_r0 heat.in ---gpumpi -n 270336 --stats
  GPUMPI_REGROUP_US=$us t $G/nbody 65536 2 1e-4 2d ---gpumpi -n 270336 --stats
done
GPUMPI_REGROUP_US=2000 t $G/nbody 65536 2 1e-4 2d ---gpumpi -n 32768 --stats
cat $L
# --- p7.sh
#!/bin/sh
G=/tmp/g7; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p7.tar.xz -C $G
L=$OUT/p7.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep "heat: time\|nbody: time\|pipe:\|regroup\|VERIFY FAIL\|lanes" /tmp/o | tail -${TAIL:-30} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for us in 0 2000 5000 20000; do
  echo "#### REGROUP_US=$us" >> $L
  for n in 32 1024; do GPUMPI_REGROUP_US=$us t $G/pipe 200 ---gpumpi -n $n --stats; done
  for n in 32768 270336; do GPUMPI_REGROUP_US=$us t $G/heat_r0 heat.in ---gpumpi -n $n --stats; done
  for n in 32768 270336; do GPUMPI_REGROUP_US=$us t $G/nbody 65536 2 1e-4 2d ---gpumpi -n $n --stats; done
done
cat $L
# --- p8.sh
#!/bin/sh
G=/tmp/g8; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p8.tar.xz -C $G
L=$OUT/p8.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep "heat: time\|nbody: time\|pipe:\|regroup\|VERIFY FAIL\|lanes\|^bcast8 \|^reduce8 \|^barrier \|^allreduce8 \|^gather8\|^scatter8" /tmp/o | tail -${TAIL:-30} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for b in base new; do for n in 32 1024; do t $G/$b/pipe 200 ---gpumpi -n $n; done; done
t $G/new/pipe 200 ---gpumpi -n 1024 --stats
for n in 32768 270336; do t $G/new/heat_r0 heat.in ---gpumpi -n $n --stats; done
t $G/new/nbody 65536 2 1e-4 2d ---gpumpi -n 270336 --stats
for b in base new; do TL=90 t $G/$b/collectives 0 3 200 3 ---gpumpi -n 270336; done
cat $L
# --- p8b.sh
#!/bin/sh
G=/tmp/g8; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p8.tar.xz -C $G
OUT=$OUT/sbs SBS_BUDGET_S=500 GPU_NPS="32768 max" CPU_NPS=16 sh bench/side_by_side.sh run $G/base $G/new > /tmp/sbs_console.txt 2>&1
cp /tmp/sbs_console.txt $OUT/
cat $OUT/sbs/side_by_side.md
# --- p9.sh
#!/bin/sh
G=/tmp/g8; rm -rf $G; mkdir -p $G; tar xJf .gpubuild/s17/p8.tar.xz -C $G
L=$OUT/p9.txt
nvidia-smi --query-gpu=name --format=csv,noheader >>$L
cd /tmp && printf 'dim 3\nn 256\nsteps 50\nr 0.15\nhalo isend\n' > heat.in
t() { echo "== $*" >>$L; st=$(date +%s%N); timeout -k 5 ${TL:-60} "$@" > /tmp/o 2>&1; rc=$?; grep "heat: time\|nbody: time\|pipe:\|regroup\|VERIFY FAIL\|lanes\|^bcast8 \|^reduce8 \|^barrier \|^allreduce8 \|^gather8\|^scatter8\|ring:\|halo_anatomy ranks\|allpairs ranks\|half_rtt" /tmp/o | tail -${TAIL:-30} >>$L; echo "-- rc=$rc wall $(( ($(date +%s%N) - st) / 1000000 )) ms" >>$L; }
for b in base new; do for n in 32 1024; do t $G/$b/pipe 200 ---gpumpi -n $n; done; done
t $G/new/pipe 200 ---gpumpi -n 1024 --stats
for n in 32768 270336; do t $G/new/heat_r0 heat.in ---gpumpi -n $n --stats; done
for b in base new; do t $G/$b/nbody 65536 2 1e-4 2d ---gpumpi -n 270336; done
for b in base new; do TL=90 t $G/$b/collectives 0 3 200 3 ---gpumpi -n 270336; done
for b in base new; do for n in 32 4096; do t $G/$b/ring ---gpumpi -n $n; done; t $G/$b/pingpong 1000 4096 ---gpumpi -g 2 -b 1; t $G/$b/pingpong 1000 64 ---gpumpi -n 2; t $G/$b/allpairs 8 3 ---gpumpi -n 1024; t $G/$b/halo_anatomy 64 30 cart ---gpumpi -n 32768; done
cat $L
# --- suite.sh
#!/bin/sh
# session 17: the GPU suite; PARTS as the first argument
mkdir -p build && tar xJf .gpubuild/s17/gputests.tar.xz -C build
sh tests/gpu/run.sh build/gpu-tests "$PWD" "$1" > $OUT/gpu_suite.txt 2>&1
echo "rc=$?" >> $OUT/gpu_suite.txt
tail -45 $OUT/gpu_suite.txt
# --- suite.sh
#!/bin/sh
# session 17: the GPU suite; PARTS as the first argument
mkdir -p build && tar xJf .gpubuild/s17/gputests.tar.xz -C build
sh tests/gpu/run.sh build/gpu-tests "$PWD" "$1" > $OUT/gpu_suite.txt 2>&1
echo "rc=$?" >> $OUT/gpu_suite.txt
tail -45 $OUT/gpu_suite.txt
