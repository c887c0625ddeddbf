#!/usr/bin/env bash
# review12's GPU check (not run by review12: the lead holds the device): the copy-engine
# count the inventory now keeps (gpus[].cuda.async_engines, cudaDevAttrAsyncEngineCount)
# and bidir_low on linkscope's own host step. An H100/H200 has more than one copy
# engine, so a pinned bidirectional host copy should reach about the sum of its one-way
# figures and bidir_low stay silent. Builds nothing: run from the repository root with a
# CUDA build folder carried (BUILD, default build). Writes OUT_DIR/log.txt, inv.json,
# host.json, plan.json.
# Usage: scripts/device-review12.sh [OUT_DIR]   (the device tool's $OUT)
set -u
out=${1:-${OUT:-.}}
bin=${BUILD:-build}/linkscope
[ -x "$bin" ] || { echo "no $bin: carry the build folder"; exit 2; }
mkdir -p "$out"
{
    echo "--- nvidia-smi -L"; nvidia-smi -L 2>&1 | head -8
    echo "--- inventory: gpus[].cuda"
    "$bin" inventory --json -o "$out/inv.json" && jq -c '.gpus[] | {index, name, cuda}' "$out/inv.json"
    echo "--- async_engines present on every GPU (expect true)"
    jq '[.gpus[] | .cuda.async_engines | type == "number"] | all' "$out/inv.json"
    echo "--- host copies (pinned, both ways at once) and bidir_low"
    "$bin" host -o "$out/host.json" 2>&1 | tail -20
    "$bin" plan --json "$out/host.json" > "$out/plan.json"
    jq -c '[.findings[]? | select(.rule == "bidir_low") | {severity, message}]' "$out/plan.json"
} > "$out/log.txt" 2>&1
cat "$out/log.txt"
