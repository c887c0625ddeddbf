#!/usr/bin/env bash
# The HTML report on a phone and on a desktop (issue 27): at 390 and 1400 CSS pixels, for
# the 1, 2, 8 and 11 GPU documents, the page never overflows sideways (tables scroll in
# their own box), and the verdict, the headline and the findings fit the screen. Measured
# in the page by Chromium: the report is loaded into an iframe of that width (srcdoc, so
# the measuring script outside may read it; the report itself carries no script), then
# document.documentElement.scrollWidth is compared with innerWidth. Skips (77) without
# Chromium, as test_report_html.sh does.
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "SKIP: no chromium (apt-get install chromium)"
    exit 77
fi

# measure HTML WIDTH: "scrollWidth innerWidth summary-right findings-right"
measure() {
    python3 - "$1" "$tmp/page.html" "$2" <<'EOF'
import html, sys
page, out, w = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3])
js = """<script>
window.addEventListener('load', function () {
  var f = document.getElementById('f'), d = f.contentDocument, W = f.contentWindow.innerWidth;
  var edge = function (sel) { var m = 0; d.querySelectorAll(sel).forEach(function (e) {
    m = Math.max(m, Math.round(e.getBoundingClientRect().right)); }); return m; };
  var p = document.createElement('pre');
  p.textContent = ['MEASURE', d.documentElement.scrollWidth, W, edge('#summary p, #summary table'),
                   edge('#findings table')].join(' ');
  document.body.appendChild(p);
});
</script>"""
open(out, "w").write('<!DOCTYPE html><html><body style="margin:0"><iframe id="f" style="border:0;width:%dpx;'
                     'height:900px" srcdoc="%s"></iframe>%s</body></html>' % (w, html.escape(page, quote=True), js))
EOF
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
        --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=127.0.0.1:9 --window-size=1500,1000 \
        --virtual-time-budget=3000 --dump-dom "file://$tmp/page.html" 2>/dev/null |
        grep -o 'MEASURE [0-9 ]*' | sed 's/^MEASURE //'
}

# the 1-GPU document: GPU 0 of the bundled run alone (as scripts/report-screenshots.sh)
python3 - "$src/examples/h200x2-run.json" "$tmp/h200x1.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
only0 = lambda m: all(g == 0 for g in m.get("gpus", [])) and m.get("dst", -1) in (0, -1)
d["measurements"] = [m for m in d["measurements"] if only0(m)]
d["gpus"] = [g for g in d["gpus"] if g.get("index") == 0]
for k in ("links", "nics", "gpu_nic_links"):
    d[k] = []
json.dump(d, open(sys.argv[2], "w"))
EOF

# the measure sees an overflowing page (a test that can fail)
printf '<html><body><div style="width:2000px">wide</div></body></html>' >"$tmp/wide.html"
read -r sw iw _ <<<"$(measure "$tmp/wide.html" 390)"
[ -n "$sw" ] && [ "$sw" -gt "$iw" ] && ok || bad "the measure misses an overflowing page ($sw, $iw)"

for d in "$tmp/h200x1.json" "$src/examples/h200x2-run.json" "$fx/analyze/hgx-h200x8-even.json" \
    "$fx/analyze/seed000-gv100x11.json"; do
    name=$(basename "$d" .json)
    "$bin" report "$d" --format html --fail-on never -o "$tmp/$name.html" || { bad "$name: report failed"; continue; }
    for w in 390 1400; do
        read -r sw iw summary findings <<<"$(measure "$tmp/$name.html" "$w")"
        [ -n "$sw" ] || { bad "$name at $w: no measure"; continue; }
        [ "$sw" -le "$iw" ] && ok || bad "$name at $w px: the page overflows sideways ($sw > $iw)"
        [ "$summary" -le "$iw" ] && ok || bad "$name at $w px: verdict or headline off-screen (right edge $summary)"
        [ "$findings" -le "$iw" ] && ok || bad "$name at $w px: findings off-screen (right edge $findings)"
    done
done

echo "test_report_phone: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
