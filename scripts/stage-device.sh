#!/usr/bin/env bash
# Builds linkscope with CUDA here (no GPU needed) and stages what a device-machine call
# needs into out/dev (ignored by git; name it in the device tool's `carry`): the cpack
# tarball, the gpu test binaries with libcmocka beside them, tests/cli, the fixtures,
# examples and the device scripts. usage: stage-device.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DLINKSCOPE_CUDA=ON -DLINKSCOPE_CUDA_ARCHS=90 >/dev/null
cmake --build "$build" -j"$(nproc)"
(cd "$build" && cpack -G TGZ >/dev/null)
dev=out/dev
rm -rf "$dev"; mkdir -p "$dev/cli"
cp "$build"/linkscope-*.tar.gz "$dev/"
cp "$build/linkscope" "$dev/"
for t in tests/gpu/test_*.c; do
    b=$(basename "$t" .c)
    [ -x "$build/tests/$b" ] && cp "$build/tests/$b" "$dev/"
done
cp -L /usr/lib/x86_64-linux-gnu/libcmocka.so.0 "$dev/"
cp tests/cli/*.sh "$dev/cli/"
mkdir -p "$dev/slurm" && cp tests/slurm/*.sh "$dev/slurm/"
cp -r tests/fixtures "$dev/fixtures"
cp -r examples "$dev/examples"
cp scripts/device-*.sh scripts/bench-side-by-side.sh scripts/side-by-side-table.py "$dev/"
# the established tools (device-pair.sh side), when this checkout sits beside ../shared
[ -f ../shared/anchors/bin.tar.gz ] && cp ../shared/anchors/bin.tar.gz "$dev/anchors-bin.tar.gz"
du -sh "$dev"
