#!/usr/bin/env bash
# Baseline gates that hold on healthy machines (issue 23, docs/compare-check.md "How k was
# chosen"): every pair of the kept idle run documents (tests/fixtures/runs/, 53 documents
# of one H200 machine, two cards) passes `check` against the other's baseline: all
# N x (N-1) ordered pairs, one `check` call per baseline over every document. A run with
# fewer figures gives skips (JUnit <skipped>), violations only with --require-all; a real
# fault (a pinned host copy at half, a pageable one at a third) still fails.
# args: linkscope binary, fixtures dir
set -u
bin=$(realpath "$1")
fx=$(realpath "$2")
. "$(dirname "$0")/lib.sh"

docs=()
for t in "$fx"/runs/*.tgz; do
    d="$tmp/$(basename "$t" .tgz)"
    mkdir -p "$d" && tar xzf "$t" -C "$d"
    for f in "$d"/*.json; do docs+=("$f"); done
done
n=${#docs[@]}
[ "$n" -ge 50 ] && ok || bad "only $n idle run documents found"

# every ordered pair: the baseline of i, every document checked against it
pairs=0
for ((i = 0; i < n; i++)); do
    b=$tmp/base-$i.json
    "$bin" baseline "${docs[i]}" -o "$b" 2>/dev/null || { bad "baseline ${docs[i]}"; continue; }
    if run 0 check --baseline "$b" "${docs[@]}"; then
        [ "$(grep -c '^check: ' "$tmp/out")" -eq "$n" ] || bad "$(basename "${docs[i]}"): not $n verdict lines"
        pairs=$((pairs + n - 1))
    else
        grep '^FAIL' "$tmp/out" | head -3 | sed "s|^|  baseline ${docs[i]#"$tmp"/}: |"
    fi
done
[ "$pairs" -eq $((n * (n - 1))) ] && ok || bad "$pairs of $((n * (n - 1))) ordered pairs passed"

# the baseline records the spread and k; a pageable copy's spread is at least the floor
a=$tmp/h200x1-idle-25-2026-12-01
python3 - "$tmp/base-0.json" <<'PY' && ok || bad "baseline without spread_k / spread_pct"
import json, sys
b = json.load(open(sys.argv[1]))
assert b["spread_k"] == 3
for e in b["expectations"]:
    assert e["spread_pct"] >= 0
    if e["match"].get("memory") == "pageable":
        assert e["spread_pct"] >= 14, e
PY

# a run with fewer figures: the host-only document against a full run's baseline
"$bin" baseline "$a/run-1.json" -o "$tmp/run1.json" 2>/dev/null
if run 0 check "$a/host-2.json" --baseline "$tmp/run1.json" --junit "$tmp/skip.xml"; then
    [ "$(grep -c '^SKIP hbm ' "$tmp/out")" -eq 4 ] && ok || bad "not 4 SKIP lines: $(cat "$tmp/out")"
    grep -q "^check: the other 6 expectations met, 4 skipped (no such figure in the run)" "$tmp/out" && ok ||
        bad "skip verdict: $(tail -1 "$tmp/out")"
    grep -q 'tests="10" failures="0" errors="0" skipped="4"' "$tmp/skip.xml" &&
        [ "$(grep -c '<skipped message="SKIP hbm ' "$tmp/skip.xml")" -eq 4 ] && ! grep -q '<failure' "$tmp/skip.xml" &&
        python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/skip.xml" && ok ||
        bad "JUnit skips: $(cat "$tmp/skip.xml")"
fi
run 0 check "$a/host-2.json" --baseline "$tmp/run1.json" --quiet &&
    { [ "$(cat "$tmp/out" | wc -l)" -eq 1 ] && ok || bad "--quiet printed skips: $(cat "$tmp/out")"; }
if run 1 check "$a/host-2.json" --baseline "$tmp/run1.json" --require-all --junit "$tmp/req.xml"; then
    [ "$(grep -c '^FAIL hbm .*--require-all is given$' "$tmp/out")" -eq 4 ] && ok || bad "require-all: $(cat "$tmp/out")"
    grep -q 'failures="4" errors="0" skipped="0"' "$tmp/req.xml" && grep -q '<failure type="missing"' "$tmp/req.xml" &&
        ok || bad "require-all JUnit: $(cat "$tmp/req.xml")"
fi
run 0 check "$a/host-2.json" --baseline "$tmp/run1.json" --require-all --fail-on never

# a fault still fails: GPU0's pinned host-to-GPU copy at half (a PCIe link at x8 of x16),
# then its pageable GPU-to-host copy at a third (beyond 3 x its 14% spread)
degrade() { # FILE ID FACTOR OUT
    python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["measurements"]:
    if e.get("id") == sys.argv[2]:
        f = float(sys.argv[3])
        e["value"] *= f
        e["samples"] = [s * f for s in e["samples"]]
        for k in ("median", "min", "max", "mean", "stddev"):
            e["stats"][k] *= f
json.dump(d, open(sys.argv[4], "w"))
PY
}
degrade "$a/run-2.json" host-h2d-pinned-0-node0 0.5 "$tmp/x8.json"
run 1 check "$tmp/x8.json" --baseline "$tmp/run1.json" &&
    { grep -q '^FAIL host h2d h2d GPU0 node0 pinned: .*tolerance 10.0%' "$tmp/out" && [ "$(grep -c '^FAIL' "$tmp/out")" -eq 1 ] &&
        ok || bad "pinned at half: $(cat "$tmp/out")"; }
degrade "$a/run-2.json" host-d2h-pageable-0-node0 0.33 "$tmp/slow.json"
run 1 check "$tmp/slow.json" --baseline "$tmp/run1.json" &&
    { grep -q '^FAIL host d2h d2h GPU0 node0 pageable: .*= 3 x spread' "$tmp/out" && ok || bad "pageable at a third: $(cat "$tmp/out")"; }
# several runs: the worst exit code; --junit takes one
run 1 check --baseline "$tmp/run1.json" "$a/run-3.json" "$tmp/x8.json"
run 2 check --baseline "$tmp/run1.json" "$a/run-3.json" "$a/run-4.json" --junit "$tmp/two.xml"
run 2 check --baseline "$tmp/run1.json" "$a/run-3.json" "$tmp/missing.json" &&
    { [ ! -s "$tmp/out" ] && ok || bad "checked before refusing a missing run: $(cat "$tmp/out")"; }

echo "baseline gates: $n idle documents, $pairs ordered pairs pass; $pass passed, $fail failed"
[ "$fail" -eq 0 ]
