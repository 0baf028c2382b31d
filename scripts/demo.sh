#!/bin/sh
# The main job: build gpumpi, convert and build examples/ring.c, and run it
# with 4 ranks: on the GPU when there is one, else on host threads.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
if nvidia-smi -L >/dev/null 2>&1 && ! grep -q '^#define GPUMPI_NVCC ""' build/driver/gpumpi_config.h; then
    backend=cuda
else
    backend=threads
fi
build/bin/gpumpicc --backend=$backend -O2 examples/ring.c -o build/ring
echo "+ build/ring 10 ---gpumpi -n 4    (backend: $backend)"
build/ring 10 ---gpumpi -n 4
