#!/usr/bin/env bash
# Run documents measured next to another process, for the noisy rule's calibration
# (docs/analysis.md, "Statuses, spread, busy GPUs"): no kept document was, so whether the
# robust spread (1.4826 x MAD / median) still puts such figures above the limit is not
# shown by a real one yet. From out/dev (scripts/stage-device.sh stages it):
#     cd out/dev && bash device-noisy-busy.sh "$OUT" [RUNS]
# Per round: `linkscope run` alone (idle-N), beside a GEMM burn with its copies
# (burn-N: `linkscope burn`, the heaviest load), beside a loop of HBM copies (hbm-N:
# `linkscope hbm` again and again) and beside a loop of host copies (host-N: `linkscope
# host`, the PCIe path). Each busy run's telemetry lists the other process
# (telemetry.processes), so scripts/calibrate-noisy.py counts it apart once OUT/docs.tgz
# is kept under docs/bench/SESSION/.
# Writes OUT/log.txt (each run's verdict and noisy finding) and OUT/docs.tgz.
set -u
out=${1:?usage: device-noisy-busy.sh OUT_DIR [RUNS]}
runs=${2:-3}
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
docs=$out/docs
mkdir -p "$docs"

# load NAME: start the other process in a process group of its own (setsid: a background
# job of a script is no group leader, so setsid runs in place and $! is the group's id)
load() {
    case $1 in
    burn) setsid ./linkscope burn --seconds 600 -o "$docs/load-burn.json" >/dev/null 2>&1 & ;;
    hbm) setsid bash -c 'while :; do ./linkscope hbm -o "$1"; done' _ "$docs/load-hbm.json" \
        >/dev/null 2>&1 & ;;
    host) setsid bash -c 'while :; do ./linkscope host -o "$1"; done' _ "$docs/load-host.json" \
        >/dev/null 2>&1 & ;;
    esac
    load_pid=$!
    sleep 5 # the load is on the GPU before the run starts
}

# measure NAME: one `linkscope run` into $docs/NAME.json, its verdict and noisy line
measure() {
    timeout 200 ./linkscope run -o "$docs/$1.json" >"$docs/$1.txt" 2>&1
    echo "$1 rc=$? $(grep -m1 '^Verdict' "$docs/$1.txt")"
    grep -A2 'warning noisy' "$docs/$1.txt" | tr -s ' ' | tr '\n' ' '
    echo
}

{
    nvidia-smi -L
    for i in $(seq 1 "$runs"); do
        measure "idle-$i"
        for kind in burn hbm host; do
            load "$kind"
            measure "$kind-$i"
            kill -- "-$load_pid" 2>/dev/null # the load's group: the loop and its child
            wait "$load_pid" 2>/dev/null
            sleep 2
        done
    done
} 2>&1 | tee "$out/log.txt"
tar czf "$out/docs.tgz" -C "$docs" . && rm -rf "$docs" # the device returns 8 files at most
