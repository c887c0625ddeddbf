#!/usr/bin/env bash
# fleet's HTML and its models (issue 27): a styled page with, per model, every figure's
# distribution (every node a dot at its share of the figure's median, outliers red and
# named); a mixed node's model is its GPU names counted once each, not 11 names in a row.
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

python3 "$src/scripts/make-fleet.py" "$src/examples/h200x2-run.json" "$tmp/fleet" 12 --faults >/dev/null ||
    { echo "FAIL: make-fleet.py"; exit 1; }
run 1 fleet "$tmp/fleet" --json
cp "$tmp/out" "$tmp/fleet.json"
run 1 fleet "$tmp/fleet" --html "$tmp/fleet.html"
grep -q "<style>" "$tmp/fleet.html" && grep -q '<meta name="viewport"' "$tmp/fleet.html" && ok || bad "fleet html unstyled"
python3 - "$tmp/fleet.json" "$tmp/fleet.html" <<'PY' && ok || bad "the distribution does not show every node and outlier"
import json, re, sys
r = json.load(open(sys.argv[1]))
h = open(sys.argv[2]).read()
svgs = re.findall(r'<svg[^>]*class="strips".*?</svg>', h, re.S)
assert len(svgs) == len(r["models"]) == 1, len(svgs)
figs = [f for f in r["figures"]]
# every node a dot on every figure's strip (+ 2 in the legend)
dots = re.findall(r"<circle [^>]*><title>", svgs[0])
assert len(dots) == sum(len(f["values"]) for f in figs), (len(dots), sum(len(f["values"]) for f in figs))
assert all(len(f["values"]) == f["nodes"] for f in figs)
# the red dots are the outliers, each named by its node
red = re.findall(r'<circle [^>]*fill="#d50000"[^>]*><title>([^<]*)</title>', svgs[0])
assert len(red) == len(r["outliers"]), (len(red), len(r["outliers"]))
assert all("(outlier)" in t for t in red)
assert {t.split(":")[0] for t in red} == {o["node"] for o in r["outliers"]}
PY

# mixed models summarised: the 11-GPU box's five kinds each named once with a count
mkdir "$tmp/mixed" && cp "$fx/analyze/seed000-gv100x11.json" "$fx/analyze/hgx-h200x8-even.json" "$tmp/mixed/"
run 0 fleet "$tmp/mixed" --fail-on never
grep -q "6 x Tesla V100-PCIE-32GB, 1 x Tesla V100S-PCIE-32GB, 2 x Quadro GV100" "$tmp/out" && ok ||
    bad "mixed model not summarised: $(grep -m1 Tesla "$tmp/out")"
grep -q "Tesla V100-PCIE-32GB, Tesla V100-PCIE-32GB" "$tmp/out" && bad "a GPU name repeated in the model" || ok
grep -q "2 nodes, 2 models" "$tmp/out" && ok || bad "headline: $(head -1 "$tmp/out")"
awk 'length($0) > 100' "$tmp/out" | grep -q . && bad "a fleet line over 100 columns" || ok

echo "test_fleet_html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
