#!/usr/bin/env bash
# Impossible figures (docs/safety.md "Impossible figures"): a p2pBandwidthLatencyTest
# matrix with 0.00 or negative cells, an nccl-tests table with nan/inf cells, a size of
# 10^26, a negative time and a size twice, an empty document and a fleet of empty
# documents: each is a named finding, never "healthy"; the errors exit 1 under the
# default --fail-on.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"

verdict() { # verdict WHAT RC RULE DOC: report --quiet exits RC and names RULE
    run "$2" report "$4" --quiet || return
    grep -q "$3" "$tmp/out" && ok || bad "$1: no $3 in: $(head -3 "$tmp/out")"
    head -1 "$tmp/out" | grep -qi "healthy" && bad "$1: verdict healthy" || ok
    grep -q "AddressSanitizer\|runtime error" "$tmp/err" && bad "$1: sanitizer report" || ok
}

p2p=$fx/h200x2/p2pBandwidthLatencyTest.txt
sed 's/359.78/  0.00/; s/392.28/  0.00/' "$p2p" >"$tmp/p2p-zero.txt"
sed 's/ 37.75/-37.75/' "$p2p" >"$tmp/p2p-neg.txt"
sed 's/ 37.75/ 1e308/' "$p2p" >"$tmp/p2p-huge.txt" # past any hardware's bandwidth
for t in zero neg huge; do
    "$bin" import "$tmp/p2p-$t.txt" -o "$tmp/p2p-$t.json" 2>/dev/null && ok || bad "import p2p-$t"
    verdict "p2p $t" 1 "impossible_value" "$tmp/p2p-$t.json"
    run 1 plan "$tmp/p2p-$t.json"
done

nccl=$fx/h200x2/nccl-tests-all_reduce.txt
awk '/^ +16777216 /{sub(/212.79  212.79/,"   nan    -inf")} {print}' "$nccl" >"$tmp/nccl-nan.txt"
awk '/^ +8 +2 /{print "  100000000000000000000000000  2  float  sum  -1  15.64  0.00  0.00  0  15.52  0.00  0.00  0"} {print}' \
    "$nccl" >"$tmp/nccl-big.txt"
sed 's/  15.64  /  -15.64 /' "$nccl" >"$tmp/nccl-negtime.txt"
awk '/^ +16777216 /{print} {print}' "$nccl" >"$tmp/nccl-dup.txt"
for t in nan big negtime dup; do
    "$bin" import "$tmp/nccl-$t.txt" -o "$tmp/nccl-$t.json" 2>/dev/null && ok || bad "import nccl-$t"
    verdict "nccl $t" 0 "suspect_rows" "$tmp/nccl-$t.json"
    run 1 report "$tmp/nccl-$t.json" --quiet --fail-on warning
done
# the cells left out are said in the entry: not "ok, verified"
grep -q '"verified": false' "$tmp/nccl-nan.json" && ok || bad "nan cells: the entry still says verified"
grep -q 'nonfinite_cells' "$tmp/nccl-nan.json" && ok || bad "nan cells: no nonfinite_cells flag"
grep -q 'unreadable_size' "$tmp/nccl-big.json" && ok || bad "10^26: no unreadable_size flag"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(any(r['bytes']==0 for m in d['measurements'] for r in m.get('rows',[])))" \
    "$tmp/nccl-big.json" && ok || bad "10^26 became a row of 0 bytes"

# an empty document: nothing measured, exit 1 (report, plan); a fleet of them likewise
printf '%s' '{"schema":"linkscope.run/1","created":"2026-01-01T00:00:00Z","tool":{"version":"t","commit":"t"},"host":{},"software":{},"gpus":[],"links":[],"nics":[],"gpu_nic_links":[],"env":{},"measurements":[]}' \
    >"$tmp/empty.json"
verdict "empty" 1 "nothing_measured" "$tmp/empty.json"
run 1 plan "$tmp/empty.json"
mkdir "$tmp/fleet" && cp "$tmp/empty.json" "$tmp/fleet/a.json" && cp "$tmp/empty.json" "$tmp/fleet/b.json"
run 1 fleet "$tmp/fleet" && { grep -q "nothing_measured" "$tmp/out" && ok || bad "fleet of empty documents: no nothing_measured"; }
# --fail-on never still reports it but exits 0
run 0 report "$tmp/empty.json" --quiet --fail-on never

echo "safety figures: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
