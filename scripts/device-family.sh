#!/usr/bin/env bash
# Issue 24 on the GPU machine: the measuring families through their model descriptors
# (model/families.c; measure gets its family as o->fam). Builds the tree, runs the
# measure GPU tests, each measuring command (its entries' family, method and status
# words, counted), a quick run, and its report in every format; the words must be the
# ones docs/schema.md lists, every entry ok or skipped with its reason.
# Usage, from the repository root: scripts/device-family.sh OUT_DIR
set -u
out=${1:?usage: device-family.sh OUT_DIR}
build=${LS_BUILD_DIR:-build-device}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
step() { echo; echo "=== $* ($(date +%T))"; }
{
step build
cmake -S . -B "$build" >/dev/null && cmake --build "$build" -j"$(nproc)" >"$out/build.txt" 2>&1
echo "rc=$?"
ls=./$build/linkscope
step "measure gpu tests"
(cd "$build" && ctest -L gpu -R 'test_measure_' --output-on-failure 2>&1 | tail -15)
for fam in p2p latency hbm host; do
    step "linkscope $fam"
    timeout 300 "$ls" "$fam" -o "$out/$fam.json" >"$out/$fam.txt" 2>&1
    echo "rc=$?"
    jq -r '.measurements[] | "\(.family) \(.method) \(.status)"' "$out/$fam.json" | sort | uniq -c
done
step "linkscope run (quick)"
timeout 600 "$ls" run -o "$out/run.json" >"$out/run.txt" 2>&1
echo "rc=$?"
jq -r '.measurements[] | "\(.family) \(.method) \(.status)"' "$out/run.json" | sort | uniq -c
for fmt in term md html json prom; do
    "$ls" report "$out/run.json" --format "$fmt" >"$out/report.$fmt" 2>&1
    echo "report $fmt rc=$? bytes=$(wc -c <"$out/report.$fmt")"
done
grep -c '^linkscope_' "$out/report.prom"
step done
} 2>&1 | tee "$out/log.txt"
