#!/usr/bin/env bash
# The lead's GPU check of session 5, in one call, from out/dev (scripts/stage-device.sh
# stages it; the device call carries out/dev):
#     cd out/dev && bash device-session5.sh "$OUT"
# linkscope health live and timed (issue 23: under 10 s, healthy), health --dry-run for
# this node, run quick and thorough each timed against the projection it stores (issue
# 26: within 15%), burn --into keeping the document's entries, every one-GPU gpu test
# binary and gpu cli script, nccl-tests' text and -J JSON of one run (the reference
# nccl-tests: copy ../shared/anchors/bin.tar.gz to out/dev/anchors-bin.tar.gz first), and
# the one-node Slurm test where Slurm is installed.
# Writes OUT/log.txt (the summary) and OUT/logs.tgz (every log, the run documents).
set -u
out=${1:?usage: device-session5.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-} LS_FIXTURES=$PWD/fixtures
logs=$out/logs
mkdir -p "$logs"
wall() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b - a}'; }
# stored: the projection and the measured seconds the run document keeps (schema.md)
stored() { grep -oE '"(projected_s|measured_s|wall_s)": [0-9.]+' "$1" | head -4 | tr '\n' ' '; }
{
    nvidia-smi -L
    echo "=== health (live, timed)"
    s=$(date +%s.%N)
    ./linkscope health >"$logs/health.txt" 2>&1
    echo "health rc=$? wall $(wall "$s") s"
    cat "$logs/health.txt"
    ./linkscope health --slurm 2>&1 | head -2
    ./linkscope health --dry-run 2>&1 | tail -2
    for level in quick thorough; do
        echo "=== run $level (timed) against its projection"
        ./linkscope run --dry-run --level "$level" 2>&1 | tail -1
        s=$(date +%s.%N)
        timeout 200 ./linkscope run --level "$level" -o "$logs/run-$level.json" >"$logs/run-$level.txt" 2>&1
        echo "run $level rc=$? wall $(wall "$s") s; stored: $(stored "$logs/run-$level.json")"
        grep -iE "^verdict|healthy|error|warning" "$logs/run-$level.txt" | head -6
        # stderr was a file, not a terminal: one timestamped line per step and round (issue 23)
        echo "progress lines in a file: $(grep -cE '^linkscope: [0-9]{4}-' "$logs/run-$level.txt")"
    done
    echo "=== compute-sanitizer over health's probe (memcheck and initcheck at once)"
    for tool in memcheck initcheck; do
        timeout 120 compute-sanitizer --tool "$tool" --print-limit 20 ./linkscope health --budget 60 \
            >"$logs/cs-$tool-health.log" 2>&1 &
    done
    wait
    for tool in memcheck initcheck; do
        bash device-sanitize.sh --line "$tool" health-probe 0 "$logs/cs-$tool-health.log"
    done
    echo "=== run --quiet (the verdict line and what failed)"
    timeout 60 ./linkscope run --quiet --no-nccl -o "$logs/run-q.json" >"$logs/run-q.txt" 2>"$logs/run-q.err"
    echo "run --quiet rc=$? stdout lines $(grep -c . "$logs/run-q.txt"): $(head -2 "$logs/run-q.txt" | tr '\n' '|')"
    echo "=== burn --into keeps the document"
    cp "$logs/run-quick.json" "$logs/into.json"
    n0=$(grep -c '"family"' "$logs/into.json")
    timeout 60 ./linkscope burn --seconds 5 --into "$logs/into.json" >"$logs/burn.txt" 2>&1
    echo "burn --into rc=$? family keys before $n0 after $(grep -c '"family"' "$logs/into.json"), burn: $(grep -c '"burn"' "$logs/into.json")"
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
    echo "=== nccl-tests text and -J JSON of one run (issue 28's real pair)"
    ANCHORS_TGZ=$PWD/anchors-bin.tar.gz bash device-tools-pair.sh "$logs/pair" 2>&1 | tail -8
    echo "=== Slurm on this machine"
    if command -v slurmctld >/dev/null && [ -f slurm/test_slurm.sh ]; then
        timeout 120 bash slurm/test_slurm.sh ./linkscope "$PWD/fixtures" >"$logs/slurm.log" 2>&1
        echo "slurm rc=$?: $(tail -1 "$logs/slurm.log")"
    else
        echo "no slurmctld here: $(command -v slurmctld slurmd munged | tr '\n' ' ')"
    fi
} 2>&1 | tee "$out/log.txt"
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$logs"
