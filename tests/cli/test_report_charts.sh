#!/usr/bin/env bash
# The HTML report's pictures on mixed and degraded boxes (issue 27): every busbw chart
# draws the ceiling the plan knows for its series, with a legend for the red dashed
# line; no series with fewer than 3 points is drawn (its figures are rows of a table);
# the topology's degraded pair has a legend and its label sits clear of the fabric box.
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

charts() { # HTML: one line per chart: "TITLE|points per series ...|ceiling lines|legend"
    python3 - "$1" <<'PY'
import re, sys
h = open(sys.argv[1]).read()
for m in re.finditer(r'<svg[^>]*class="chart".*?</svg>', h, re.S):
    s = m.group(0)
    title = re.search(r"<title>(.*?)</title>", s).group(1)
    pts = [len(re.findall(r"<circle", p)) for p in re.split(r"<polyline", s)[1:]]
    print("%s|%s|%d|%d" % (title, " ".join(map(str, pts)), s.count('stroke="#b71c1c" stroke-width="1.5"'),
                           s.count("the ceiling of the links")))
PY
}

for d in "$src/examples/h200x2-run.json" "$fx/analyze/hgx-h200x8-even.json" "$fx/analyze/seed000-gv100x11.json" \
    "$fx/analyze/h200x2-anchors.json"; do
    name=$(basename "$d" .json)
    "$bin" report "$d" --format html --fail-on never -o "$tmp/$name.html" || { bad "$name: report"; continue; }
    charts "$tmp/$name.html" >"$tmp/$name.charts"
    while IFS='|' read -r title pts lines legend; do
        for p in $pts; do
            [ "$p" -ge 3 ] && ok || bad "$name: '$title' draws a series of $p points"
        done
        case $title in
        *busbw*) # the plan knows the ceiling of every series of these documents
            [ "$lines" -ge 2 ] && [ "$legend" -eq 1 ] && ok || bad "$name: '$title' has no ceiling line or legend" ;;
        esac
    done <"$tmp/$name.charts"
done
# the 8-GPU document's busbw chart (no theoretical figure in its entries) has its ceiling
grep -q "busbw" "$tmp/hgx-h200x8-even.charts" && ok || bad "hgx-h200x8-even: no busbw chart"
# seed 000's sets have one size each: no chart, a row per figure instead
[ ! -s "$tmp/seed000-gv100x11.charts" ] && ok || bad "seed000: a chart of single points"
grep -q "too few to chart" "$tmp/seed000-gv100x11.html" && ok || bad "seed000: no table of the unplotted figures"
[ "$(grep -c '<td>all_reduce</td>' "$tmp/seed000-gv100x11.html")" -ge 14 ] && ok || bad "seed000: not every set is a row"

# the degraded pair: a legend for its red dashed line, its label clear of the fabric box
"$bin" report "$fx/analyze/seed004-nvlink8-degraded.json" --format html --fail-on never -o "$tmp/d.html"
grep -q "degraded: a pair far below its class" "$tmp/d.html" && ok || bad "no legend for the degraded line"
python3 - "$tmp/d.html" <<'PY' && ok || bad "the degraded label overprints the fabric box"
import re, sys
h = open(sys.argv[1]).read()
svg = re.search(r'<svg[^>]*class="topology".*?</svg>', h, re.S).group(0)
box = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="(\d+)" height="(\d+)" rx="6" fill="#1b5e20"/>', svg)
x0, y0, w, hh = map(float, box.groups())
for m in re.finditer(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>degraded</text>', svg):
    x, y = map(float, m.groups())
    # the word is about 60 x 14 px around (x, y - 5)
    if x + 30 > x0 and x - 30 < x0 + w and y > y0 and y - 14 < y0 + hh:
        sys.exit(1)
# the box is drawn after the degraded line: its title stays readable
sys.exit(0 if svg.index('fill="#1b5e20"') > svg.index('stroke="#d50000"') else 1)
PY

# a pasted `nvidia-smi topo -m` gives each GPU's NUMA affinity only: the picture shows it
run 0 import "$fx/topo/hgx-h100x8-nic8.txt" -o "$tmp/topo.json"
"$bin" report "$tmp/topo.json" --format html --fail-on never -o "$tmp/topo.html"
[ "$(grep -o '>NUMA 0<' "$tmp/topo.html" | wc -l)" -eq 4 ] && [ "$(grep -o '>NUMA 1<' "$tmp/topo.html" | wc -l)" -eq 4 ] &&
    ok || bad "the topology picture lost the pasted NUMA affinity"

echo "test_report_charts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
