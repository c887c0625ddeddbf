#!/usr/bin/env bash
# The lead's first GPU call of session 6, from out/dev (scripts/stage-device.sh stages
# it; the device call carries out/dev):
#     cd out/dev && bash device-session6.sh "$OUT"
# Issue 26, the per-figure fixed cost: the telemetry window's readings, with and without
# NVML's sampled PCIe throughput query (20 ms per direction per GPU). Measured here,
# interleaved on one lease:
#   1. host copies and the PCIe figures their windows hold;
#   2. three quick runs as the code is (the query in the host copies' windows only)
#      and three with LINKSCOPE_TELEMETRY_PCIE=always (every window, as before session
#      6), alternating: each step's seconds, reading_ms;
#   3. one thorough run, against its stored projection;
#   4. compute-sanitizer's four tools over burn with cuBLAS at LINKSCOPE_BURN_MATRIX_N=256.
# Its first run (docs/bench/h200x1-2026-12-04-s6/) was at 949405e, when the windows read
# NVML's PCIe byte counters instead (then taken out: wrong on that driver).
# Writes OUT/log.txt and OUT/runs.tgz (the documents, the sanitizer logs).
set -u
out=${1:?usage: device-session6.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-} LS_FIXTURES=$PWD/fixtures
docs=$out/runs
mkdir -p "$docs"
# steps DOC: "name seconds" of each run step, then the telemetry readings
steps() {
    python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
run = d.get("run", {})
print("elapsed %.3f projected %.3f" % (run.get("elapsed_s", 0), run.get("projected_s", 0)))
for s in run.get("steps", []):
    print("  step %-40s %.3f s (projected %.3f)" % (s.get("step"), s.get("seconds", 0), s.get("projected_s", 0)))
r = [e["telemetry"]["reading_ms"] for e in d.get("measurements", []) if "reading_ms" in e.get("telemetry", {})]
if r:
    print("  reading_ms: %d windows, mean %.2f, min %.2f, max %.2f" % (len(r), sum(r) / len(r), min(r), max(r)))
EOF
}
{
    nvidia-smi -L
    nvidia-smi --query-gpu=driver_version --format=csv,noheader
    echo "=== 1. host copies and their windows' PCIe figures"
    ./linkscope host --size 512M --samples 5 -o "$docs/host.json" >/dev/null 2>&1
    echo "host rc=$?"
    python3 - "$docs/host.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d.get("measurements", []):
    t = e.get("telemetry", {})
    print("%-8s %-10s %-8s value %8.2f GB/s  pcie tx %s rx %s" % (
        e.get("family"), e.get("method"), e.get("direction", ""), e.get("value") or 0,
        t.get("pcie_tx_gbps"), t.get("pcie_rx_gbps")))
EOF
    echo "=== 2. quick runs: as the code is (c) and LINKSCOPE_TELEMETRY_PCIE=always (s), alternating"
    for i in 1 2 3; do
        ./linkscope run --no-report -o "$docs/c$i.json" >/dev/null 2>&1
        echo "c$i rc=$?"; steps "$docs/c$i.json"
        LINKSCOPE_TELEMETRY_PCIE=always ./linkscope run --no-report -o "$docs/s$i.json" >/dev/null 2>&1
        echo "s$i rc=$?"; steps "$docs/s$i.json"
    done
    echo "=== 3. thorough run"
    ./linkscope run --level thorough --no-report -o "$docs/t1.json" >/dev/null 2>&1
    echo "t1 rc=$?"; steps "$docs/t1.json"
    echo "=== 4. compute-sanitizer over burn with cuBLAS at 256^3"
    for tool in memcheck racecheck synccheck initcheck; do
        LINKSCOPE_BURN_MATRIX_N=256 LS_GATE_TIMEOUT_MS=200 timeout -k 5 200 compute-sanitizer --tool "$tool" \
            --print-limit 50 ./linkscope burn --seconds 3 -o "/tmp/burn-$tool.json" >"$docs/$tool-burn.log" 2>&1 &
    done
    wait
    for tool in memcheck racecheck synccheck initcheck; do
        bash device-sanitize.sh --line "$tool" "burn (cuBLAS, 256^3)" 0 "$docs/$tool-burn.log"
        grep -o '"matrix_n": [0-9]*' "/tmp/burn-$tool.json" 2>/dev/null | head -1
    done
} 2>&1 | tee "$out/log.txt"
tar czf "$out/runs.tgz" -C "$out" runs && rm -rf "$docs"
