#!/usr/bin/env bash
# Other tools' results in a fleet: four nodes import a DCGM diagnostic and nccl-tests -J
# (tests/fixtures/tools); node4's DCGM memory test failed on GPU 3: fleet names node4 with
# dcgm_failed, exits 1; the three passing nodes alone exit 0 with no finding row. An
# ncclras MISMATCH report imported gives a verdict that is not healthy.
# args: linkscope binary, fixtures dir
set -u
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
t=$fx/tools
mkdir -p "$tmp/fleet" "$tmp/good"
for n in 1 2 3 4; do
    diag=$t/dcgm-diag-3x-pass.constructed.json
    [ $n -eq 4 ] && diag=$t/dcgm-diag-4x-memory-fail.constructed.json
    run 0 import "$diag" "$t/nccl-tests-json-v3-allreduce-8gpu.constructed.json" -o "$tmp/fleet/node$n.json"
    # each node's own name (the fixtures share one)
    sed -i "s/\"hostname\": \"h200\"/\"hostname\": \"node$n\"/" "$tmp/fleet/node$n.json"
    grep -q "\"hostname\": \"node$n\"" "$tmp/fleet/node$n.json" && ok || bad "node$n: hostname not set"
    [ $n -lt 4 ] && cp "$tmp/fleet/node$n.json" "$tmp/good/"
done
run 1 fleet "$tmp/fleet" && {
    grep -qE "^  error +node4 +dcgm_failed +GPU3" "$tmp/out" && ok || bad "node4's dcgm_failed not listed: $(cat "$tmp/out")"
    [ "$(grep -cE 'dcgm_failed' "$tmp/out")" -eq 1 ] && ok || bad "dcgm_failed listed more than once"
}
run 0 fleet "$tmp/good" && {
    grep -q "dcgm_failed" "$tmp/out" && bad "a passing node listed with dcgm_failed" || ok
}
run 0 import "$t/ras-mismatch-nccl1911.txt" -o "$tmp/ras.json" && {
    grep -q "ncclras" "$tmp/err" && ok || bad "RAS text not recognized as ncclras: $(cat "$tmp/err")"
}
run 1 report "$tmp/ras.json" && {
    grep -q "Verdict: healthy" "$tmp/out" && bad "MISMATCH job called healthy" || ok
    grep -q "^Verdict: 1 error" "$tmp/out" && ok || bad "verdict: $(grep Verdict "$tmp/out")"
}
echo "test_tools_fleet: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
