#!/usr/bin/env bash
# The GPU check of the options branch (issue 24): every --into command now opens,
# locks and writes its document through the dispatcher's prologue (src/cli/into.c), so
# each is run once with --into on a copy of the bundled H200 run and must keep the
# document's entries and add its own. From out/dev (scripts/stage-device.sh stages it):
#     cd out/dev && bash device-options.sh "$OUT"
# Writes OUT/log.txt (one line per command) and OUT/logs/ (each command's output).
set -u
out=${1:?usage: device-options.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
logs=$out/logs
mkdir -p "$logs"
count() { grep -c '"family"' "$1"; }
# into NAME ARGS...: linkscope ARGS --into a fresh copy; rc, entries before and after
into() {
    local name=$1 doc=$logs/$1.json
    shift
    cp examples/h200x2-run.json "$doc"
    local n0 rc
    n0=$(count "$doc")
    timeout 120 ./linkscope "$@" --into "$doc" >"$logs/$name.txt" 2>&1
    rc=$?
    echo "$name --into rc=$rc entries before $n0 after $(count "$doc") (expected more, rc 0 or 1)"
}
{
    nvidia-smi -L
    into burn burn --seconds 5
    into p2p p2p --samples 3
    into latency latency --samples 3
    into hbm hbm --samples 3
    into host host --samples 3
    into nccl nccl all_reduce -b 8M -e 8M
    into tp tp --model llama3-8b --tp 2 --prompt 3200 --measure --gpus 0,1
    echo "=== a second --into on a document another command holds"
    cp examples/h200x2-run.json "$logs/locked.json"
    ./linkscope burn --seconds 5 --into "$logs/locked.json" >/dev/null 2>&1 &
    pid=$!
    sleep 1
    ./linkscope p2p --samples 3 --into "$logs/locked.json" 2>&1 | head -2
    wait "$pid"
    echo "burn rc=$? entries after both $(count "$logs/locked.json")"
} >"$out/log.txt" 2>&1
cat "$out/log.txt"
