#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds linkscope and runs its main job:
# `linkscope run`, the full characterization of this machine. Where there is no GPU or
# driver, linkscope says so (exit 3) and this script then shows what linkscope makes of a
# bundled real run document from a 2 x H200 machine, labelled as such.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh || exit 2
build=${LS_BUILD_DIR:-build}
cmake -S . -B "$build" -DLINKSCOPE_TESTS=OFF ${LS_CMAKE_ARGS:-} >/dev/null || exit 2
cmake --build "$build" -j"$(nproc)" >/dev/null || exit 2
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
"$build/linkscope" run "$@"
rc=$?
if [ "$rc" = 3 ]; then
  echo
  echo "=== No usable GPU here. What follows is NOT this machine: it is linkscope's report of"
  echo "=== a bundled real run document, examples/h200x2-run.json, measured on 2 x NVIDIA H200."
  echo
  "$build/linkscope" report examples/h200x2-run.json
fi
exit "$rc"
