# Session 21 (issue 25), one NVIDIA H200; built here, run through the device tool.
# base = main 437e162; lk = + p2p_lookups_once.patch (landed as 7093a0c).
git worktree add /tmp/wt-lk 437e162 && (cd /tmp/wt-lk && git apply bench/results/2026-11-27-h200-session20/p2p_lookups_once.patch &&
    cmake -S . -B build && cmake --build build -j2 && GPUMPICC=$PWD/build/bin/gpumpicc sh bench/side_by_side.sh build /work/main/.gpubuild/lk)
GPUMPICC=$PWD/build/bin/gpumpicc sh bench/side_by_side.sh build .gpubuild/base
build/bin/gpumpicc -O2 bench/halo_anatomy.c -o .gpubuild/{base,lk}/halo_anatomy   # each with its own gpumpicc
# device: 
for b in base lk; do for i in 1 2 3; do .gpubuild/$b/halo_anatomy 16 30 cart ---gpumpi -n 32768; done; done
OUT=$OUT/sbs SBS_REPS=3 GPU_NPS=32768 CPU_NPS=16 sh bench/side_by_side.sh run .gpubuild/base .gpubuild/lk
    # -> side_by_side_lookups_once.md, runs_lookups_once.csv
sh tests/gpu/run.sh build/gpu-tests $PWD "programs conformance"   # main + lk: gpu_suite_programs_conformance.txt
# Nsight Compute (main + lk + --service-thread, .gpubuild/prof):
for r in 330 30; do sh bench/ncu_profile.sh $OUT/ncu_halo_$r ./halo_anatomy 16 $r cart ---gpumpi -n 32768 --service-thread; done
    # -> ncu/ (the 330 run's memory and stall files did not come back: figures in ncu/summary.txt)
# unity: runtime/src/{requests,posted,p2p,comm,env,warp_regroup,watchdog,landing,status,rankmap}.cu moved to
#   runtime/src/unity/*.cuh and #included by one runtime/src/unity_p2p.cu (a worktree of 86271d7; not kept)
# main64 / unity64: the same trees configured with -DGPUMPI_CUDA_MAXRREG=64
for i in 1 2; do for v in prof unity main64 unity64; do .gpubuild/$v/halo_anatomy 16 30 cart ---gpumpi -n 32768; done; done
OUT=$OUT/sbs SBS_REPS=2 GPU_NPS=32768 CPU_NPS=16 APPS="heat cg" sh bench/side_by_side.sh run .gpubuild/prof .gpubuild/unity .gpubuild/main64 .gpubuild/unity64
    # -> side_by_side_unity_regs64.md, runs_unity_regs64.csv
sh tests/gpu/run.sh build/gpu-tests $PWD "largest launcher"       # main 86271d7: gpu_suite_largest_launcher.txt
# the new conformance program c_in_macros on the GPU: No Errors at 64, 4,096 and 270,336 ranks
