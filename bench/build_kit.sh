#!/bin/sh
# A kit of GPU binaries for one device run: the apps and benchmarks users
# feel (heat, cg, pingpong, collectives, fanin, comm_costs, hello, ring) and the
# conformance programs (conformance/, as tests/gpu/run.sh and
# multi_gpu.sh take them), built here with build/bin/gpumpicc into
# .gpubuild/NAME, stripped, and packed as .gpubuild/NAME.tar.xz to carry
# (the device machine unpacks it: tar xJf .gpubuild/NAME.tar.xz -C DIR).
# Two kits built from two commits compare them on the same machine.
#   sh bench/build_kit.sh NAME [CONFORMANCE_PROGRAMS...|none]   (default: all)
# XZ_PRESET (default 6) trades the pack's time for its size.
# Do not switch branches while it builds: gpumpicc reads the runtime's
# headers from the source tree.
set -e
cd "$(dirname "$0")/.."
NAME=$1
shift
[ -n "$NAME" ] || { echo "usage: build_kit.sh NAME [CONFORMANCE_PROGRAMS...]" >&2; exit 2; }
G=${GPUMPICC:-$PWD/build/bin/gpumpicc}
K=.gpubuild/$NAME
rm -rf "$K" && mkdir -p "$K/conformance"
{
    echo "$G -O2 examples/hello.c -o $K/hello"
    echo "$G -O2 examples/ring.c -o $K/ring"
    echo "$G -O2 examples/heat/*.c -lm -o $K/heat"
    echo "$G -O2 examples/cg/*.c -lm -o $K/cg"
    for p in pingpong collectives fanin comm_costs; do echo "$G -O2 bench/$p.c -o $K/$p"; done
    progs=${*:-$(cd tests/conformance && ls *.c | sed 's/\.c$//')}
    [ "$progs" = none ] && progs=
    for t in $progs; do echo "$G -O2 tests/conformance/$t.c -lm -o $K/conformance/$t"; done
} | xargs -P "$(nproc)" -I{} sh -c '{} || { echo "FAILED: {}" >&2; exit 255; }'
strip "$K"/* "$K"/conformance/* 2>/dev/null || true
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (with uncommitted changes)'), built $(date -u '+%F %H:%M UTC')" >"$K/BUILD_INFO"
tar cf - -C .gpubuild "$NAME" | xz -T"$(nproc)" --lzma2=preset=${XZ_PRESET:-6},dict=400MiB >"$K.tar.xz"  # one dictionary: the binaries share the runtime
ls -la "$K.tar.xz"
