#!/usr/bin/env bash
# Screenshots of the HTML report at 1, 2, 8 and 11 GPUs in headless Chromium, kept in
# docs/screenshots/ (the first screen of each report at 1100 px, on a phone's 390 px, and
# its topology picture alone). tests/cli/test_report_phone.sh measures the same pages.
# The 1-GPU document is made from examples/h200x2-run.json by keeping GPU 0 alone: its
# GPU entry, and the measurements that involve no other GPU (HBM, host copies, latency
# to the host); links, NICs, findings and plan are dropped (recomputed by report).
# usage: scripts/report-screenshots.sh BUILD/linkscope
set -euo pipefail
bin=$(realpath "${1:?usage: report-screenshots.sh BUILD/linkscope}")
cd "$(dirname "$0")/.."
out=docs/screenshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
python3 - examples/h200x2-run.json "$tmp/h200x1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
only0 = lambda m: all(g == 0 for g in m.get("gpus", [])) and m.get("dst", -1) in (0, -1)
d["measurements"] = [m for m in d["measurements"] if only0(m)]
d["gpus"] = [g for g in d["gpus"] if g.get("index") == 0]
for k in ("links", "nics", "gpu_nic_links"):
    d[k] = []
d.pop("findings", None); d.pop("plan", None)
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
shot() { # NAME DOCUMENT
    "$bin" report "$2" --format html -o "$tmp/$1.html"
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,900 \
        --screenshot="$out/report-$1.png" "file://$tmp/$1.html" >/dev/null 2>&1
    # a phone: the page in an iframe 390 px wide (headless Chromium's window is wider)
    python3 - "$tmp/$1.html" "$tmp/$1-390.html" <<'PY'
import html, sys
page = open(sys.argv[1]).read()
open(sys.argv[2], "w").write('<html><body style="margin:0"><iframe style="border:0;width:390px;height:1400px" '
                             'srcdoc="%s"></iframe></body></html>' % html.escape(page, quote=True))
PY
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=390,1400 \
        --screenshot="$out/report-$1-390.png" "file://$tmp/$1-390.html" >/dev/null 2>&1
    python3 - "$tmp/$1.html" "$tmp/$1-topo.html" <<'PY'
import re, sys
h = open(sys.argv[1]).read()
m = re.search(r'<svg[^>]*class="topology".*?</svg>', h, re.S)
open(sys.argv[2], "w").write('<html><body style="margin:0;font-family:sans-serif">' + (m.group(0) if m else "") + "</body></html>")
PY
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,640 \
        --screenshot="$out/topology-$1.png" "file://$tmp/$1-topo.html" >/dev/null 2>&1
}
shot 1gpu "$tmp/h200x1.json"
shot 2gpu examples/h200x2-run.json
shot 8gpu tests/fixtures/analyze/hgx-h200x8-even.json
shot 11gpu tests/fixtures/analyze/seed000-gv100x11.json
ls -l "$out"
