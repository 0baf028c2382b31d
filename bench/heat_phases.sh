#!/bin/sh
# heat (examples/heat) with each phase of a time step timed (pack, the
# MPI_Irecv's, the MPI_Isend's, MPI_Waitall, unpack, sweep: per step, the
# mean over ranks and the largest rank's) and the lanes of a warp running
# together counted at three points of the step: where a step's time goes
# on the GPU (bench/README.md, session 17). GPU builds only (the count is
# CUDA's __activemask).
#   sh bench/heat_phases.sh OUT [GPUMPICC]    (default build/bin/gpumpicc)
# then on the GPU machine: OUT heat.in ---gpumpi -n 32768 (an input as
# side_by_side.sh writes it)
set -e
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1
G=${2:-$SRC/build/bin/gpumpicc}
[ -n "$OUT" ] || { echo "usage: heat_phases.sh OUT [GPUMPICC]" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cp "$SRC"/examples/heat/*.c "$SRC"/examples/heat/*.h "$W/"
python3 "$SRC/bench/heat_phases/patch.py" "$W"
CU=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/nvcc
"$CU" -x cu -std=c++17 -rdc=true -arch=sm_90 -O2 -c "$SRC/bench/heat_phases/lanes.cu" -o "$W/lanes.o"
"$G" -O2 -I"$W" "$W/main.c" "$W/params.c" "$W/grid.c" "$W/halo.c" "$W/stencil.c" "$W/lanes.o" -o "$OUT" -lm
