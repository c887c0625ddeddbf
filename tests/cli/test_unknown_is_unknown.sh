#!/usr/bin/env bash
# Unknown is unknown (issue 11): documents imported without a topology get no link
# class, expected figure, island or guessed ceiling, and say what they would need;
# p2pBandwidthLatencyTest alone gives no degraded-link warning.
bin=$(realpath "$1")
fx=$(realpath "$2")
. "$(dirname "$0")/lib.sh"

run 0 import "$fx/h200x2/nccl-tests-all_reduce.txt" -o "$tmp/nccl.json"
run 0 plan "$tmp/nccl.json" --fail-on warning
for bad in "6.30" "54.65" "(?" " ? " "nan"; do
    grep -qF -- "$bad" "$tmp/out" && bad "nccl-tests alone: the plan says '$bad'" || ok
done
grep -q 'import `nvidia-smi topo -m` to judge links' "$tmp/out" && ok || bad "the plan does not say it needs the topology"
grep -q "^Islands" "$tmp/out" && bad "an Islands heading over nothing" || ok
run 0 report "$tmp/nccl.json" --format md
grep -q "busbw at 8 GiB | 344.3 | GB/s | unknown |" "$tmp/out" && ok || bad "the headline does not say the peak is unknown"
grep -qE "(\(\?| \? |nan)" "$tmp/out" && bad "report prints ? or nan: $(grep -E '(\(\?| \? |nan)' "$tmp/out" | head -n 1)" || ok

run 0 import "$fx/h200x2/p2pBandwidthLatencyTest.txt" -o "$tmp/p2p.json"
run 0 plan "$tmp/p2p.json" --fail-on warning
grep -q "degraded_link" "$tmp/out" && bad "p2pBandwidthLatencyTest alone: degraded_link" || ok

# with the topology the same figures are judged against their NVLink ceiling
run 0 import "$fx/h200x2/nvidia-smi-topo.txt" "$fx/h200x2/p2pBandwidthLatencyTest.txt" -o "$tmp/both.json"
run 0 report "$tmp/both.json"
grep -qE "[0-9]+% of 478.1" "$tmp/out" && ok || bad "with the topology the headline has no % of peak"

echo "test_unknown_is_unknown: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
