#!/usr/bin/env bash
# Builds linkscope with AddressSanitizer and UndefinedBehaviorSanitizer and runs every
# test (GPU tests skip themselves where no GPU is).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --tests
build=${LS_BUILD_DIR:-build-test}
cmake -S . -B "$build" -DLINKSCOPE_SANITIZE=ON ${LS_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"
cd "$build"
ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$(nproc)"
