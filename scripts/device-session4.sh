#!/usr/bin/env bash
# The lead's GPU check of session 4, in one call, from out/dev (scripts/stage-device.sh):
# linkscope health live and timed, burn --into keeping a document's entries,
# compute-sanitizer initcheck over hbm (the XOR word fix), `run` quick timed against its
# dry-run projection, then every one-GPU gpu test binary and cli script.
# usage: device-session4.sh OUT_DIR
set -u
out=${1:?usage: device-session4.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-} LS_FIXTURES=$PWD/fixtures
logs=$out/logs; mkdir -p "$logs"
wall() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b - a}'; }
{
nvidia-smi -L
echo "=== health"
BUILD=. bash device-health.sh "$logs" > /dev/null 2>&1
grep -E "rc=|slurm|labels" "$logs/log.txt"; cat "$logs/health.txt"
echo "=== run quick (timed) and its projection"
./linkscope run --dry-run 2>&1 | tail -3
s=$(date +%s.%N); timeout 120 ./linkscope run -o "$out/run.json" > "$logs/run.txt" 2>&1
echo "run rc=$? wall $(wall "$s") s"; grep -iE "verdict|healthy|error|warning" "$logs/run.txt" | head -8
echo "=== burn --into"
cp "$out/run.json" "$logs/into.json"; n0=$(grep -c '"family"' "$logs/into.json")
timeout 60 ./linkscope burn --seconds 5 --into "$logs/into.json" > "$logs/burn.txt" 2>&1
echo "burn --into rc=$? family keys before $n0 after $(grep -c '"family"' "$logs/into.json") burn key: $(grep -c '"burn"' "$logs/into.json")"
echo "=== compute-sanitizer initcheck hbm"
timeout 150 compute-sanitizer --tool initcheck --print-limit 3 ./linkscope hbm -o /tmp/cs.json > "$logs/cs-initcheck-hbm.log" 2>&1
echo "initcheck hbm rc=$? $(grep 'ERROR SUMMARY' "$logs/cs-initcheck-hbm.log")"
echo "=== gpu test binaries"
for t in ./test_*; do
  timeout 120 "$t" > "$logs/$(basename "$t").log" 2>&1; rc=$?
  echo "$t rc=$rc $(grep -E 'PASSED|FAILED' "$logs/$(basename "$t").log" | tail -1)"
done
echo "=== gpu cli tests"
for s in $(cd cli && ls test_gpu_*.sh); do
  timeout 120 bash "cli/$s" ./linkscope "$PWD/fixtures" > "$logs/$s.log" 2>&1; echo "$s rc=$?"; tail -2 "$logs/$s.log"
done
} 2>&1 | tee "$out/log.txt"
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$logs"
