#!/bin/sh
# Builds the skeleton's GPU binaries into .gpubuild/ (git-ignored) so the
# device machine can run them without building: the examples and MPICH's cpi.
set -e
G=${GPUMPICC:-build/bin/gpumpicc}
mkdir -p .gpubuild
$G -O2 examples/hello.c -o .gpubuild/hello
$G -O2 examples/ring.c -o .gpubuild/ring
$G -O2 /usr/share/doc/mpich/examples/cpi.c -o .gpubuild/cpi
cp /usr/share/doc/mpich/examples/cpi.c examples/ring.c .gpubuild/
ls -la .gpubuild
