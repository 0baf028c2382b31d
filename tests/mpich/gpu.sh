#!/bin/sh
# MPICH's test suite on the GPU. The GPU machine has no converter (libclang),
# so the programs are built here for the GPU and carried there:
#   gpu.sh build GPUMPICC SRC WORK             build the GPU directories' programs (SRC: MPICH's test/mpi)
#   gpu.sh pack SRC WORK TARBALL               their stripped programs and testlists, xz-compressed
#   gpu.sh run TARBALL RESULTS [RUN.PY ARGS]   on the GPU machine: unpack and run them (run.py --prebuilt)
# Several jobs share the GPU at once, so each gets an 8 GiB heap: the
# default (most of the free memory) would leave the next job none.
# GPU_DIRS (comma-separated) picks fewer directories, the same in all three steps.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
DIRS=${GPU_DIRS:-pt2pt,coll,comm,datatype,group,topo}
case $1 in
build)
    GPUMPI_BACKEND=cuda GPUMPICC=$2 python3 "$HERE/run.py" --src "$3" --work "$4" --dirs $DIRS --build-only --jobs "${JOBS:-2}" ;;
pack)
    src=$2 work=$3 st=$(mktemp -d)
    for d in $(echo $DIRS | tr , ' '); do
        mkdir -p "$st/work/$d" "$st/src/$d"
        find "$work/$d" -maxdepth 1 -type f -perm -u+x -exec cp {} "$st/work/$d/" \;
        cp "$src/$d"/testlist* "$src/$d/Makefile.am" "$st/src/$d/"
    done
    find "$st/work" -type f -exec strip {} \;
    tar cf - -C "$st" work src | xz -T2 --lzma2=preset=6,dict=400MiB >"$4"
    rm -rf "$st" ;;
run)
    tarball=$2 results=$3; shift 3
    dest=$(mktemp -d)
    tar xJf "$tarball" -C "$dest"
    GPUMPI_HEAP=${GPUMPI_HEAP:-8g} python3 "$HERE/run.py" --src "$dest/src" --work "$dest/work" --dirs $DIRS --prebuilt \
        --expect "$HERE/expected.txt" --results "$results" --jobs "${JOBS:-3}" "$@" ;;
*)
    sed -n 2,9p "$0"; exit 2 ;;
esac
