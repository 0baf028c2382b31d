#!/bin/sh
# MPICH's test suite as a CTest test: fetch it once into the build tree,
# build and run every listed run on the threads backend, compare with
# expected.txt; one run at a time (CTest runs other tests beside it on CI's
# two cores, and the runs have time limits).   usage: ci.sh BUILD_DIR SOURCE_DIR
set -e
BLD=$1 SRC=$2
sh "$SRC/tests/mpich/fetch.sh" "$BLD/mpich-suite"
rm -rf "$BLD/mpich-work"
GPUMPICC="$BLD/bin/gpumpicc" GPUMPI_BACKEND=threads exec python3 "$SRC/tests/mpich/run.py" \
    --src "$BLD/mpich-suite/test/mpi" --work "$BLD/mpich-work" \
    --expect "$SRC/tests/mpich/expected.txt" --results "$BLD/mpich-work/results.txt" --jobs 1
