#!/bin/sh
# Builds GPU binaries into .gpubuild/ (git-ignored) so the device machine
# can run them without building.
#   sh bench/build_gpu_binaries.sh [skeleton|bench|all]     (default: all)
# skeleton: the examples and MPICH's cpi in .gpubuild/ (for gpu_skeleton.sh);
# bench: the micro-benchmarks in .gpubuild/bench/ (for gpu_run.sh), with a
# BUILD_INFO file saying from what they were built. The CPU-MPI versions are
# built on the device machine by gpu_run.sh, with its own mpicc.
set -e
G=${GPUMPICC:-build/bin/gpumpicc}
WHAT=${1:-all}
if [ "$WHAT" = skeleton ] || [ "$WHAT" = all ]; then
    mkdir -p .gpubuild
    $G -O2 examples/hello.c -o .gpubuild/hello
    $G -O2 examples/ring.c -o .gpubuild/ring
    $G -O2 /usr/share/doc/mpich/examples/cpi.c -o .gpubuild/cpi
    cp /usr/share/doc/mpich/examples/cpi.c examples/ring.c .gpubuild/
    ls -la .gpubuild
fi
if [ "$WHAT" = bench ] || [ "$WHAT" = all ]; then
    mkdir -p .gpubuild/bench
    for p in pingpong collectives msgrate p2p_cost barrier_anatomy iallreduce stencil halo_anatomy allpairs pipe; do
        $G -O2 bench/$p.c -o .gpubuild/bench/$p
    done
    {
        echo "built $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
        echo "commit $(git rev-parse HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
        $G --version 2>/dev/null | head -1 || true
        nvcc --version 2>/dev/null | tail -2 | head -1 || true
    } >.gpubuild/bench/BUILD_INFO
    cat .gpubuild/bench/BUILD_INFO
    ls -la .gpubuild/bench
fi
