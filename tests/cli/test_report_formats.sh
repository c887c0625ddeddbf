#!/usr/bin/env bash
# Formats tools read: report --format json (full precision, parses), check --junit
# (parses as JUnit XML, one testcase per expectation), report --quiet (exit code only),
# colour only on a terminal, and every terminal report within 100 columns with the
# verdict first.
bin=$(realpath "$1")
fx=$(realpath "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
ex="$src/examples/h200x2-run.json"
docs="$ex $fx/analyze/*.json $fx/tp/*.json $fx/discover/h200x2-inventory.json"

# every terminal report fits 100 columns and opens with the verdict
for d in $docs; do
    run 0 report "$d" --fail-on never || continue
    wide=$(awk 'length($0) > 100' "$tmp/out" | wc -l)
    [ "$wide" -eq 0 ] && ok || bad "$(basename "$d"): $wide lines wider than 100 columns"
    sed -n 3p "$tmp/out" | grep -q '^Verdict: ' && ok || bad "$(basename "$d"): line 3 is not the verdict"
    grep -q $'\033' "$tmp/out" && bad "$(basename "$d"): colour in a pipe" || ok
done
# the width comes from COLUMNS: at 80 no table (its rule of dashes) is wider than 80, at
# 200 the bundled run's tables that are laid out for 100 get wider; a COLUMNS that is no
# number is ignored (the 100 of a pipe)
rules_over() { awk -v w="$1" '/^ *-+( +-+)* *$/ && length($0) > w' "$tmp/out" | wc -l; }
COLUMNS=80 run 0 report "$ex" && { [ "$(rules_over 80)" -eq 0 ] && ok || bad "COLUMNS=80: a table over 80"; }
run 0 report "$ex" && { [ "$(rules_over 80)" -gt 0 ] && ok || bad "at 100 no table is over 80"; }
cp "$tmp/out" "$tmp/at100"
COLUMNS=200 run 0 report "$ex" && { [ "$(rules_over 100)" -gt 0 ] && ok || bad "COLUMNS=200: no table over 100"; }
COLUMNS=abc run 0 report "$ex" && { cmp -s "$tmp/out" "$tmp/at100" && ok || bad "COLUMNS=abc changed the report"; }

# the bundled run: verdict and headline on the first screen (24 lines)
run 0 report "$ex"
head -24 "$tmp/out" | grep -q "^Verdict: healthy" && ok || bad "no healthy verdict in the first 24 lines"
head -24 "$tmp/out" | grep -q "^  HBM traffic (read + write), read kernel .*93% of 4814" && ok ||
    bad "the HBM headline is not on the first screen"
head -24 "$tmp/out" | grep -q "^  NCCL all_reduce, GPUs 0,1" && ok || bad "the all_reduce headline is not on the first screen"

# Markdown and HTML open with the verdict too
run 0 report "$ex" --format md
sed -n 3p "$tmp/out" | grep -q 'Verdict: healthy' && ok || bad "Markdown does not open with the verdict"
run 1 report "$fx/analyze/seed004-nvlink8-degraded.json" --format html
grep -q '<p class="verdict error">Verdict: 3 errors' "$tmp/out" && ok || bad "HTML verdict line missing"
run 0 report "$ex" --format html
grep -q '<details><summary>39 entries</summary>' "$tmp/out" && ok || bad "HTML evidence is not collapsed"

# --quiet: the verdict line and what fails at --fail-on, nothing else
run 0 report "$ex" --quiet
[ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "^Verdict: healthy" "$tmp/out" && ok || bad "report --quiet: not the verdict line alone"
run 1 report "$fx/analyze/seed004-nvlink8-degraded.json" --quiet
grep -q "^Verdict: " "$tmp/out" && grep -q "^error " "$tmp/out" && ! grep -q "^warning " "$tmp/out" && ok || bad "report --quiet: verdict and errors expected"
run 0 report "$fx/analyze/seed004-nvlink8-degraded.json" --quiet --fail-on never

# colour: on a terminal (script(1) gives one), not with NO_COLOR
if command -v script >/dev/null; then
    script -qec "$bin report $ex" /dev/null >"$tmp/tty" 2>&1
    grep -q $'\033\\[1;32mVerdict: healthy' "$tmp/tty" && ok || bad "no colour on a terminal"
    NO_COLOR=1 script -qec "$bin report $ex" /dev/null >"$tmp/tty" 2>&1
    grep -q $'\033' "$tmp/tty" && bad "colour despite NO_COLOR" || ok
fi

# JSON: parses, full precision (the document's own double), evidence complete
run 0 report "$ex" --format json
if command -v python3 >/dev/null; then
    python3 - "$tmp/out" "$ex" <<'PY' && ok || bad "report --format json: wrong content"
import json, sys
r = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
assert r["schema"] == "linkscope.report/1" and r["verdict"]["status"] == "healthy"
doc = {m["id"]: m for m in d["measurements"] if "id" in m}
for f in r["figures"]:
    if "median" in f:
        assert f["median"] == doc[f["id"]]["value"], f["id"]  # not rounded
assert len(r["findings"][0]["evidence"]) > 30
h = {x["figure"]: x for x in r["headline"]}
hbm = h["HBM traffic (read + write), read kernel"]
assert hbm["max"] == max(m["value"] for m in d["measurements"] if m["id"].startswith("hbm-read-"))
assert 0.9 < hbm["share_of_theoretical"] < 1
PY
else
    grep -q '"median": 396.84319717845' "$tmp/out" && ok || bad "JSON median not at full precision"
fi

# JUnit: one testcase per expectation, a failure per violated one. The anchors document
# lacks most of the bundled run's figures: alone they are skipped (exit 0, <skipped/>),
# with --require-all each is a violation (docs/compare-check.md)
run 0 baseline "$ex" -o "$tmp/base.json"
run 0 check "$fx/analyze/h200x2-anchors.json" --baseline "$tmp/base.json" --junit "$tmp/skip.xml"
grep -q '<skipped' "$tmp/skip.xml" && ! grep -q '<failure' "$tmp/skip.xml" && ok ||
    bad "a missing figure is not a JUnit skipped without --require-all"
run 1 check "$fx/analyze/h200x2-anchors.json" --baseline "$tmp/base.json" --require-all \
    --junit "$tmp/junit.xml"
run 0 check "$ex" --baseline "$tmp/base.json" --junit "$tmp/ok.xml"
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['expectations']))" "$tmp/base.json" 2>/dev/null ||
    grep -c '"label"' "$tmp/base.json")
if command -v python3 >/dev/null; then
    python3 - "$tmp/junit.xml" "$tmp/ok.xml" "$n" <<'PY' && ok || bad "JUnit XML does not parse or is wrong"
import sys, xml.etree.ElementTree as ET
bad, good, n = ET.parse(sys.argv[1]).getroot(), ET.parse(sys.argv[2]).getroot(), int(sys.argv[3])
for root in (bad, good):
    s = root.find("testsuite")
    assert root.tag == "testsuites" and len(s.findall("testcase")) == n == int(s.get("tests"))
fails = [c for c in bad.find("testsuite").findall("testcase") if c.find("failure") is not None]
assert len(fails) == int(bad.find("testsuite").get("failures")) > 0
assert good.find("testsuite").get("failures") == "0"
PY
else
    [ "$(grep -c '<testcase ' "$tmp/ok.xml")" -eq "$n" ] && grep -q '</testsuites>' "$tmp/ok.xml" && ok ||
        bad "JUnit XML structure"
fi
run 2 check "$ex" --baseline "$tmp/base.json" --junit

echo "test_report_formats: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
