#!/usr/bin/env bash
# GPU check of issue 23's branch (gates), in one call, from out/dev (scripts/stage-device.sh):
# `run` with stderr in a file (one timestamped progress line per step and round, no
# escapes), `run --quiet` (the verdict line and what failed, no progress), health live
# and timed at every --fail-on level, health --dry-run on this machine, and the run
# checked against a baseline of itself and of the kept idle runs' first document.
# usage: device-gates.sh OUT_DIR
set -u
out=${1:?usage: device-gates.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
logs=$out/logs; mkdir -p "$logs"
wall() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b - a}'; }
{
nvidia-smi -L
echo "=== run, stderr to a file"
s=$(date +%s.%N); timeout 180 ./linkscope run -o "$logs/run.json" > "$logs/run.out" 2> "$logs/run.err"
echo "run rc=$? wall $(wall "$s") s; progress lines: $(grep -cE '^linkscope: 20[0-9-]+T[0-9:]+Z \+[0-9.]+ s ' "$logs/run.err"); escapes: $(grep -c $'\033' "$logs/run.err")"
head -12 "$logs/run.err"
echo "=== run --quiet"
timeout 180 ./linkscope run --quiet --no-nccl -o "$logs/quiet.json" > "$logs/quiet.out" 2> "$logs/quiet.err"
echo "run --quiet rc=$?; stdout:"; cat "$logs/quiet.out"; echo "stderr:"; cat "$logs/quiet.err"
echo "=== health"
for level in error warning info never; do
  s=$(date +%s.%N); ./linkscope health --fail-on "$level" > "$logs/health-$level.txt" 2>&1
  echo "health --fail-on $level rc=$? wall $(wall "$s") s: $(head -1 "$logs/health-$level.txt")"
done
./linkscope health --quiet; echo "health --quiet rc=$?"
./linkscope health --dry-run; echo "health --dry-run rc=$?"
echo "=== check against baselines"
./linkscope baseline "$logs/run.json" -o "$logs/self.json" && ./linkscope check "$logs/quiet.json" --baseline "$logs/self.json"
echo "check (--no-nccl run against the full run's baseline) rc=$?"
} 2>&1 | tee "$out/log.txt"
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$logs"
