#!/bin/sh
# The whole test suite: build, then every CTest test (end-to-end tests run
# on the threads backend; GPU binaries are built with nvcc and run only
# where there is a GPU).
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
cd build
ctest -j"$(nproc)" --output-on-failure
