#!/usr/bin/env bash
# The packed binary on the GPU machine: unpacks the cpack tarball (made here with
# `cmake --build build && (cd build && cpack -G TGZ)` from a CUDA build, then carried to
# the device machine) into a fresh folder and runs `linkscope run` from it, with nothing
# of the build tree on the library path. Output goes under $OUT (or the first argument).
# usage: device-pack-check.sh [OUT_DIR] [TARBALL]   (RUN_ARGS: more `run` options, e.g.
# RUN_ARGS="--level thorough")
set -u
out=${1:-${OUT:?give OUT_DIR or set OUT}}
tarball=${2:-$(ls -t build*/linkscope-*.tar.gz 2>/dev/null | head -1)}
[ -f "$tarball" ] || { echo "device-pack-check: no linkscope-*.tar.gz (run cpack -G TGZ in the build folder)" >&2; exit 2; }
dir=$(mktemp -d)
tar xzf "$tarball" -C "$dir"
bin=$(ls "$dir"/linkscope-*/bin/linkscope)
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
unset LD_LIBRARY_PATH
{
    echo "--- tarball: $tarball"
    echo "--- ldd"; ldd "$bin"
    echo "--- version"; "$bin" version
    echo "--- linkscope run"
    # shellcheck disable=SC2086 # RUN_ARGS is a list of options
    timeout 500 "$bin" run ${RUN_ARGS:-} -o "$out/pack-run.json" 2>&1
    echo "run rc=$?"
    echo "--- verdict"; "$bin" report "$out/pack-run.json" 2>&1 | head -40
} 2>&1 | tee "$out/pack-check.txt"
