#!/usr/bin/env bash
# report --format prom is valid Prometheus text (promtool check metrics, Debian's
# prometheus package) for every fixture; skipped (77) where promtool is absent.
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v promtool >/dev/null || { echo "skipped: promtool not installed (apt-get install prometheus)"; exit 77; }
for d in "$src/examples/h200x2-run.json" "$fx"/analyze/*.json "$fx"/tp/*.json; do
    run 0 report "$d" --fail-on never --format prom || continue
    promtool check metrics <"$tmp/out" >"$tmp/lint" 2>&1 && ok || bad "$(basename "$d"): $(head -3 "$tmp/lint")"
    grep -q '^linkscope_healthy{' "$tmp/out" && ok || bad "$(basename "$d"): no linkscope_healthy"
done
run 0 report "$src/examples/h200x2-run.json" --format prom
grep -q '^linkscope_p2p_bandwidth_bytes_per_second{.*id="p2p-ce-uni-0-1".*} 396843197178.45' "$tmp/out" && ok ||
    bad "P2P bandwidth not in bytes per second at full precision"
grep -q '^# TYPE linkscope_nccl_bus_bandwidth_bytes_per_second gauge' "$tmp/out" && ok || bad "no NCCL TYPE line"
echo "test_report_prom: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
