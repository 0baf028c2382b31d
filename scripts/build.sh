#!/bin/sh
# Configures and builds gpumpi into build/ (the driver, converter and both
# backends' libraries).
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >build.log 2>&1 || { cat build.log; exit 1; }
cmake --build build -j"$(nproc)" >>build.log 2>&1 || { tail -50 build.log; exit 1; }
echo "gpumpi built: build/bin/gpumpicc"
