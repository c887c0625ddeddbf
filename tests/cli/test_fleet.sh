#!/usr/bin/env bash
# linkscope fleet on 12 synthetic documents made from the bundled run
# (scripts/make-fleet.py: 1.5 % noise per figure, node 1 with GPUs 0-1 at 60 %, node 2
# with port mlx5_1 at half its busbw, node 3 with GPU 1 at half its HBM bandwidth):
# exactly those three named in every output, exit 1; the good nodes alone exit 0;
# bad input exits 2 with one line naming the file. Skipped (77) without python3.
# args: linkscope binary, fixtures dir
set -u
bin=$1
fx=$2
src=$(cd "$fx/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }

python3 "$src/scripts/make-fleet.py" "$src/examples/h200x2-run.json" "$tmp/fleet" 12 --faults \
    || { echo "FAIL: make-fleet.py"; exit 1; }

# terminal: the three outlier nodes, each with its subject, and no other
run 1 fleet "$tmp/fleet" && {
    grep -q "12 nodes, 1 model, 3 with outliers" "$tmp/out" && ok || bad "headline: $(head -1 "$tmp/out")"
    for want in "node-0001 .*GPUs 0-1" "node-0002 .*port mlx5_1" "node-0003 .*GPU 1"; do
        grep -qE "^  outlier +$want" "$tmp/out" && ok || bad "node row '$want' not marked"
    done
    [ "$(grep -cE '^  outlier ' "$tmp/out")" -eq 3 ] && ok || bad "not exactly 3 outlier rows"
    [ "$(grep -cE '^  ok ' "$tmp/out")" -eq 9 ] && ok || bad "not 9 ok rows"
}

# JSON: the same three, with value, median and score
run 1 fleet --json "$tmp/fleet"/run-node-*.json && python3 - "$tmp/out" <<'PY' && ok || bad "--json content"
import json, sys
r = json.load(open(sys.argv[1]))
bad = {n["node"]: n["subjects"] for n in r["nodes"] if n["outliers"]}
assert bad == {"node-0001": ["GPUs 0-1"], "node-0002": ["port mlx5_1"], "node-0003": ["GPU 1"]}, bad
for o in r["outliers"]:  # worse: lower bandwidth or longer time
    worse = o["value"] > o["median"] if o["unit"] == "us" else o["value"] < o["median"]
    assert worse and o["score"] >= 3.5 and o["worse_pct"] >= 10, o
assert all(f["nodes"] == 12 for f in r["figures"])
PY

# a quoted glob is expanded by linkscope; HTML marks the three rows; Prometheus text
run 1 fleet "$tmp/fleet/run-node-*.json" --prom --html "$tmp/fleet.html" && {
    [ "$(grep -c '<tr class="outlier">' "$tmp/fleet.html")" -eq 3 ] && ok || bad "html: not 3 outlier rows"
    [ "$(grep -c '<tr class="ok">' "$tmp/fleet.html")" -eq 9 ] && ok || bad "html: not 9 ok rows"
    grep -qE '^linkscope_fleet_node_outliers\{node="node-0002",model="2 x NVIDIA H200"\} [1-9][0-9]*$' "$tmp/out" \
        && ok || bad "prom: node-0002 count"
    grep -q '^linkscope_fleet_outlier_nodes 3$' "$tmp/out" && ok || bad "prom: outlier_nodes"
    grep -qE '^linkscope_fleet_node_outliers\{node="node-0000",model="2 x NVIDIA H200"\} 0$' "$tmp/out" \
        && ok || bad "prom: node-0000 count 0"
    grep -q '^# TYPE linkscope_fleet_figure_median_bytes_per_second gauge$' "$tmp/out" && ok || bad "prom: TYPE"
    grep -qE '^linkscope_fleet_figure_median_seconds\{model="2 x NVIDIA H200",figure="[^"]+"\} [0-9.e-]+$' \
        "$tmp/out" && ok || bad "prom: a median in seconds"
}

# the good nodes alone: nothing to report, exit 0; --min-change above the faults (the
# slow port's small-message times are 100 % longer) hides all
mkdir "$tmp/good" && cp "$tmp/fleet"/run-node-00{00,04,05,06,07,08,09,10,11}.json "$tmp/good"
run 0 fleet "$tmp/good" && { grep -q "9 nodes, 1 model, 0 with outliers" "$tmp/out" && ok || bad "good: headline"; }
run 0 fleet "$tmp/fleet" --min-change 150
run 1 fleet "$tmp/fleet" --score 2 --min-change 5

# each node's own findings (docs/fleet.md): a collective with #wrong > 0 on an otherwise
# good node is an error (wrong_elements) and no outlier: exit 1; a pending row remap is a
# warning: exit 0, unless --fail-on warning
mkdir "$tmp/found" && cp "$tmp/good"/*.json "$tmp/found"
python3 - "$tmp/found/run-node-0004.json" "$tmp/found/run-node-0005.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
next(m for m in d["measurements"] if m["family"] == "nccl")["rows"][0]["oop"]["wrong"] = 3
json.dump(d, open(sys.argv[1], "w"))
d = json.load(open(sys.argv[2]))
d["gpus"][0]["ecc"]["remapped_rows"] = {"pending": True, "correctable": 1, "uncorrectable": 0}
json.dump(d, open(sys.argv[2], "w"))
PY
if run 1 fleet "$tmp/found"; then
    grep -q "9 nodes, 1 model, 0 with outliers, 1 with an error finding, 1 with a warning" "$tmp/out" &&
        ok || bad "found: headline: $(head -1 "$tmp/out")"
    grep -qE "^  error +node-0004 +wrong_elements" "$tmp/out" && ok || bad "found: node-0004's error"
    grep -qE "^  warning +node-0005 +ecc +GPU0" "$tmp/out" && ok || bad "found: node-0005's warning"
    grep -qE "^  error +node-0004 .* 0 / 0 " "$tmp/out" && bad "found: node-0004 row" || ok
fi
rm "$tmp/found/run-node-0004.json"
run 0 fleet "$tmp/found" --html "$tmp/found.html" && {
    grep -q '<tr class="warning"><td>warning</td><td>node-0005</td>' "$tmp/found.html" &&
        ok || bad "html: node-0005's warning row"
}
run 1 fleet "$tmp/found" --fail-on warning
run 0 fleet "$tmp/found" --prom && {
    grep -qx 'linkscope_fleet_node_findings{node="node-0005",severity="warning"} 1' "$tmp/out" &&
        ok || bad "prom: node findings"
}
run 1 fleet "$tmp/found" --fail-on info
run 0 fleet "$tmp/found" --fail-on never
run 2 fleet "$tmp/found" --fail-on sometimes
run 1 fleet "$tmp/found" --fail-on warning --quiet
grep -q "^fleet: [1-9][0-9]* of [0-9]* nodes fail$" "$tmp/out" && ok || bad "fleet --quiet: no verdict line"

# bad input: exit 2, one stderr line naming the file, nothing on stdout
expect_bad() {
    local needle=$1
    shift
    run 2 fleet "$@" || return
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "$*: not one stderr line: $(cat "$tmp/err")"
    grep -qF -- "$needle" "$tmp/err" && ok || bad "$*: stderr lacks '$needle': $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] && ok || bad "$*: wrote stdout"
}
# a document that cannot be read among others: exit 2, one stderr line naming it as
# skipped, the others still reported (issue 25)
expect_skipped() {
    local needle=$1
    shift
    run 2 fleet "$@" || return
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "$*: not one stderr line: $(cat "$tmp/err")"
    grep -qF -- "$needle" "$tmp/err" && grep -q "; skipped$" "$tmp/err" && ok ||
        bad "$*: stderr does not name '$needle' as skipped: $(cat "$tmp/err")"
    grep -q "^linkscope fleet: [1-9]" "$tmp/out" && ok || bad "$*: the other documents are not reported"
}
echo '{"schema": "linkscope.run/1"' >"$tmp/fleet/run-broken.json"
expect_skipped "run-broken.json" "$tmp/fleet"
expect_skipped "missing.json" "$tmp/good" "$tmp/missing.json"
expect_bad "no document matches" "$tmp/nothing-*.json"
expect_bad "--score" --score x "$tmp/good"
expect_bad "--min-change" --min-change 5000 "$tmp/good"
expect_bad "choose one" --json --prom "$tmp/good"
expect_bad "needs run documents" --json
expect_bad "--bogus" --bogus "$tmp/good"

echo "fleet: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
