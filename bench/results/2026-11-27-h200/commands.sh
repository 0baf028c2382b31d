# The device commands of session 19 (run from the repository root with .gpubuild carried;
# gb.tar.xz held base/ and new/: the six apps, nbc_basic and bench/{halo_anatomy,pingpong,collectives,allpairs},
# base built with main's gpumpicc (e5c1b07), new with this session's)
# --- bench.sh (benchmarks.txt)
cd .gpubuild && tar xJf gb.tar.xz
for i in 1 2 3 4 5 6; do s=$(date +%s); timeout 60 ./new/nbc_basic ---gpumpi -n 4096 --timeout 8 > $OUT/nbc_$i.txt 2>&1; echo "nbc new $i rc=$? $(( $(date +%s)-s )) s $(head -c 150 $OUT/nbc_$i.txt)"; done
for v in base new; do
  for N in 32768 270336; do timeout 60 ./$v/b/halo_anatomy 16 30 cart ---gpumpi -n $N | sed "s/^/$v $N: /"; done
  timeout 120 ./$v/b/collectives 0 3 200 3 ---gpumpi -n 270336 | sed "s/^/$v: /"
  timeout 60 ./$v/b/pingpong 1000 4096 ---gpumpi -g 2 -b 1 | sed "s/^/$v: /"
  timeout 60 ./$v/b/allpairs 8 2 ---gpumpi -n 4096 | sed "s/^/$v: /"
done
# --- sbs.sh (side_by_side.*, runs.csv)
cd .gpubuild && tar xJf gb.tar.xz && cd ..
OUT=$OUT/sbs SBS_BUDGET_S=440 GPU_NPS="32768 max" CPU_NPS=16 sh bench/side_by_side.sh run .gpubuild/base .gpubuild/new
# --- gpu suite (gpu_suite.txt): ctest's gpu.build output, ELF files stripped, as .gpubuild/suite.tar.xz
mkdir -p build && tar xJf .gpubuild/suite.tar.xz -C build && mv build/suite build/gpu-tests
sh tests/gpu/run.sh build/gpu-tests $PWD > $OUT/gpu_suite.txt 2>&1
# --- heat_phases and private memory (benchmarks.txt, after the suite): .gpubuild held heat_phases
# (sh bench/heat_phases.sh .gpubuild/heat_phases) and new/{heat,cg,bucketsort,nbody,taskfarm}
for n in 32768 270336; do ./heat_phases heat.in ---gpumpi -n $n; done
for p in "" "--private 64k" "--private auto"; do ./heat heat.in ---gpumpi -n 32768 $p; ./cg 128 3 3000 1e-8 ---gpumpi -n 32768 $p
  ./bucketsort 67108864 1 auto ---gpumpi -n 32768 $p; ./nbody 65536 2 1e-4 2d ---gpumpi -n 32768 $p; ./taskfarm 100000 1000 ---gpumpi -n 32768 $p; done
./heat_phases heat.in ---gpumpi -n 32768 --private 64k
# --- register cap (benchmarks.txt, last part): cmake -S . -B /tmp/build64 -DGPUMPI_CUDA_MAXRREG=64; 
# GPUMPICC=/tmp/build64/bin/gpumpicc sh bench/side_by_side.sh build -> .gpubuild/r64; heat_phases.sh .gpubuild/heat_phases64 /tmp/build64/bin/gpumpicc
for n in 32768 65536; do ./heat heat.in ---gpumpi -n $n; ./r64/heat heat.in ---gpumpi -n $n; ./cg 128 3 3000 1e-8 ---gpumpi -n $n; ./r64/cg 128 3 3000 1e-8 ---gpumpi -n $n; done
./r64/heat heat.in ---gpumpi -n 32768 --private 64k; ./r64/cg 128 3 3000 1e-8 ---gpumpi -n 32768 --private 64k
./r64/bucketsort 67108864 1 auto ---gpumpi -n 32768; ./r64/nbody 65536 2 1e-4 2d ---gpumpi -n 32768; ./r64/taskfarm 100000 1000 ---gpumpi -n 32768
./heat_phases64 heat.in ---gpumpi -n 32768
# --- after the landed-word fence (match.h): the conformance part again (gpu_conformance_fence.txt), from ctest's gpu.build
sh tests/gpu/run.sh build/gpu-tests $PWD conformance
