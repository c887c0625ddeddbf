#!/usr/bin/env bash
# The HTML report in headless Chromium: it loads offline, every section and every SVG
# is in the rendered DOM, and the file references nothing on the network. A screenshot
# of each page is left in the build directory (report-NAME.png).
# args: LINKSCOPE_BINARY FIXTURES_DIR. Exit 77 (skipped) when Chromium is absent.
set -euo pipefail
bin=$1
fixtures=$2
browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "SKIP: no chromium (apt-get install chromium)"
    exit 77
fi
out=$PWD/report-html
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }

sections="summary findings plan topology matrices memory collectives inventory"

# Chromium with the network cut: names resolve nowhere, the proxy is a closed port.
run_browser() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$out/profile" --disable-extensions --disable-background-networking \
        --disable-component-update --disable-sync --disable-default-apps --no-pings \
        --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=127.0.0.1:9 \
        --window-size=1280,2400 "$@" 2>>"$out/chromium.log"
}

# check NAME FIXTURE SVG_COUNT
check() {
    local name=$1 fixture=$2 svgs=$3 html="$out/$1.html"
    "$bin" report "$fixture" --format html -o "$html" || fail "$name: report exited $?"
    # byte-identical on a second run
    "$bin" report "$fixture" --format html -o "$html.again"
    cmp -s "$html" "$html.again" || fail "$name: two renderings differ"
    # nothing on the network: the only URL is the SVG namespace
    if grep -oE '(https?:)?//[A-Za-z0-9.-]+' "$html" | grep -v '^http://www.w3.org$' | grep -q .; then
        fail "$name: the file references the network: $(grep -oE 'https?://[^"]+' "$html" | grep -v www.w3.org/2000/svg | head -1)"
    fi
    grep -q '<script' "$html" && fail "$name: the report carries a script"
    grep -qi '<link ' "$html" && fail "$name: the report links an external resource"
    run_browser --log-net-log="$out/$name.netlog.json" --dump-dom "file://$html" >"$out/$name.dom" ||
        fail "$name: chromium could not load the page"
    [ -s "$out/$name.dom" ] || fail "$name: empty DOM"
    # every request of the load is in the net log; the browser's own services (Google
    # hosts, which it contacts whatever the page) aside, there must be none
    if [ -s "$out/$name.netlog.json" ]; then
        local requests
        requests=$(grep -oE '"url":"[a-z]+://[^/"]+' "$out/$name.netlog.json" | sed 's/"url":"//' |
            grep -vE '^https?://([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com|gstatic\.com)$' | sort -u || true)
        [ -z "$requests" ] || fail "$name: the page made network requests: $requests"
    fi
    for id in $sections; do
        grep -q "<section id=\"$id\">" "$out/$name.dom" || fail "$name: section '$id' missing from the DOM"
    done
    local got
    got=$(grep -o '<svg' "$out/$name.dom" | wc -l)
    [ "$got" -eq "$svgs" ] || fail "$name: $got <svg> elements in the DOM, expected $svgs"
    grep -q "name=\"linkscope-svg-count\" content=\"$svgs\"" "$out/$name.dom" || fail "$name: svg count meta differs"
    run_browser --screenshot="$PWD/report-$name.png" "file://$html" >/dev/null || fail "$name: no screenshot"
    [ -s "$PWD/report-$name.png" ] || fail "$name: empty screenshot"
    echo "ok: $name ($got SVGs, screenshot report-$name.png)"
}

# seed 000: topology + link matrix + 4 matrices (P2P ce, staged, bidirectional,
# latency); no chart: each of its all_reduce sets has one size, too few to chart (issue
# 27), so they are rows of the table under the charts' place
check seed000 "$fixtures/analyze/seed000-gv100x11.json" 6
# 2 x H200: topology + link matrix (its matrices are pair tables, 2 GPUs) + 3 busbw
# charts (all_reduce, all_gather, alltoall); their small-message times (2 or 1 sizes up
# to 1 MiB) and the P2P-disabled and Tree variants (one size each) are too few to chart
# (issue 27): rows of a table instead
check h200x2 "$fixtures/analyze/h200x2-anchors.json" 5
echo "all HTML checks passed"
