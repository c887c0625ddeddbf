#!/usr/bin/env bash
# Calibration of the "noisy" limit on a healthy machine (docs/analysis.md, "noisy"):
# repeats `linkscope run` and `linkscope host` on the GPU machine and keeps every run
# document, so that the spread (coefficient of variation) of each figure can be read
# across runs: a limit that a healthy, idle machine crosses is a false alarm.
# Run from a folder holding the cpack tarball.
# usage: device-noise-calibration.sh OUT_DIR TARBALL [RUNS] [HOST_RUNS]
set -u
out=${1:?usage: device-noise-calibration.sh OUT_DIR TARBALL [RUNS] [HOST_RUNS]}
tarball=${2:?tarball}
runs=${3:-10}
host_runs=${4:-15}
export NCCL_NVLS_ENABLE=0
dir=$(mktemp -d)
tar xzf "$tarball" -C "$dir"
bin=$(ls "$dir"/linkscope-*/bin/linkscope)
docs=$(mktemp -d)
{
    nvidia-smi -L
    nproc; uptime
    for i in $(seq 1 "$runs"); do
        start=$(date +%s.%N)
        timeout 120 "$bin" run --no-report -o "$docs/run-$i.json" > "$docs/run-$i.txt" 2>&1
        echo "run $i rc=$? $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f s", b-a}')"
        grep -m1 -i "verdict" "$docs/run-$i.txt"
    done
    for i in $(seq 1 "$host_runs"); do
        timeout 60 "$bin" host --samples 10 -o "$docs/host-$i.json" > /dev/null 2>&1
        echo "host $i rc=$?"
    done
    uptime
} 2>&1 | tee "$out/calibration.txt"
tar czf "$out/docs.tgz" -C "$docs" .
