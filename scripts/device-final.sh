#!/usr/bin/env bash
# The lead's final GPU check of a session, in one call, from out/dev (scripts/stage-device.sh
# stages it; the device call carries out/dev):
#     cd out/dev && bash device-final.sh "$OUT"
# - latency on one GPU (its pointer chase to pinned host memory, one figure in a window of
#   one GPU), five times as the code is and five with LINKSCOPE_TELEMETRY_PCIE=always,
#   alternating: what a short figure's telemetry window costs (docs/schedule.md);
# - health live and timed; run quick twice and thorough once against the projection each
#   stores; run --quiet; burn --into keeping the document;
# - every gpu test binary and gpu cli script; the one-node Slurm test where installed.
# Writes OUT/log.txt (the summary) and OUT/logs.tgz (every log, the run documents).
# LS_FINAL_SHORT=1 leaves out the latency timing and the thorough run (a call on a short
# device budget: about 2 minutes less).
set -u
out=${1:?usage: device-final.sh OUT_DIR}
short=${LS_FINAL_SHORT:-0}
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-} LS_FIXTURES=$PWD/fixtures
logs=$out/logs
mkdir -p "$logs"
wall() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.3f", b - a}'; }
stored() { grep -oE '"(elapsed_s|projected_s)": [0-9.]+' "$1" | tail -2 | tr '\n' ' '; }
{
    nvidia-smi -L
    echo "=== latency on one GPU: as the code is (c) and with the PCIe query in every reading (a)"
    [ "$short" = 1 ] && echo "left out (LS_FINAL_SHORT=1)"
    for i in $([ "$short" = 1 ] || echo 1 2 3 4 5); do
        s=$(date +%s.%N)
        ./linkscope latency -o "$logs/lat-c$i.json" >/dev/null 2>&1
        c=$(wall "$s")
        s=$(date +%s.%N)
        LINKSCOPE_TELEMETRY_PCIE=always ./linkscope latency -o "$logs/lat-a$i.json" >/dev/null 2>&1
        echo "latency c$i wall $c s, a$i wall $(wall "$s") s," \
            "reading_ms c $(grep -oE '"reading_ms": [0-9.]+' "$logs/lat-c$i.json" | head -1 | cut -d' ' -f2)" \
            "a $(grep -oE '"reading_ms": [0-9.]+' "$logs/lat-a$i.json" | head -1 | cut -d' ' -f2)"
    done
    echo "=== health (live, timed)"
    s=$(date +%s.%N)
    ./linkscope health >"$logs/health.txt" 2>&1
    echo "health rc=$? wall $(wall "$s") s"
    head -4 "$logs/health.txt"
    for run in quick-1 quick-2 $([ "$short" = 1 ] || echo thorough); do
        level=${run%-*}
        s=$(date +%s.%N)
        timeout 200 ./linkscope run --level "$level" -o "$logs/run-$run.json" >"$logs/run-$run.txt" 2>&1
        echo "run $run rc=$? wall $(wall "$s") s; stored: $(stored "$logs/run-$run.json")"
        grep -E "^Verdict" "$logs/run-$run.txt" | head -1
    done
    echo "=== run --quiet"
    timeout 60 ./linkscope run --quiet --no-nccl -o "$logs/run-q.json" >"$logs/run-q.txt" 2>"$logs/run-q.err"
    echo "run --quiet rc=$? stdout lines $(grep -c . "$logs/run-q.txt"): $(head -2 "$logs/run-q.txt" | tr '\n' '|')"
    echo "=== burn --into keeps the document"
    cp "$logs/run-quick-1.json" "$logs/into.json"
    n0=$(grep -c '"family"' "$logs/into.json")
    timeout 60 ./linkscope burn --seconds 5 --into "$logs/into.json" >"$logs/burn.txt" 2>&1
    echo "burn --into rc=$? family keys before $n0 after $(grep -c '"family"' "$logs/into.json")"
    echo "=== gpu test binaries"
    for t in ./test_*; do
        timeout 150 "$t" >"$logs/$(basename "$t").log" 2>&1
        rc=$?
        echo "$t rc=$rc $(grep -E 'PASSED|FAILED|SKIPPED' "$logs/$(basename "$t").log" | tail -1)"
    done
    echo "=== gpu cli tests"
    for s in $(cd cli && ls test_gpu_*.sh); do
        timeout 150 bash "cli/$s" ./linkscope "$PWD/fixtures" >"$logs/$s.log" 2>&1
        echo "$s rc=$?: $(tail -1 "$logs/$s.log")"
    done
    echo "=== Slurm on this machine"
    if command -v slurmctld >/dev/null && [ -f slurm/test_slurm.sh ]; then
        timeout 120 bash slurm/test_slurm.sh ./linkscope "$PWD/fixtures" >"$logs/slurm.log" 2>&1
        echo "slurm rc=$?: $(tail -1 "$logs/slurm.log")"
    else
        echo "no slurmctld here: $(command -v slurmctld slurmd munged | tr '\n' ' ')"
    fi
} 2>&1 | tee "$out/log.txt"
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$logs"
