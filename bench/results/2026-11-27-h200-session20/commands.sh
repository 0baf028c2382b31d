# Session 20 (issue 25), one NVIDIA H200. base = main at the session's start
# (489b2b5: --private off by default); new = private memory on by default
# (--private auto: an eighth of the free GPU memory, 64 KiB a rank here).
# Built on the CPU machine:
git worktree add /tmp/wt-base 489b2b5 && (cd /tmp/wt-base && cmake -S . -B build && cmake --build build -j8 &&
    GPUMPICC=$PWD/build/bin/gpumpicc sh bench/side_by_side.sh build /work/main/.gpubuild/base)
cmake --build build -j8 && GPUMPICC=$PWD/build/bin/gpumpicc sh bench/side_by_side.sh build .gpubuild/new
sh tests/gpu/build.sh $PWD/build $PWD $PWD/build/gpu-tests   # the GPU suite (stripped, tar.xz, carried)
# On the H200 (device tool), each its own command:
.gpubuild/new/heat heat.in ---gpumpi -n 32768 -v              # -v: private memory 65536 bytes, 24.8 GiB reserved
OUT=$OUT/sbs GPU_NPS="32768 max" CPU_NPS=16 SBS_REPS=1 sh bench/side_by_side.sh run .gpubuild/base .gpubuild/new
    # -> side_by_side_32768_and_max.md, runs_32768_and_max.csv (one run each; the script's default then)
OUT=$OUT/sbs3 SBS_REPS=3 GPU_NPS=32768 CPU_NPS=16 sh bench/side_by_side.sh run .gpubuild/base .gpubuild/new
    # -> side_by_side_best_of_3.md, runs_best_of_3.csv, log_best_of_3.txt (fastest of 3 on each side)
sh tests/gpu/run.sh build/gpu-tests $PWD "programs conformance"   # 302 s
sh tests/gpu/run.sh build/gpu-tests $PWD "largest launcher"       # 149 s  -> gpu_suite.txt (both)
sh bench/plot_side_by_side.sh runs_best_of_3.csv side_by_side_best_of_3.png
# The micro-benchmarks (main fb31cad, private memory on by default), H200:
sh bench/build_gpu_binaries.sh bench        # here; stripped, tar.xz, carried
OUT=$OUT/bench BENCH_BUDGET_S=300 sh bench/gpu_run.sh .gpubuild/bench   # -> gpu_run_bench_results.txt, gpu_run_records.txt
    # (its iallreduce at 4,096 and 32,768 ranks ran past their limits and took the budget of
    #  msgrate, stencil, halo_anatomy and allpairs: gpu_run.sh now gives iallreduce 200 calls)
# then, by hand (figures in bench/README.md, session 20):
./iallreduce 200 3 200 2 ---gpumpi -n 1024 [--private 0]      # 276.9 / 275.3 us (allreduce 4.06 / 4.12)
./iallreduce 200 3 200 2 ---gpumpi -n 4096 [--private 0]      # 343.4 / 346.8 us (allreduce 5.19 / 5.19)
./stencil 8 20 3 ---gpumpi -n 270336 --private 0              # gcells=2.22 sweep_gcells=6.65 halo_us=54113
./stencil 8 20 3 ---gpumpi -n 270336                          # gcells=7.61 sweep_gcells=23.48 halo_us=16204
for n in 4096 8192 16384; do ./new/$app ARGS ---gpumpi -n $n; done   # -> rank_counts.txt
