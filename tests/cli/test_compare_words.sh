#!/usr/bin/env bash
# compare's words (issue 27): one word per label ("host h2d GPU0", not "host h2d h2d
# GPU0"); a change past the threshold but inside the samples' noise says "within noise";
# figures of different methods are never paired (each tool's "staged" path without P2P).
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
ex="$src/examples/h200x2-run.json"

run 0 compare "$ex" "$ex"
grep -q "^host h2d GPU0 node0 pinned" "$tmp/out" && ok || bad "no 'host h2d GPU0' row: $(grep '^host' "$tmp/out" | head -1)"
# the figure rows (after the context block, whose A and B columns may well agree)
awk '/^figure / { on = 1; next } on { for (i = 2; i <= NF; i++) if ($i == $(i - 1) && $i ~ /^[a-z]/) bad = 1 }
     END { exit !bad }' "$tmp/out" && bad "a label repeats a word" || ok

# the imported P2P-disabled copy (driver staging) is not linkscope's staged copy
run 0 compare "$fx/analyze/h200x2-anchors.json" "$ex" --fail-on never
grep -q "staged" "$tmp/out" && bad "a staged figure paired across tools: $(grep staged "$tmp/out" | head -1)" || ok
grep -q "gpu_copy GPU0->GPU1 \[p2pBandwidthLatencyTest vs linkscope\]" "$tmp/out" && ok ||
    bad "the same method of two tools no longer paired"

# within noise: -8% on a figure whose samples vary by 5% (limit 3 x sqrt(2) x 5% = 21%)
python3 - "$ex" "$tmp/a.json" "$tmp/b.json" <<'PY'
import json, sys
for out, scale in ((sys.argv[2], 1.0), (sys.argv[3], 0.92)):
    d = json.load(open(sys.argv[1]))
    for e in d["measurements"]:
        if e.get("id") == "hbm-read-0":
            e["value"] *= scale
            e["stats"]["median"] = e["value"]
            e["stats"]["cv"] = 0.05
    json.dump(d, open(out, "w"))
PY
run 0 compare "$tmp/a.json" "$tmp/b.json" --fail-on never
grep -E "^hbm read GPU0 " "$tmp/out" | grep -q "same, within noise (21.2%)" && ok ||
    bad "an 8% change inside 21% of noise is not named: $(grep -E '^hbm read GPU0 ' "$tmp/out")"
grep -E "^hbm write GPU0 " "$tmp/out" | grep -q "noise" && bad "an unchanged figure says noise" || ok
run 0 compare "$tmp/a.json" "$tmp/b.json" --json --fail-on never
python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1]))["rows"] if x["label"].startswith("hbm read GPU0")][0]; sys.exit(0 if r["verdict"]=="same" and r.get("within_noise") is True else 1)' "$tmp/out" && ok || bad "JSON lacks within_noise"

echo "test_compare_words: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
