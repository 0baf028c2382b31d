#!/bin/sh
# Converter golden test: each golden/X.c converts to exactly golden/X.cu.expected
# (the main file, then each converted user header; paths of the build and the
# source tree appear as @MIRROR@ and @SRC@), and the result compiles for the
# threads backend (and with nvcc when given).
#   golden.sh CONVERT SOURCE_DIR [NVCC]
CONVERT=$1 SRC=$2 NVCC=$3
cd "$SRC/tests/converter/golden" || exit 1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
status=0
INC="-I$SRC/tests/converter/golden -I$SRC/runtime/include -I$SRC/libc-shim/include -include gpumpi/platform.h"
for c in *.c; do
    base=${c%.c}
    if ! "$CONVERT" "$c" -o "$W/$base.cu"; then
        echo "FAIL: $c: gpumpi-convert failed"; status=1; continue
    fi
    # the converted file, then every converted header, with paths normalised
    {
        cat "$W/$base.cu"
        find "$W/$base.cu.d" -type f | sort | while read -r h; do
            case $h in *"/$c") continue ;; esac
            echo "=== header ${h#"$W/$base.cu.d"}"
            cat "$h"
        done
    } | sed -e "s|$W/$base.cu.d|@MIRROR@|g" -e "s|$SRC|@SRC@|g" >"$W/$base.normalised"
    if [ -n "$GOLDEN_UPDATE" ]; then cp "$W/$base.normalised" "$base.cu.expected"; fi
    if ! diff -u "$base.cu.expected" "$W/$base.normalised"; then
        echo "FAIL: $c: output differs from $base.cu.expected (above)"; status=1; continue
    fi
    g++ -x c++ -std=c++17 -DGPUMPI_BACKEND_THREADS -Wno-narrowing $INC -c "$W/$base.cu" -o "$W/$base.o" ||
        { echo "FAIL: $c: the converted file does not compile for the threads backend"; status=1; continue; }
    if [ -n "$NVCC" ] && grep -q '^#ifdef __CUDACC__' "$W/$base.cu"; then
        # something only the GPU cannot do: nvcc must stop with the converter's message
        if "$NVCC" -x cu -std=c++17 -rdc=true -arch=sm_90 $INC -c "$W/$base.cu" -o "$W/$base.o" 2>"$W/nvcc.err" ||
            ! grep -q "error: #error" "$W/nvcc.err"; then
            echo "FAIL: $c: nvcc should stop at the converter's #error"; status=1; continue
        fi
    elif [ -n "$NVCC" ]; then
        "$NVCC" -x cu -std=c++17 -rdc=true -arch=sm_90 $INC -c "$W/$base.cu" -o "$W/$base.o" ||
            { echo "FAIL: $c: the converted file does not compile with nvcc"; status=1; continue; }
    fi
    echo "ok: $c"
done
exit $status
